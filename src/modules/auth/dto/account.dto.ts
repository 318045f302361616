import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsEmail, IsOptional, IsString, Length, MaxLength, MinLength } from 'class-validator';
import { IsIdString, OptionalNotNull, OptionalNullable, trim } from '../../../common/validation/dto-helpers';
import { toNormalizedEmail } from '../../../common/validation/email';
import { IsWebUrl } from '../../../common/validation/is-web-url';

const NEW_PASSWORD = { minLength: 8, maxLength: 128 };

export class SendVerificationEmailDto {
  @ApiProperty({ format: 'email', example: 'ada@example.com' })
  @Transform(toNormalizedEmail)
  @IsEmail({}, { message: 'email must be a valid email address' })
  @MaxLength(254)
  email: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'Where verify-email sends the browser afterwards (origin of CLIENT_URL or PUBLIC_API_URL; a path is on CLIENT_URL)',
  })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  callbackURL?: string | null;
}

export class VerifyEmailQuery {
  @ApiProperty({ description: 'The token of the verification link' })
  @IsString()
  @Length(1, 200)
  token: string;

  @ApiPropertyOptional({ description: 'Answer 302 to this page instead of JSON (origin of CLIENT_URL or PUBLIC_API_URL)' })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  callbackURL?: string;
}

export class RequestPasswordResetDto {
  @ApiProperty({ format: 'email', example: 'ada@example.com' })
  @Transform(toNormalizedEmail)
  @IsEmail({}, { message: 'email must be a valid email address' })
  @MaxLength(254)
  email: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'The page of the reset link, which gets ?token=… (origin of CLIENT_URL or PUBLIC_API_URL); default CLIENT_URL/reset-password',
  })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  redirectTo?: string | null;
}

export class ResetPasswordDto {
  @ApiProperty(NEW_PASSWORD)
  @IsString()
  @MinLength(8, { message: 'newPassword must be at least 8 characters' })
  @MaxLength(128, { message: 'newPassword must be at most 128 characters' })
  newPassword: string;

  @ApiProperty({ description: 'The token of the reset link' })
  @IsString()
  @Length(1, 200)
  token: string;
}

export class ChangePasswordDto {
  @ApiProperty()
  @IsString()
  @MaxLength(128)
  currentPassword: string;

  @ApiProperty(NEW_PASSWORD)
  @IsString()
  @MinLength(8, { message: 'newPassword must be at least 8 characters' })
  @MaxLength(128, { message: 'newPassword must be at most 128 characters' })
  newPassword: string;

  @ApiPropertyOptional({ description: 'Revoke every other session of the user (the calling one stays); false keeps them', default: true })
  @IsOptional()
  @IsBoolean()
  revokeOtherSessions?: boolean;
}

export class RevokeSessionDto {
  @ApiProperty({ description: 'A session id from list-sessions' })
  @IsIdString()
  id: string;
}

export class UpdateUserDto {
  @ApiPropertyOptional({ example: 'Ada Lovelace' })
  @OptionalNotNull()
  @Transform(trim)
  @IsString()
  @Length(1, 100)
  name?: string;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Avatar URL (http or https); null removes it' })
  @OptionalNullable()
  @IsString()
  @MaxLength(2048)
  @IsWebUrl('image')
  image?: string | null;
}

export class DeleteUserDto {
  @ApiProperty({ description: "The user's current password" })
  @IsString()
  @MaxLength(128)
  password: string;
}
