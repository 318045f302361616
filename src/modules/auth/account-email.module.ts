import { Module, OnModuleInit } from '@nestjs/common';
import { EmailComposerRegistry } from '../mail/email-composer.registry';
import { MailModule } from '../mail/mail.module';
import { AccountEmailComposer, RESET_PASSWORD_JOB, VERIFY_EMAIL_JOB } from './account-email.composer';
import { UserDataModule } from './user-data.module';

/**
 * Worker role: the composers of the account emails (email verification, password reset) and
 * what they read and write. It has no controller, so a worker-only process can load it.
 */
@Module({
  imports: [UserDataModule, MailModule],
  providers: [AccountEmailComposer],
})
export class AccountEmailModule implements OnModuleInit {
  constructor(
    private readonly composers: EmailComposerRegistry,
    private readonly composer: AccountEmailComposer,
  ) {}

  onModuleInit(): void {
    this.composers.register(VERIFY_EMAIL_JOB, (job) => this.composer.verification(job));
    this.composers.register(RESET_PASSWORD_JOB, (job) => this.composer.passwordReset(job));
  }
}
