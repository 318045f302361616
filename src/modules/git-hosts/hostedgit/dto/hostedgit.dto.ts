import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsString, MaxLength } from 'class-validator';
import { OptionalNotNull, OptionalNullable } from '../../../../common/validation/dto-helpers';
import { IsIntInRange } from '../../../integrations/dto/validators';
import { IsBranchPattern, IsRepositoryPart } from '../../git-validators';

export class HostedgitIntegrationDto {
  @ApiProperty({ maxLength: 100, example: 'acme' })
  @IsRepositoryPart()
  repositoryOwner: string;

  @ApiProperty({ maxLength: 100, example: 'website' })
  @IsRepositoryPart()
  repositoryName: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    nullable: true,
    description: 'the App installation that covers the repository; when given it must be the one the hosted git service names for it',
  })
  @OptionalNullable()
  @IsIntInRange(1, Number.MAX_SAFE_INTEGER)
  installationId?: number | null;

  @ApiPropertyOptional({ maxLength: 100, default: '{slug}-{number}' })
  @OptionalNotNull()
  @IsBranchPattern()
  branchPattern?: string;

  @ApiPropertyOptional({ default: false })
  @OptionalNotNull()
  @IsBoolean()
  commentTaskLinkOnHostedgitIssue?: boolean;
}

export class HostedgitAuthorizeDto extends HostedgitIntegrationDto {
  @ApiPropertyOptional({
    type: String,
    maxLength: 2048,
    nullable: true,
    description: 'where to send the browser after the link (absolute, or a path on CLIENT_URL; on the origin of CLIENT_URL or PUBLIC_API_URL)',
  })
  @OptionalNullable()
  @IsString()
  @MaxLength(2048)
  callbackURL?: string | null;
}

export class UpdateHostedgitIntegrationDto {
  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  isActive?: boolean;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  commentTaskLinkOnHostedgitIssue?: boolean;

  @ApiPropertyOptional({ maxLength: 100 })
  @OptionalNotNull()
  @IsBranchPattern()
  branchPattern?: string;
}
