import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IdProp, TextProp, TimeProp } from '../../common/http/schema-props';

/** The OpenAPI schema of the Label record (LabelRecord; docs/records.md, "Label"). */
@ApiSchema({ name: 'Label' })
export class LabelRecordSchema {
  @IdProp() id: string;
  @TextProp() name: string;
  @TextProp() color: string;
  @TimeProp() createdAt: string;
  @IdProp({ nullable: true, description: "null: the workspace catalogue's label; set: a task's copy" }) taskId: string | null;
  @IdProp() workspaceId: string;
}

/** `GET /label/:id/tasks`: the tasks that carry a label. */
@ApiSchema({ name: 'LabelTasks' })
export class LabelTasksSchema {
  @ApiProperty({ type: [String], description: 'ids of the tasks that carry the label (its task copies by the same name), oldest copy first' })
  taskIds: string[];
}
