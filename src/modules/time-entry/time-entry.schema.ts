import { ApiSchema } from '@nestjs/swagger';
import { IdProp, IntProp, TextProp, TimeProp } from '../../common/http/schema-props';

/** The OpenAPI schema of the Time entry record (TimeEntryRecord; docs/records.md, "Time entry"). */
@ApiSchema({ name: 'TimeEntry' })
export class TimeEntryRecordSchema {
  @IdProp() id: string;
  @IdProp() taskId: string;
  @IdProp({ nullable: true, description: 'the author' }) userId: string | null;
  @TextProp({ nullable: true }) description: string | null;
  @TimeProp() startTime: string;
  @IntProp({ description: 'whole seconds; 0 while the timer runs' }) duration: number;
  @TimeProp() createdAt: string;
  @TimeProp() updatedAt: string;
  @TimeProp({ nullable: true, description: 'null while the timer runs' }) endTime: string | null;
}
