import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';

export class UnlinkAccountDto {
  @ApiProperty({ example: 'custom', description: 'The provider whose account to unlink (`custom`)' })
  @IsString()
  @Length(1, 64)
  providerId: string;
}
