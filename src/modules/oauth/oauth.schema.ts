import { ApiSchema } from '@nestjs/swagger';
import { IdProp, TextProp, TimeProp } from '../../common/http/schema-props';

/** Linked account (`GET /auth/list-accounts`; toAccountRecord). */
@ApiSchema({ name: 'LinkedAccount' })
export class LinkedAccountSchema {
  @IdProp() id: string;
  @TextProp() providerId: string;
  @TextProp() accountId: string;
  @TextProp({ nullable: true }) scope: string | null;
  @TimeProp() createdAt: string;
}

@ApiSchema({ name: 'IdTokenAnswer' })
export class IdTokenAnswerSchema {
  @TextProp({ nullable: true }) idToken: string | null;
}
