import { Inject, Injectable } from '@nestjs/common';
import { CryptoService } from '../../common/crypto/crypto.service';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { EmailMessage } from '../mail/email.types';
import { renderPasswordResetEmail, renderVerificationEmail } from './account-email';
import { allowedRedirect, RESET_PASSWORD_TTL_MS, resetPasswordLink, VERIFY_EMAIL_TTL_MS, verifyEmailLink } from './account-links';
import { UserTokenRepository } from './user-token.repository';
import { UserRepository } from './user.repository';

/** Job names (= composers) of the account emails on the email queue. */
export const VERIFY_EMAIL_JOB = 'verify-email';
export const RESET_PASSWORD_JOB = 'reset-password';

/**
 * What an account email request refers to (its `email_job` row; the queued job carries only the
 * row's id, docs/decisions-local.md "Queued emails"): the address as it was asked for, known or
 * not (the request does the same work either way, docs/accounts.md), and the page to come back to.
 */
export interface VerifyEmailJob {
  email: string;
  callbackURL: string | null;
}
export interface ResetPasswordJob {
  email: string;
  redirectTo: string | null;
}

/**
 * Worker role: decides whether an account email goes out (the address belongs to a user; for a
 * verification, one not verified yet), issues its token and renders it. The token is made when
 * the email is, so it exists only in the email: its SHA-256 is stored, replacing the user's
 * previous token of that kind (a retried send leaves only the last one).
 */
@Injectable()
export class AccountEmailComposer {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly users: UserRepository,
    private readonly tokens: UserTokenRepository,
  ) {}

  async verification(job: VerifyEmailJob): Promise<EmailMessage | null> {
    const user = typeof job?.email === 'string' ? await this.users.findByEmail(job.email) : null;
    if (!user || user.emailVerified) return null;
    const { token, expiresAt } = await this.issue(user.id, user.email, 'verify-email', VERIFY_EMAIL_TTL_MS);
    const link = verifyEmailLink(this.config, token, this.redirect(job.callbackURL));
    return renderVerificationEmail({ to: user.email, name: user.name, link, expiresAt });
  }

  async passwordReset(job: ResetPasswordJob): Promise<EmailMessage | null> {
    const user = typeof job?.email === 'string' ? await this.users.findByEmail(job.email) : null;
    if (!user) return null;
    const { token, expiresAt } = await this.issue(user.id, user.email, 'reset-password', RESET_PASSWORD_TTL_MS);
    const link = resetPasswordLink(this.config, token, this.redirect(job.redirectTo));
    return renderPasswordResetEmail({ to: user.email, name: user.name, link, expiresAt });
  }

  private async issue(userId: string, email: string, purpose: 'verify-email' | 'reset-password', ttlMs: number) {
    const token = CryptoService.randomToken(32);
    const expiresAt = new Date(Date.now() + ttlMs);
    await this.tokens.replace({ userId, purpose, tokenHash: CryptoService.sha256(token), email, expiresAt });
    return { token, expiresAt };
  }

  /** The request checked it already; checked again against the configuration the worker runs with. */
  private redirect(value: unknown): string | null {
    return typeof value === 'string' && value ? allowedRedirect(value, this.config) : null;
  }
}
