import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsWebUrl } from '../../../common/validation/is-web-url';
import { IsEmail, IsInt, IsObject, IsOptional, IsString, Length, Max, MaxLength, Min, MinLength } from 'class-validator';
import { IsIdString, MaxJsonLength, trim } from '../../../common/validation/dto-helpers';
import { toNormalizedEmail } from '../../../common/validation/email';

export class SignUpDto {
  @ApiProperty({ example: 'Ada Lovelace' })
  @Transform(trim)
  @IsString()
  @Length(1, 100)
  name: string;

  @ApiProperty({ format: 'email', example: 'ada@example.com' })
  @Transform(toNormalizedEmail)
  @IsEmail({}, { message: 'email must be a valid email address' })
  @MaxLength(254)
  email: string;

  @ApiProperty({ minLength: 8, maxLength: 128 })
  @IsString()
  @MinLength(8, { message: 'password must be at least 8 characters' })
  @MaxLength(128, { message: 'password must be at most 128 characters' })
  password: string;

  @ApiPropertyOptional({ description: 'Avatar URL' })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  @IsWebUrl('image')
  image?: string;

  @ApiPropertyOptional({
    description: "Where the verification email's link sends the browser once verified (origin of CLIENT_URL or PUBLIC_API_URL; a path is on CLIENT_URL)",
  })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  callbackURL?: string;
}

export class SignInDto {
  @ApiProperty()
  @Transform(toNormalizedEmail)
  @IsString()
  @MaxLength(254)
  email: string;

  @ApiProperty()
  @IsString()
  @MaxLength(128)
  password: string;
}

export class CreateApiKeyDto {
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @Length(1, 100)
  name?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 60, maximum: 10 * 365 * 24 * 3600, example: 86400, description: 'Lifetime in seconds' })
  @IsOptional()
  @IsInt()
  @Min(60)
  @Max(10 * 365 * 24 * 3600)
  expiresIn?: number;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'array', items: { type: 'string' } },
    description: '{resource: [actions]}; the key can do no more than these',
    example: { task: ['read', 'update'] },
  })
  @IsOptional()
  @IsObject()
  @MaxJsonLength(10_000)
  permissions?: Record<string, string[]>;
}

export class DeleteApiKeyDto {
  @ApiProperty()
  @IsIdString()
  keyId: string;
}
