import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IdProp, IntProp, TextProp, TimeProp } from '../../common/http/schema-props';

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

/** One attempt to deliver (DeliveryAttempt). */
@ApiSchema({ name: 'DeliveryAttempt' })
export class DeliveryAttemptSchema {
  @TimeProp({ nullable: true }) at: string | null;
  @IntProp({ nullable: true }) statusCode: number | null;
  @ApiProperty({ type: 'number', nullable: true }) durationMs: number | null;
  @TextProp({ nullable: true }) error: string | null;
}

/** Delivery (DeliveryRecord; docs/records.md, "Delivery"). */
@ApiSchema({ name: 'Delivery' })
export class DeliveryRecordSchema {
  @IdProp() id: string;
  @IdProp() eventId: string;
  @TextProp() event: string;
  @ApiProperty({ enum: [...DELIVERY_STATUSES] }) status: (typeof DELIVERY_STATUSES)[number];
  @ApiProperty({ type: [DeliveryAttemptSchema], description: 'oldest first' }) attempts: DeliveryAttemptSchema[];
  @TimeProp() createdAt: string;
  @TimeProp({ nullable: true }) deliveredAt: string | null;
}

/** The deliveries route's answer `{deliveries: Delivery[]}`. */
@ApiSchema({ name: 'DeliveryList' })
export class DeliveryListSchema {
  @ApiProperty({ type: [DeliveryRecordSchema] }) deliveries: DeliveryRecordSchema[];
}
