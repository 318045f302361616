import { ApiSchema } from '@nestjs/swagger';
import { FlagProp, IdProp, IntProp, TextProp, TimeProp } from '../../common/http/schema-props';

/** The OpenAPI schema of the Column record (ColumnRecord; docs/records.md, "Column"). */
@ApiSchema({ name: 'Column' })
export class ColumnRecordSchema {
  @IdProp() id: string;
  @IdProp() projectId: string;
  @TextProp() name: string;
  @TextProp({ description: 'the status of the tasks in the column' }) slug: string;
  @IntProp() position: number;
  @TextProp({ nullable: true }) icon: string | null;
  @TextProp({ nullable: true }) color: string | null;
  @FlagProp() isFinal: boolean;
  @TimeProp() createdAt: string;
  @TimeProp() updatedAt: string;
}
