import { BadRequestException, ConflictException, ForbiddenException, Inject, Injectable, NotFoundException, UnauthorizedException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import * as argon2 from 'argon2';
import * as jwt from 'jsonwebtoken';
import { DataSource, EntityManager } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { sessionCookie } from '../../common/http/cookies';
import { ApiKeyPrincipal, AuthUser } from '../../common/decorators/current-user.decorator';
import { CryptoService } from '../../common/crypto/crypto.service';
import { isUuid } from '../../common/pipes/id.pipe';
import { Located, PermissionTarget } from '../../common/permissions/prefetched-membership';
import { invalidPermission, splitRoles } from '../../common/permissions/permissions';
import { ScopeRegistry } from '../../common/permissions/scope-registry';
import { keyScopeAllows } from '../../common/decorators/api-key-scope.decorator';
import { EmailRequestService } from '../mail/email-request.service';
import { InvitationRepository } from '../organization/invitation.repository';
import { VERIFY_EMAIL_JOB, VerifyEmailJob } from './account-email.composer';
import { allowedRedirect, originRule } from './account-links';
import { toApiKeyRecord } from './api-key.record';
import { ApiKeyRepository } from './api-key.repository';
import { CreateApiKeyDto, SignInDto, SignUpDto } from './dto/auth.dto';
import { toSessionRecord } from './session.record';
import { LiveSessionRow, SessionRepository } from './session.repository';
import { User } from './user.entity';
import { toUserRecord, UserRecord } from './user.record';
import { UserRepository } from './user.repository';

export const JWT_ALGORITHM = 'HS256';
const API_KEY_PREFIX = 'tdm_';

export interface SessionClient {
  ip?: string | null;
  userAgent?: string | null;
}

// A real hash of a random password: sign-in with an unknown email spends the same time as a wrong password.
const DUMMY_HASH = argon2.hash(CryptoService.randomToken(16));

/** The caller of a live session, from its session and user row. */
const sessionUser = (r: LiveSessionRow, userId: string, sessionId: string): AuthUser => ({
  id: userId,
  name: r.name,
  email: r.email,
  isInstanceAdmin: r.is_instance_admin,
  sessionId,
  activeOrganizationId: r.active_organization_id,
});

/** Whether the session cookie is marked Secure: when the service is served over https (PUBLIC_API_URL). */
export const secureCookies = (config: Pick<AppConfig, 'publicApiUrl'>): boolean => config.publicApiUrl.startsWith('https:');

/** The session cookie holding a new session's token, for as long as the token lives (JWT_EXPIRES_IN). */
export const sessionCookieFor = (config: Pick<AppConfig, 'publicApiUrl' | 'jwtExpiresInSeconds'>, token: string): string =>
  sessionCookie(token, config.jwtExpiresInSeconds, secureCookies(config));

@Injectable()
export class AuthService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly users: UserRepository,
    private readonly sessions: SessionRepository,
    private readonly apiKeys: ApiKeyRepository,
    private readonly invitations: InvitationRepository,
    private readonly emails: EmailRequestService,
    private readonly scopes: ScopeRegistry,
  ) {}

  /**
   * Creates the user and, when SMTP is configured, requests its verification email in the same
   * transaction. With REQUIRE_EMAIL_VERIFICATION no session is made: `token` is null until the
   * address is verified and the user signs in (docs/accounts.md).
   */
  async signUp(dto: SignUpDto, client: SessionClient): Promise<{ token: string | null; user: UserRecord }> {
    const email = dto.email; // normalised by the DTO (toNormalizedEmail)
    const callbackURL = dto.callbackURL ? allowedRedirect(dto.callbackURL, this.config) : null;
    if (dto.callbackURL && !callbackURL) throw new BadRequestException(originRule('callbackURL'));
    await this.assertRegistrationOpen(email);
    const passwordHash = await argon2.hash(dto.password, { type: argon2.argon2id });
    const user = await this.ds.transaction(async (m) => {
      const created = await this.createUser({ name: dto.name, email, image: dto.image ?? null, passwordHash }, m);
      if (this.config.smtp.host) {
        await this.emails.request(m, VERIFY_EMAIL_JOB, { email, callbackURL } satisfies VerifyEmailJob);
      }
      return created;
    });
    const token = this.config.requireEmailVerification ? null : await this.createSession(user.id, client);
    return { token, user: toUserRecord(user) };
  }

  /** 403 when DISABLE_REGISTRATION closes sign-up and `email` has no pending invitation (sign-up and OAuth). */
  async assertRegistrationOpen(email: string): Promise<void> {
    if (this.config.disableRegistration && !(await this.invitations.hasOpenInvitationFor(email))) {
      throw new ForbiddenException('Registration is disabled');
    }
  }

  /**
   * Inserts a user (email already normalised: normalizeEmail); the first user of the instance becomes its admin.
   * 409 when the email is taken. Runs in `manager`'s transaction when given (OAuth sign-up).
   */
  async createUser(fields: { name: string; email: string; image: string | null; passwordHash: string | null; emailVerified?: boolean }, manager?: EntityManager): Promise<User> {
    const insert = async (m: EntityManager) => {
      // Serialises sign-ups so that exactly one first user becomes the instance admin.
      await this.users.lockSignUps(m);
      if (await this.users.emailTaken(fields.email, m)) throw new ConflictException('User already exists');
      const isInstanceAdmin = !(await this.users.anyUserExists(m));
      return this.users.insert({ ...fields, emailVerified: fields.emailVerified ?? false, isInstanceAdmin }, m);
    };
    return manager ? insert(manager) : this.ds.transaction(insert);
  }

  /**
   * An outside provider proved that the person signing in owns the user's email address, which
   * nobody had proved before: the address becomes verified and every credential set by whoever
   * registered it first (password, sessions, API keys) stops working. In `m`'s transaction.
   */
  async verifyEmailAndResetCredentials(userId: string, m: EntityManager): Promise<void> {
    await this.users.markEmailVerifiedWithoutPassword(userId, m);
    await this.endCredentials(userId, m);
  }

  /**
   * Ends everything made before the owner of the address proved it (docs/accounts.md, "When an
   * address is proven"): every session, every API key (so every key minted from one) and every
   * linked sign-in identity of the user. In `m`'s transaction, with the user's row locked.
   */
  async endCredentials(userId: string, m: EntityManager): Promise<void> {
    await this.sessions.revokeAllOfUser(userId, m);
    await this.apiKeys.deleteAllOfUser(userId, m);
    await this.users.unlinkSignInIdentities(userId, m);
  }

  /**
   * 403 `Email not verified` when mail is configured (so the address can be proven) and the
   * user's is not: API keys and linked sign-in identities are made only by a proven owner, so
   * that nobody who signed up with someone else's address can plant one.
   */
  async assertProvenForLastingCredentials(userId: string): Promise<void> {
    if (!this.config.smtp.host) return;
    const user = await this.users.findById(userId);
    if (user && !user.emailVerified) throw new ForbiddenException('Email not verified');
  }

  async signIn(dto: SignInDto, client: SessionClient): Promise<{ token: string; user: UserRecord }> {
    const user = await this.users.findByEmailWithPasswordHash(dto.email);
    if (!user || !user.passwordHash) {
      await argon2.verify(await DUMMY_HASH, dto.password).catch(() => false);
      throw new UnauthorizedException('Invalid email or password');
    }
    const ok = await argon2.verify(user.passwordHash, dto.password).catch(() => false);
    if (!ok) throw new UnauthorizedException('Invalid email or password');
    // Only after the password: the answer says nothing about an address to someone without it.
    if (this.config.requireEmailVerification && !user.emailVerified) throw new ForbiddenException('Email not verified');
    const token = await this.createSession(user.id, client);
    return { token, user: toUserRecord(user) };
  }

  /** Issues a session and its JWT (sub = user id, sid = session id). Used by OAuth sign-in too. */
  async createSession(userId: string, client: SessionClient = {}): Promise<string> {
    const expiresAt = new Date(Date.now() + this.config.jwtExpiresInSeconds * 1000);
    const session = await this.sessions.create({
      userId,
      expiresAt,
      ipAddress: client.ip ?? null,
      userAgent: client.userAgent?.slice(0, 512) ?? null,
    });
    return jwt.sign({ sid: session.id }, this.config.jwtSecret, {
      algorithm: JWT_ALGORITHM,
      subject: userId,
      expiresIn: this.config.jwtExpiresInSeconds,
    });
  }

  async signOut(user: AuthUser): Promise<{ success: true }> {
    if (!user.sessionId) throw new BadRequestException('Sign-out needs a session token; delete an API key instead');
    await this.sessions.revoke(user.sessionId);
    return { success: true };
  }

  /**
   * Whether the credential a request came with is still valid: its session (neither revoked nor
   * expired) or its API key (neither deleted nor expired). For flows that finish later, in a browser.
   */
  async credentialIsLive(user: { id: string; sessionId?: string | null; apiKeyId?: string | null }): Promise<boolean> {
    if (user.sessionId) return (await this.validateSession(user.sessionId, user.id)) !== null;
    if (user.apiKeyId) return isUuid(user.apiKeyId) && this.apiKeys.isLive(user.apiKeyId, user.id);
    return false;
  }

  /** The live session behind a JWT, with its user, in one statement; null when revoked or expired. */
  async validateSession(sessionId: string, userId: string): Promise<AuthUser | null> {
    if (!isUuid(sessionId) || !isUuid(userId)) return null;
    const r = await this.sessions.findLiveWithUser(sessionId, userId);
    if (!r) return null;
    return sessionUser(r, userId, sessionId);
  }

  /**
   * validateSession, and in the same statement where the resource `target` lives for the user
   * (the permission guard's lookup, docs/benchmarks.md). Null when the session is not live.
   */
  async validateSessionLocating(sessionId: string, userId: string, target: PermissionTarget): Promise<{ user: AuthUser; found: Located | null } | null> {
    if (!isUuid(sessionId) || !isUuid(userId)) return null;
    const r = await this.sessions.findLiveWithUserLocating(sessionId, userId, target.kind, this.scopes.get(target.kind).sql, target.id);
    if (!r) return null;
    return {
      user: sessionUser(r, userId, sessionId),
      found: r.workspace_id ? { workspaceId: r.workspace_id, memberId: r.member_id, roles: splitRoles(r.role) } : null,
    };
  }

  async getSession(user: AuthUser) {
    const u = await this.users.getById(user.id);
    if (!user.sessionId) return { session: null, user: toUserRecord(u) };
    return { session: toSessionRecord(await this.sessions.getById(user.sessionId)), user: toUserRecord(u) };
  }

  async setActiveOrganization(sessionId: string | undefined, organizationId: string | null): Promise<void> {
    if (!sessionId) return;
    await this.sessions.setActiveOrganization(sessionId, organizationId);
  }

  // --- API keys ---------------------------------------------------------------------------

  async createApiKey(user: AuthUser, dto: CreateApiKeyDto) {
    await this.assertProvenForLastingCredentials(user.id);
    if (dto.permissions !== undefined) {
      const err = invalidPermission(dto.permissions);
      if (err) throw new BadRequestException(err);
      // A key scoped to nothing could do nothing at all; so does `{"constructor": […]}`, whose key
      // the DTO transformation drops before it can be called an invalid resource.
      if (!Object.values(dto.permissions).some((actions) => actions.length)) throw new BadRequestException('permissions must grant at least one action');
    }
    // A scoped key can do no more than its scopes, so it cannot mint a key that could do more.
    const scopes = user.apiKey?.permissions;
    if (scopes) {
      const wanted = dto.permissions ?? {};
      const within = dto.permissions !== undefined && Object.entries(wanted).every(([res, actions]) => actions.every((a) => keyScopeAllows(scopes, res, a)));
      if (!within) throw new ForbiddenException('Insufficient API key scope');
    }
    // Nor can a key outlive the key that made it: without expiresIn, or with a longer one, the
    // new key expires with its parent.
    let expiresAt = dto.expiresIn ? new Date(Date.now() + dto.expiresIn * 1000) : null;
    const parentExpiry = user.apiKey?.expiresAt ?? null;
    if (parentExpiry && (!expiresAt || expiresAt > parentExpiry)) expiresAt = parentExpiry;
    const key = API_KEY_PREFIX + CryptoService.randomToken(32);
    const entity = await this.apiKeys.insert({
      userId: user.id,
      name: dto.name ?? null,
      start: key.slice(0, 10),
      keyHash: CryptoService.sha256(key),
      permissions: dto.permissions ?? null,
      expiresAt,
      // A key made with a key is its child: deleting the parent deletes it (docs/decisions-local.md).
      parentKeyId: user.apiKey?.id ?? null,
    });
    // The calling key was deleted while this request ran (its children go with it).
    if (!entity) throw new UnauthorizedException();
    return { ...toApiKeyRecord(entity), key };
  }

  async listApiKeys(user: AuthUser) {
    return (await this.apiKeys.listOfUser(user.id)).map(toApiKeyRecord);
  }

  async deleteApiKey(user: AuthUser, keyId: string): Promise<{ success: true }> {
    if (!isUuid(keyId)) throw new NotFoundException('API key not found');
    // A scoped key can do no more than its scopes: it may revoke itself, not the user's other keys.
    if (user.apiKey?.permissions && keyId.toLowerCase() !== user.apiKey.id) throw new ForbiddenException('Insufficient API key scope');
    if (!(await this.apiKeys.deleteOfUser(user.id, keyId))) throw new NotFoundException('API key not found');
    return { success: true };
  }

  /** Resolves a presented API key to its user; null when unknown or expired. */
  async validateApiKey(key: string): Promise<AuthUser | null> {
    if (!key.startsWith(API_KEY_PREFIX) || key.length > 200) return null;
    const r = await this.apiKeys.findLiveByHash(CryptoService.sha256(key));
    if (!r) return null;
    const apiKey: ApiKeyPrincipal = { id: r.id, permissions: r.permissions ?? null, expiresAt: r.expires_at ? new Date(r.expires_at) : null };
    return { id: r.user_id, name: r.name, email: r.email, isInstanceAdmin: r.is_instance_admin, apiKey, activeOrganizationId: null };
  }
}
