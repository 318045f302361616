import { BadRequestException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import * as argon2 from 'argon2';
import { DataSource } from 'typeorm';
import { CryptoService } from '../../common/crypto/crypto.service';
import { AuthUser } from '../../common/decorators/current-user.decorator';
import { isUuid } from '../../common/pipes/id.pipe';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { EmailRequestService } from '../mail/email-request.service';
import { RESET_PASSWORD_JOB, ResetPasswordJob, VERIFY_EMAIL_JOB, VerifyEmailJob } from './account-email.composer';
import { allowedRedirect, originRule } from './account-links';
import { AuthService } from './auth.service';
import { MemberRepository } from '../organization/member.repository';
import { WorkspaceRepository } from '../organization/workspace.repository';
import { ChangePasswordDto, DeleteUserDto, RequestPasswordResetDto, ResetPasswordDto, SendVerificationEmailDto, UpdateUserDto, VerifyEmailQuery } from './dto/account.dto';
import { toSessionListItem } from './session.record';
import { SessionRepository } from './session.repository';
import { UserTokenRepository } from './user-token.repository';
import { toUserRecord, UserRecord } from './user.record';
import { UserRepository } from './user.repository';

const INVALID_TOKEN = 'Invalid or expired token';

/**
 * Account upkeep (docs/accounts.md): email verification, password reset and change, the
 * caller's sessions. The two email requests never reveal whether an address is known: they
 * write the same email request either way, and the worker decides whether an email goes out.
 */
@Injectable()
export class AccountService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly users: UserRepository,
    private readonly tokens: UserTokenRepository,
    private readonly sessions: SessionRepository,
    private readonly emails: EmailRequestService,
    private readonly members: MemberRepository,
    private readonly workspaces: WorkspaceRepository,
    private readonly auth: AuthService,
  ) {}

  async sendVerificationEmail(dto: SendVerificationEmailDto): Promise<{ status: true }> {
    const callbackURL = this.redirect(dto.callbackURL, 'callbackURL');
    await this.ds.transaction((m) => this.emails.request(m, VERIFY_EMAIL_JOB, { email: dto.email, callbackURL } satisfies VerifyEmailJob));
    return { status: true };
  }

  /**
   * Spends a verification token: the address it was sent to is verified. When it was not verified
   * before, every session, API key and linked sign-in identity made before this proof ends
   * (docs/accounts.md, "When an address is proven"). `redirectTo`: where to send the browser.
   */
  async verifyEmail(query: VerifyEmailQuery): Promise<{ status: true; user: UserRecord; redirectTo: string | null }> {
    // Checked first, so that a refused callbackURL does not spend the token.
    const redirectTo = this.redirect(query.callbackURL, 'callbackURL');
    const user = await this.ds.transaction(async (m) => {
      const spent = await this.tokens.take('verify-email', CryptoService.sha256(query.token), m);
      if (!spent?.live) throw new BadRequestException(INVALID_TOKEN);
      // The row lock serialises this with other changes to how the user signs in.
      await this.users.lockSignInMethods(spent.userId, m);
      // The token proves the address it was sent to, not one the user has since changed to.
      const owner = await this.users.findById(spent.userId, m);
      if (!owner || owner.email !== spent.email) throw new BadRequestException(INVALID_TOKEN);
      if (await this.users.markEmailVerified(owner.id, m)) await this.auth.endCredentials(owner.id, m);
      return this.users.getById(owner.id, m);
    });
    return { status: true, user: toUserRecord(user), redirectTo };
  }

  async requestPasswordReset(dto: RequestPasswordResetDto): Promise<{ status: true }> {
    const redirectTo = this.redirect(dto.redirectTo, 'redirectTo');
    await this.ds.transaction((m) => this.emails.request(m, RESET_PASSWORD_JOB, { email: dto.email, redirectTo } satisfies ResetPasswordJob));
    return { status: true };
  }

  /**
   * Spends a reset token: the user gets the new password, the address counts as verified (the
   * link came to it), and every session, API key and linked sign-in identity made before it ends
   * (docs/accounts.md, "When an address is proven").
   */
  /** Sets the password the reset token allows; answers the address it was sent to (the account's). */
  async resetPassword(dto: ResetPasswordDto): Promise<{ email: string }> {
    const tokenHash = CryptoService.sha256(dto.token);
    // A cheap look first, so that a made-up token costs no password hash.
    if (!(await this.tokens.isLive('reset-password', tokenHash))) throw new BadRequestException(INVALID_TOKEN);
    const passwordHash = await argon2.hash(dto.newPassword, { type: argon2.argon2id });
    return this.ds.transaction(async (m) => {
      const spent = await this.tokens.take('reset-password', tokenHash, m);
      if (!spent?.live) throw new BadRequestException(INVALID_TOKEN);
      // The row lock serialises this with other changes to how the user signs in.
      await this.users.lockSignInMethods(spent.userId, m);
      const owner = await this.users.findById(spent.userId, m);
      if (!owner || owner.email !== spent.email) throw new BadRequestException(INVALID_TOKEN);
      await this.users.setPasswordHash(owner.id, passwordHash, true, m);
      await this.auth.endCredentials(owner.id, m);
      return { email: owner.email };
    });
  }

  /**
   * Changes the caller's password after checking the current one; the caller's other sessions
   * end unless `revokeOtherSessions` is false. `token` is the token to go on
   * with: the calling session's (`presentedToken`), which stays valid; null for an API key.
   */
  async changePassword(user: AuthUser, dto: ChangePasswordDto, presentedToken: string | null): Promise<{ token: string | null; user: UserRecord }> {
    const current = await this.users.findByIdWithPasswordHash(user.id);
    const ok = current?.passwordHash ? await argon2.verify(current.passwordHash, dto.currentPassword).catch(() => false) : false;
    if (!ok) throw new BadRequestException('Invalid password');
    const passwordHash = await argon2.hash(dto.newPassword, { type: argon2.argon2id });
    await this.ds.transaction(async (m) => {
      await this.users.lockSignInMethods(user.id, m);
      await this.users.setPasswordHash(user.id, passwordHash, false, m);
      // Other sessions end unless the caller asks to keep them (docs/accounts.md).
      if (dto.revokeOtherSessions !== false) await this.sessions.revokeAllOfUserExcept(user.id, user.sessionId ?? null, m);
    });
    return { token: user.sessionId ? presentedToken : null, user: toUserRecord(await this.users.getById(user.id)) };
  }

  async listSessions(user: AuthUser) {
    return (await this.sessions.listLiveOfUser(user.id)).map((s) => toSessionListItem(s, user.sessionId));
  }

  async revokeSession(user: AuthUser, sessionId: string): Promise<{ status: true }> {
    if (!isUuid(sessionId) || !(await this.sessions.revokeOfUser(user.id, sessionId.toLowerCase()))) throw new NotFoundException('Session not found');
    return { status: true };
  }

  /** Every session of the caller but the one of this request (all of them for an API key). */
  async revokeOtherSessions(user: AuthUser): Promise<{ status: true }> {
    await this.sessions.revokeAllOfUserExcept(user.id, user.sessionId ?? null);
    return { status: true };
  }

  /** Changes the caller's name and/or image (null removes the image). */
  async updateUser(user: AuthUser, dto: UpdateUserDto): Promise<{ status: true }> {
    await this.users.updateProfile(user.id, { name: dto.name, image: dto.image });
    return { status: true };
  }

  /**
   * Deletes the caller's account after checking its password (docs/compatibility.md, "Profile").
   * Workspaces where the user is the only member go with them; the only owner of a workspace
   * with other members must hand it over (or delete it) first, and then nothing is deleted. Their
   * sessions, API keys and memberships go; their tasks stay, unassigned, and their comments stay
   * without an author. The user's workspaces are locked (in id order) while this is decided, as
   * role changes and removals lock them, so the ownership rule cannot be raced.
   */
  async deleteUser(user: AuthUser, dto: DeleteUserDto): Promise<{ success: true }> {
    const current = await this.users.findByIdWithPasswordHash(user.id);
    const ok = current?.passwordHash ? await argon2.verify(current.passwordHash, dto.password).catch(() => false) : false;
    if (!ok) throw new BadRequestException('Invalid password');
    await this.ds.transaction(async (m) => {
      await this.users.lockSignInMethods(user.id, m);
      const alone: string[] = [];
      for (const workspaceId of await this.members.workspaceIdsOfUser(user.id, m)) {
        if (!(await this.workspaces.lockForChange(workspaceId, m))) continue;
        const o = await this.members.ownershipOf(workspaceId, user.id, m);
        if (!o.isMember) continue;
        if (o.members === 1) alone.push(workspaceId);
        else if (o.isOwner && o.otherOwners === 0) throw new BadRequestException('Transfer ownership or delete the workspace first');
      }
      for (const workspaceId of alone) await this.workspaces.delete(workspaceId, m);
      await this.users.delete(user.id, m);
    });
    return { success: true };
  }

  /** An optional callbackURL/redirectTo (null or empty: none), resolved; 400 when it is not on an allowed origin. */
  private redirect(value: string | null | undefined, field: string): string | null {
    if (value === undefined || value === null || value === '') return null;
    const url = allowedRedirect(value, this.config);
    if (!url) throw new BadRequestException(originRule(field));
    return url;
  }
}
