import { Body, Controller, Get, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthUser, CurrentUser } from '../../common/decorators/current-user.decorator';
import { RequirePermission, ResolvedScope, Scope } from '../../common/decorators/require-permission.decorator';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { RateLimitService } from '../../redis/rate-limit.service';
import { InvitationIdDto, InviteMemberDto } from './dto/invitation.dto';
import { InvitationService } from './invitation.service';
import { INVITATION_IN_BODY, ORG_IN_BODY } from './organization.scopes';
import { ApiAnswer, ApiErrors } from '../../common/http/api-errors';
import { AcceptInvitationAnswerSchema, InvitationRecordSchema, InvitationSentSchema, UserInvitationRecordSchema } from '../organization/organization.schema';

@ApiTags('organization')
@ApiBearerAuth()
@Controller('auth/organization')
export class InvitationController {
  constructor(
    private readonly invitations: InvitationService,
    private readonly rateLimit: RateLimitService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('invite-member')
  @ApiAnswer('Invitation, with emailSent and link', InvitationSentSchema)
  @HttpCode(200)
  @RequirePermission('invitation', 'create', ORG_IN_BODY)
  @ApiOperation({
    summary:
      'Invite by email (pending for 48 h; the email is sent by the worker when the server has SMTP). Answers the invitation with `emailSent` (false without an email server) and its accept `link`; needs invitation:create; rate limited per user',
  })
  @ApiErrors(
    [
      400,
      'User is already a member of this organization',
      'User is already invited to this organization',
      'email must be a valid email address',
      'Unknown role: …',
      'No active organization',
    ],
    [403, 'Insufficient permissions', 'Insufficient API key scope', 'Only an owner can invite an owner'],
    [404, 'Workspace not found', 'Team not found'],
    [429, 'Too many invitations, try again later'],
  )
  async invite(@CurrentUser() user: AuthUser, @Scope() scope: ResolvedScope, @Body() dto: InviteMemberDto) {
    await this.rateLimit.hit(`invite:${user.id}`, this.config.rateLimits.invites, 'Too many invitations, try again later');
    return this.invitations.invite(user, scope, dto);
  }

  @Get('list-user-invitations')
  @ApiAnswer('User invitation[] (newest first)', [UserInvitationRecordSchema])
  @ApiOperation({ summary: "The pending, unexpired invitations to the caller's email, in every workspace; needs a verified email" })
  @ApiErrors([403, 'Email not verified', 'Insufficient API key scope'])
  listForUser(@CurrentUser() user: AuthUser) {
    return this.invitations.listForUser(user);
  }

  @Post('cancel-invitation')
  @ApiAnswer('Invitation (canceled)', InvitationRecordSchema)
  @HttpCode(200)
  @RequirePermission('invitation', 'cancel', INVITATION_IN_BODY)
  @ApiOperation({ summary: 'Cancel a pending invitation; needs invitation:cancel' })
  @ApiErrors([400, 'invitationId is required', 'Invitation is no longer pending'], [403, 'Insufficient permissions', 'Insufficient API key scope'], [404, 'Invitation not found'])
  cancel(@Scope() scope: ResolvedScope, @Body() _dto: InvitationIdDto) {
    return this.invitations.cancel(scope.workspaceId, scope.resourceId);
  }

  @Post('accept-invitation')
  @ApiAnswer('{invitation, member}', AcceptInvitationAnswerSchema)
  @HttpCode(200)
  @ApiOperation({ summary: "Join the workspace (only the invited email's user); answers {invitation, member}" })
  @ApiErrors(
    [400, 'Invitation is no longer pending', 'Invitation has expired', 'User is already a member of this organization'],
    [403, 'You are not the recipient of the invitation', 'Insufficient API key scope'],
    [404, 'Invitation not found'],
  )
  accept(@CurrentUser() user: AuthUser, @Body() dto: InvitationIdDto) {
    return this.invitations.accept(user, dto.invitationId);
  }

  @Post('reject-invitation')
  @ApiAnswer('Invitation (rejected)', InvitationRecordSchema)
  @HttpCode(200)
  @ApiOperation({ summary: "Decline an invitation (only the invited email's user)" })
  @ApiErrors([400, 'Invitation is no longer pending'], [403, 'You are not the recipient of the invitation', 'Insufficient API key scope'], [404, 'Invitation not found'])
  reject(@CurrentUser() user: AuthUser, @Body() dto: InvitationIdDto) {
    return this.invitations.reject(user, dto.invitationId);
  }
}
