import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { IsIdString, IsTimestamp, OptionalNullable } from '../../../common/validation/dto-helpers';

export class UpdateTimeEntryDto {
  @ApiPropertyOptional({ format: 'date-time' })
  @IsOptional()
  @IsTimestamp()
  startTime?: string;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, description: 'absent on create, or null = a running timer' })
  @OptionalNullable()
  @IsTimestamp()
  endTime?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @OptionalNullable()
  @IsString()
  @MaxLength(5_000)
  description?: string | null;
}

export class CreateTimeEntryDto extends OmitType(UpdateTimeEntryDto, ['startTime'] as const) {
  @ApiProperty()
  @IsIdString()
  taskId: string;

  @ApiProperty({ format: 'date-time' })
  @IsTimestamp()
  startTime: string;
}
