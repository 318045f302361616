import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import { OptionalNotNull } from '../../../../common/validation/dto-helpers';
import { IsRequiredString } from '../../../organization/dto/validators';
import { IsWebhookUrl } from '../../../integrations/dto/validators';
import { IsBranchPattern, IsRepositoryPart } from '../../git-validators';

/** The access token: visible ASCII characters, at most 512 (it travels in an HTTP header; tokens never hold spaces). */
const IsAccessToken = () => IsRequiredString({ max: 512, pattern: /^[\x21-\x7e]+$/, patternMessage: 'must contain only visible ASCII characters, no spaces' });

/** What verify and create share: where the server is, the token and the repository. */
export class SelfgitConnectionDto {
  @ApiProperty({ maxLength: 2048, example: 'https://git.example.com', description: "the server's address (http or https, no query); checked by the destination guard" })
  @IsWebhookUrl()
  baseUrl: string;

  @ApiProperty({ maxLength: 512, description: 'a personal access token of the server (issues: read and write); stored encrypted; never answered' })
  @IsAccessToken()
  accessToken: string;

  @ApiProperty({ maxLength: 100, example: 'acme' })
  @IsRepositoryPart()
  repositoryOwner: string;

  @ApiProperty({ maxLength: 100, example: 'website' })
  @IsRepositoryPart()
  repositoryName: string;
}

export class VerifySelfgitDto extends SelfgitConnectionDto {
  @ApiPropertyOptional({
    description: 'a project of the workspace to check the caller against (its workspace:manage_settings); without it, any workspace where the caller holds it',
  })
  @OptionalNotNull()
  @IsRequiredString({ max: 100 })
  projectId?: string;
}

export class SelfgitIntegrationDto extends SelfgitConnectionDto {
  @ApiPropertyOptional({ maxLength: 100, default: '{slug}-{number}', description: 'how branch names name a task: {slug} = the project key, {number} = the task number' })
  @OptionalNotNull()
  @IsBranchPattern()
  branchPattern?: string;

  @ApiPropertyOptional({ default: false, description: "post a comment with the task's link on each issue imported or created as a task" })
  @OptionalNotNull()
  @IsBoolean()
  commentTaskLinkOnSelfgitIssue?: boolean;
}

export class UpdateSelfgitIntegrationDto {
  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  isActive?: boolean;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  commentTaskLinkOnSelfgitIssue?: boolean;

  @ApiPropertyOptional({ maxLength: 100 })
  @OptionalNotNull()
  @IsBranchPattern()
  branchPattern?: string;
}

export class ImportIssuesDto {
  @ApiProperty({ description: 'the project whose selfgit integration imports' })
  @IsRequiredString({ max: 100 })
  projectId: string;
}
