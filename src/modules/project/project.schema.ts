import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { FlagProp, IdProp, IntProp, TextProp, TimeProp } from '../../common/http/schema-props';
import { ColumnRecordSchema } from '../column/column.schema';
import { TaskRecordSchema } from '../task/task.schema';

/** The OpenAPI schema of the Project record (ProjectRecord; docs/records.md, "Project"). */
@ApiSchema({ name: 'Project' })
export class ProjectRecordSchema {
  @IdProp() id: string;
  @IdProp() workspaceId: string;
  @TextProp({ description: 'the task key (`API` in `API-12`)' }) slug: string;
  @TextProp({ nullable: true }) icon: string | null;
  @TextProp() name: string;
  @TextProp({ nullable: true }) description: string | null;
  @TimeProp() createdAt: string;
  @FlagProp() isPublic: boolean;
  @TimeProp({ nullable: true }) archivedAt: string | null;
  @IntProp({ description: "0-based place among the workspace's projects" }) position: number;
}

/** A column of the public board, with its tasks. */
@ApiSchema({ name: 'PublicColumn' })
export class PublicColumnSchema extends ColumnRecordSchema {
  @ApiProperty({ type: [TaskRecordSchema], description: 'its first 200 tasks in board order' }) tasks: TaskRecordSchema[];
  @IntProp({ description: "the column's tasks in all (tasks holds at most 200)" }) taskCount: number;
}

/** Public project (`GET /public-project/:id`; PublicProjectRecord). */
@ApiSchema({ name: 'PublicProject' })
export class PublicProjectSchema extends ProjectRecordSchema {
  @ApiProperty({ type: [PublicColumnSchema] }) columns: PublicColumnSchema[];
  @ApiProperty({ type: [TaskRecordSchema], description: 'the first 200' }) plannedTasks: TaskRecordSchema[];
  @IntProp() plannedTaskCount: number;
  @ApiProperty({ type: [TaskRecordSchema], description: 'the first 200' }) archivedTasks: TaskRecordSchema[];
  @IntProp() archivedTaskCount: number;
}
