import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength } from 'class-validator';
import { RELATION_TYPES, RelationType } from '../task-relation.record';

export class CreateTaskRelationDto {
  @ApiProperty({ description: 'the task the relation starts from (its workspace decides the permission)' })
  @IsString()
  @MaxLength(100)
  sourceTaskId: string;

  @ApiProperty({ description: 'a task of the same workspace' })
  @IsString()
  @MaxLength(100)
  targetTaskId: string;

  @ApiProperty({ enum: RELATION_TYPES, description: 'subtask: the target is a subtask of the source; blocks: the source blocks the target; related' })
  @IsIn(RELATION_TYPES)
  relationType: RelationType;
}
