import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength } from 'class-validator';
import { GitSource } from '../git-integration.record';
import { WORKFLOW_EVENTS, WORKFLOW_INTEGRATION_TYPES, WorkflowEvent } from '../workflow-rule.record';

export class PutWorkflowRuleDto {
  @ApiProperty({ enum: WORKFLOW_INTEGRATION_TYPES })
  @IsIn(WORKFLOW_INTEGRATION_TYPES)
  integrationType: GitSource;

  @ApiProperty({ enum: WORKFLOW_EVENTS })
  @IsIn(WORKFLOW_EVENTS)
  eventType: WorkflowEvent;

  @ApiProperty({ description: 'a column of the project in the path' })
  @IsString()
  @MaxLength(100)
  columnId: string;
}
