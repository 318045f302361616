import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/**
 * The OpenAPI schemas of the small answers many routes share (docs/records.md, "Status answer"):
 * `{success: true}`, `{status: true}`, `{message}` on success, `{}`.
 */
@ApiSchema({ name: 'SuccessAnswer' })
export class SuccessAnswer {
  @ApiProperty({ type: Boolean, enum: [true] })
  success: true;
}

@ApiSchema({ name: 'StatusAnswer' })
export class StatusAnswer {
  @ApiProperty({ type: Boolean, enum: [true] })
  status: true;
}

/** A success answer that is a sentence (`Team removed successfully.`). */
@ApiSchema({ name: 'MessageAnswer' })
export class MessageAnswer {
  @ApiProperty()
  message: string;
}

/** `{}`: the route answers no fields (ApiAnswer documents it inline, as an object without properties). */
export class EmptyAnswer {}
