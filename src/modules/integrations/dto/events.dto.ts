import { ApiPropertyOptional } from '@nestjs/swagger';

/**
 * The task events an integration forwards (docs/integrations.md, "Events selection"): any subset
 * of the six kinds and the five more (all off by default), each a boolean; members not sent keep their value (the defaults on create),
 * unknown members are refused. The schema of the OpenAPI document; IsEvents validates.
 */
export class EventsDto {
  @ApiPropertyOptional({ description: 'default true' }) taskCreated?: boolean;
  @ApiPropertyOptional({ description: 'default true' }) taskStatusChanged?: boolean;
  @ApiPropertyOptional({ description: 'default false' }) taskPriorityChanged?: boolean;
  @ApiPropertyOptional({ description: 'default false' }) taskTitleChanged?: boolean;
  @ApiPropertyOptional({ description: 'default false' }) taskDescriptionChanged?: boolean;
  @ApiPropertyOptional({ description: 'default true' }) taskCommentCreated?: boolean;
  @ApiPropertyOptional({ description: 'default false: a task deleted (`task.deleted`)' }) taskDeleted?: boolean;
  @ApiPropertyOptional({ description: 'default false: a task moved to this project from another (`task.moved`)' }) taskMoved?: boolean;
  @ApiPropertyOptional({ description: 'default false: a due date set, changed or removed (`task.due_date_changed`)' }) taskDueDateChanged?: boolean;
  @ApiPropertyOptional({ description: 'default false: a task assigned or unassigned (`task.assignee_changed`, `task.unassigned`)' }) taskAssigneeChanged?: boolean;
  @ApiPropertyOptional({ description: 'default false: a due date coming up (`task.due_date_reminder`)' }) dueDateReminder?: boolean;
}
