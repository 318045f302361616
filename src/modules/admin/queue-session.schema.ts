import { ApiSchema } from '@nestjs/swagger';
import { TimeProp } from '../../common/http/schema-props';

/** The queue dashboard session's answer `{expiresAt}`. */
@ApiSchema({ name: 'QueueSessionAnswer' })
export class QueueSessionAnswerSchema {
  @TimeProp() expiresAt: string;
}
