import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import { OptionalNotNull, OptionalNullable } from '../../../../common/validation/dto-helpers';
import { IsIntInRange } from '../../dto/validators';
import { IsBranchPattern, IsRepositoryPart } from '../../git/git-validators';

export class HostedgitIntegrationDto {
  @ApiProperty({ maxLength: 100, example: 'acme' })
  @IsRepositoryPart()
  repositoryOwner: string;

  @ApiProperty({ maxLength: 100, example: 'website' })
  @IsRepositoryPart()
  repositoryName: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, nullable: true, description: 'the App installation that covers the repository (for the task-link comment)' })
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
