import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { EmailMessage } from '../mail/email.types';
import { UserRepository } from '../auth/user.repository';
import { renderInvitationEmail } from './invitation-email';
import { InvitationRepository } from './invitation.repository';
import { WorkspaceRepository } from './workspace.repository';

/** Job name (= composer) of the invitation email on the email queue. */
export const INVITATION_EMAIL_JOB = 'invitation';

/** What an invitation email request refers to (its `email_job` row, never the queued job): ids only, the rest is read when the worker sends. */
export interface InvitationEmailJob {
  invitationId: string;
  send: number;
}

/** The accept link of an invitation (the email's, and invite-member's `link`). */
export const invitationAcceptUrl = (clientUrl: string, invitationId: string) => `${clientUrl}/invitation/accept/${invitationId}`;

/** Worker role: renders invitation emails from the database as it is when the job runs. */
@Injectable()
export class InvitationEmailComposer {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly invitations: InvitationRepository,
    private readonly workspaces: WorkspaceRepository,
    private readonly users: UserRepository,
  ) {}

  acceptUrl(invitationId: string): string {
    return invitationAcceptUrl(this.config.clientUrl, invitationId);
  }

  /** The email, or null when it should not be sent any more (canceled, answered, expired or gone). */
  async compose(job: InvitationEmailJob): Promise<EmailMessage | null> {
    const invitation = typeof job?.invitationId === 'string' ? await this.invitations.findById(job.invitationId) : null;
    if (!invitation || invitation.status !== 'pending' || invitation.expiresAt.getTime() <= Date.now()) return null;
    const [workspace, inviter] = await Promise.all([this.workspaces.findById(invitation.organizationId), invitation.inviterId ? this.users.findById(invitation.inviterId) : null]);
    if (!workspace) return null;
    return renderInvitationEmail({
      to: invitation.email,
      workspaceName: workspace.name,
      inviterName: inviter?.name ?? null,
      inviterEmail: inviter?.email ?? null,
      role: invitation.role,
      acceptUrl: this.acceptUrl(invitation.id),
      expiresAt: invitation.expiresAt,
    });
  }
}
