import { Module, OnModuleInit } from '@nestjs/common';
import { UserDataModule } from '../auth/user-data.module';
import { EmailComposerRegistry } from '../mail/email-composer.registry';
import { MailModule } from '../mail/mail.module';
import { INVITATION_EMAIL_JOB, InvitationEmailComposer } from './invitation-email.composer';
import { OrganizationDataModule } from './organization-data.module';

/**
 * Worker role: the invitation email's composer and what it reads. It has no controller, so a
 * worker-only process can load it without the organization routes.
 */
@Module({
  imports: [OrganizationDataModule, UserDataModule, MailModule],
  providers: [InvitationEmailComposer],
})
export class InvitationEmailModule implements OnModuleInit {
  constructor(
    private readonly composers: EmailComposerRegistry,
    private readonly composer: InvitationEmailComposer,
  ) {}

  onModuleInit(): void {
    this.composers.register(INVITATION_EMAIL_JOB, (job) => this.composer.compose(job));
  }
}
