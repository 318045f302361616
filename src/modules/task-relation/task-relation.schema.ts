import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IdProp, IntProp, TextProp, TimeProp } from '../../common/http/schema-props';
import { PRIORITIES } from '../task/task.record';
import { RELATION_TYPES, RelationType } from './task-relation.record';

/** The OpenAPI schema of the Task relation record (TaskRelationRecord; docs/records.md, "Task relation"). */
@ApiSchema({ name: 'TaskRelation' })
export class TaskRelationRecordSchema {
  @IdProp() id: string;
  @IdProp() sourceTaskId: string;
  @IdProp() targetTaskId: string;
  @ApiProperty({ enum: [...RELATION_TYPES] }) relationType: RelationType;
  @TimeProp() createdAt: string;
}

/** One end of a listed relation (RelatedTaskRecord). */
@ApiSchema({ name: 'RelatedTask' })
export class RelatedTaskSchema {
  @IdProp() id: string;
  @TextProp() title: string;
  @TextProp() status: string;
  @ApiProperty({ enum: [...PRIORITIES] }) priority: string;
  @IntProp() number: number;
  @IdProp() projectId: string;
  @IdProp({ nullable: true }) userId: string | null;
  @TextProp({ nullable: true }) assigneeName: string | null;
}

/** Task relation list item (TaskRelationListItem). */
@ApiSchema({ name: 'TaskRelationListItem' })
export class TaskRelationListItemSchema extends TaskRelationRecordSchema {
  @ApiProperty({ type: RelatedTaskSchema }) sourceTask: RelatedTaskSchema;
  @ApiProperty({ type: RelatedTaskSchema }) targetTask: RelatedTaskSchema;
}
