import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IdProp, IntProp, TextProp, TimeProp } from '../../common/http/schema-props';
import { Priority, PRIORITIES } from './task.record';

/** The OpenAPI schema of the Task record (TaskRecord; docs/records.md, "Task"). */
@ApiSchema({ name: 'Task' })
export class TaskRecordSchema {
  @IdProp() id: string;
  @IdProp() projectId: string;
  @IntProp() position: number;
  @IntProp({ description: 'the task number within the project (`API-12` is 12)' }) number: number;
  @IdProp({ nullable: true, description: 'the assignee' }) userId: string | null;
  @TextProp() title: string;
  @TextProp({ nullable: true }) description: string | null;
  @TextProp({ description: 'a column slug of the project, or `planned` / `archived`' }) status: string;
  @ApiProperty({ enum: [...PRIORITIES] }) priority: Priority;
  @TimeProp() createdAt: string;
  @TimeProp({ nullable: true }) startDate: string | null;
  @TimeProp({ nullable: true }) dueDate: string | null;
}

@ApiSchema({ name: 'Pagination' })
export class PaginationSchema {
  @IntProp() total: number;
  @IntProp() page: number;
  @IntProp() pageSize: number;
  @IntProp() totalPages: number;
}

/** Task page (`GET /task/tasks/:projectId`). */
@ApiSchema({ name: 'TaskPage' })
export class TaskPageSchema {
  @ApiProperty({ type: [TaskRecordSchema] }) data: TaskRecordSchema[];
  @ApiProperty({ type: PaginationSchema }) pagination: PaginationSchema;
}

/** Move answer (`PUT /task/move/:id`). */
@ApiSchema({ name: 'MoveAnswer' })
export class MoveAnswerSchema {
  @ApiProperty({ type: TaskRecordSchema }) task: TaskRecordSchema;
  @IdProp() sourceProjectId: string;
  @IdProp() destinationProjectId: string;
}

@ApiSchema({ name: 'CardLabel' })
export class CardLabelSchema {
  @TextProp() name: string;
  @TextProp() color: string;
}

@ApiSchema({ name: 'CardSubtasks' })
export class CardSubtasksSchema {
  @IntProp() total: number;
  @IntProp({ description: 'subtasks in a final column of their project' }) done: number;
}

/** What a board card shows beside the task itself (`GET /task/card-details/:projectId`; docs/web.md, "The board"). */
@ApiSchema({ name: 'CardDetails' })
export class CardDetailsSchema {
  @IdProp() taskId: string;
  @ApiProperty({ type: [CardLabelSchema] }) labels: CardLabelSchema[];
  @IntProp() commentCount: number;
  @IntProp() attachmentCount: number;
  @ApiProperty({ type: CardSubtasksSchema }) subtasks: CardSubtasksSchema;
  @IntProp({ description: 'tasks that block this one and are not in a final column' }) blockedBy: number;
}
