import { IsIdString } from '../../common/validation/dto-helpers';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, ValidateBy } from 'class-validator';

/** "50" → 50; anything else stays as sent, for the validator to refuse. */
const toInt = ({ value }: { value: unknown }) => (typeof value === 'string' && /^\d{1,4}$/.test(value) ? Number(value) : value);

export const DELIVERY_PAGE_DEFAULT = 50;

export class ListDeliveriesQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: DELIVERY_PAGE_DEFAULT })
  @IsOptional()
  @Transform(toInt)
  @ValidateBy({
    name: 'deliveryLimit',
    validator: { validate: (v: unknown) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 100, defaultMessage: () => 'limit must be an integer from 1 to 100' },
  })
  limit?: number;

  @ApiPropertyOptional({ description: 'a delivery id: the page after it (older deliveries)' })
  @IsOptional()
  @IsIdString()
  before?: string;
}
