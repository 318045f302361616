import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ActivityRecordSchema } from '../activity/activity.schema';
import { WorkspaceRecordSchema } from '../organization/organization.schema';
import { ProjectRecordSchema } from '../project/project.schema';
import { TaskRecordSchema } from '../task/task.schema';

/** Search answer (SearchResult; docs/records.md, "Search answer"): all five arrays, those outside the requested type empty. */
@ApiSchema({ name: 'SearchAnswer' })
export class SearchAnswerSchema {
  @ApiProperty({ type: [TaskRecordSchema] }) tasks: TaskRecordSchema[];
  @ApiProperty({ type: [ProjectRecordSchema] }) projects: ProjectRecordSchema[];
  @ApiProperty({ type: [WorkspaceRecordSchema] }) workspaces: WorkspaceRecordSchema[];
  @ApiProperty({ type: [ActivityRecordSchema], description: 'activities of type comment' }) comments: ActivityRecordSchema[];
  @ApiProperty({ type: [ActivityRecordSchema] }) activities: ActivityRecordSchema[];
}
