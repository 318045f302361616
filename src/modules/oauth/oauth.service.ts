import { BadRequestException, ConflictException, ForbiddenException, Inject, Injectable, NotFoundException, UnauthorizedException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import * as jwt from 'jsonwebtoken';
import { generators, TokenSet } from 'openid-client';
import { DataSource, EntityManager } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { CryptoService } from '../../common/crypto/crypto.service';
import { AuthUser } from '../../common/decorators/current-user.decorator';
import { normalizeEmail } from '../../common/validation/email';
import { AuthService, JWT_ALGORITHM, SessionClient } from '../auth/auth.service';
import type { User } from '../auth/user.entity';
import { toUserRecord, UserRecord } from '../auth/user.record';
import { UserRepository } from '../auth/user.repository';
import { Account } from './account.entity';
import { toAccountRecord } from './account.record';
import { AccountRepository } from './account.repository';
import { readCookie } from '../../common/http/cookies';
import { bindingCookie, bindingCookieName, bindingMatches, newBrowserBinding } from './oauth-browser-binding';
import { OAuthStateStore } from './oauth-state.store';
import { resolveCallbackUrl } from './oauth-urls';
import { OidcClientService, ProviderSignIn, safeCode } from './oidc-client.service';

/** The provider id of the one configured OpenID provider (the `custom` in its routes). */
export const CUSTOM_PROVIDER_ID = 'custom';

// Refresh a little before the id token expires, so that the caller gets one it can still use.
const REFRESH_MARGIN_MS = 60_000;

export interface OAuthSignIn {
  token: string;
  user: UserRecord;
  /** The client's callbackURL with `#token=…`, when the flow was started with one. */
  redirectTo: string | null;
}

/**
 * Sign-in and account linking with the custom OpenID provider, and the stored id token
 * (docs/decisions-local.md, Custom OAuth). Provider tokens are kept only as CryptoService ciphertext.
 */
@Injectable()
export class OAuthService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly oidc: OidcClientService,
    private readonly states: OAuthStateStore,
    private readonly accounts: AccountRepository,
    private readonly auth: AuthService,
    private readonly users: UserRepository,
    private readonly crypto: CryptoService,
  ) {}

  /** The provider URL to send the browser to. A valid session token in `authorization` links instead of signing in. */
  async authorize(callbackURL: unknown, authorization: unknown): Promise<{ url: string; setCookie: string }> {
    this.oidc.assertEnabled();
    const callback = this.allowedCallback(callbackURL);
    const linking = await this.linkingUser(authorization);
    if (linking) await this.auth.assertProvenForLastingCredentials(linking.userId);
    const req = { state: generators.state(), nonce: generators.nonce(), codeVerifier: generators.codeVerifier() };
    const url = await this.oidc.authorizationUrl(req);
    const binding = newBrowserBinding();
    await this.states.put(req.state, {
      codeVerifier: req.codeVerifier,
      nonce: req.nonce,
      callbackURL: callback,
      linkUserId: linking?.userId ?? null,
      linkSessionId: linking?.sessionId ?? null,
      browserBinding: binding.hash,
    });
    return { url, setCookie: this.bindingCookie(req.state, binding.secret) };
  }

  /** Set-Cookie for the flow of `state`: its browser secret, or (secret null) clearing it. */
  bindingCookie(state: string, secret: string | null): string {
    const redirect = new URL(this.oidc.redirectUri);
    return bindingCookie(bindingCookieName(state), secret, redirect.pathname, redirect.protocol === 'https:');
  }

  async callback(query: Record<string, unknown>, client: SessionClient, cookieHeader?: string): Promise<OAuthSignIn> {
    this.oidc.assertEnabled();
    const state = query.state as string;
    const pending = await this.states.take(state);
    if (!pending) throw new BadRequestException('Invalid or expired OAuth state');
    if (!bindingMatches(readCookie(cookieHeader, bindingCookieName(state)), pending.browserBinding)) {
      throw new BadRequestException('OAuth state was not issued to this browser');
    }
    if (query.error !== undefined) throw new BadRequestException(`OAuth provider refused the sign-in: ${safeCode(query.error)}`);
    if (typeof query.code !== 'string' || !query.code) throw new BadRequestException('code is required');
    const iss = typeof query.iss === 'string' ? query.iss : undefined;
    const signIn = await this.oidc.exchangeCode({ code: query.code, state, ...(iss ? { iss } : {}) }, { state, nonce: pending.nonce, codeVerifier: pending.codeVerifier });
    const user = await this.ds.transaction((m) =>
      pending.linkUserId ? this.link(m, pending.linkUserId, pending.linkSessionId ?? null, signIn) : this.findOrCreateUser(m, signIn),
    );
    const token = await this.auth.createSession(user.id, client);
    let redirectTo: string | null = null;
    if (pending.callbackURL) {
      const u = new URL(pending.callbackURL);
      u.hash = `token=${encodeURIComponent(token)}`;
      redirectTo = u.toString();
    }
    return { token, user: toUserRecord(user), redirectTo };
  }

  /** The caller's provider accounts, without tokens. */
  async listAccounts(user: AuthUser): Promise<Array<{ id: string; providerId: string; accountId: string; scope: string | null; createdAt: string }>> {
    this.assertWholeIdentity(user);
    return (await this.accounts.listOfUser(user.id)).map(toAccountRecord);
  }

  /**
   * Removes the caller's account at `providerId` with its stored tokens. Refused while it is the
   * user's only way to sign in (no password and no other account), so nobody locks themselves out.
   */
  async unlinkAccount(user: AuthUser, providerId: string): Promise<{ success: true }> {
    this.assertWholeIdentity(user);
    return this.ds.transaction(async (m) => {
      // The user row lock serialises unlinks of one user, so two cannot remove the last two ways in.
      const owner = await this.users.lockSignInMethods(user.id, m);
      const accounts = await this.accounts.listOfUser(user.id, m);
      const account = accounts.find((a) => a.providerId === providerId);
      if (!account || !owner) throw new NotFoundException('Account not found');
      if (!owner.hasPassword && accounts.length === 1) throw new BadRequestException('Cannot unlink the only way to sign in');
      await this.accounts.deleteOfUser(user.id, account.id, m);
      return { success: true as const };
    });
  }

  /** An API key limited to some resources may not act for the whole identity. */
  private assertWholeIdentity(user: AuthUser): void {
    if (user.apiKey?.permissions) throw new ForbiddenException('Insufficient API key scope');
  }

  /** The caller's stored id token, refreshed through the provider when it has expired. */
  async idToken(user: AuthUser): Promise<{ idToken: string | null }> {
    this.assertWholeIdentity(user);
    if (!this.oidc.enabled) return { idToken: null };
    const account = await this.accounts.findForUser(user.id, CUSTOM_PROVIDER_ID);
    if (!account?.idToken) return { idToken: null };
    if (!this.needsRefresh(account)) return { idToken: this.crypto.decrypt(account.idToken) };
    return this.ds.transaction(async (m) => {
      // Row lock: concurrent requests refresh once; the others read the result after the lock.
      const locked = await this.accounts.findForUser(user.id, CUSTOM_PROVIDER_ID, m, true);
      if (!locked?.idToken) return { idToken: null };
      if (this.needsRefresh(locked)) {
        const tokens = await this.oidc.refresh(this.crypto.decrypt(locked.refreshToken!), locked.accountId);
        if (tokens) this.applyTokens(locked, tokens);
        else locked.refreshToken = null; // refused by the provider: stop trying, keep the last id token
        await this.accounts.save(locked, m);
      }
      return { idToken: this.crypto.decrypt(locked.idToken!) };
    });
  }

  private needsRefresh(a: Account): boolean {
    return Boolean(a.refreshToken && a.idTokenExpiresAt && a.idTokenExpiresAt.getTime() <= Date.now() + REFRESH_MARGIN_MS);
  }

  /** Existing linked account → its user; else the user with the same verified email; else a new user. */
  private async findOrCreateUser(m: EntityManager, { tokens, claims }: ProviderSignIn): Promise<User> {
    await this.accounts.lockProviderAccount(CUSTOM_PROVIDER_ID, claims.sub, m);
    const existing = await this.accounts.findByProviderAccount(CUSTOM_PROVIDER_ID, claims.sub, m);
    if (existing) {
      await this.accounts.save(this.applyTokens(existing, tokens), m);
      return this.users.getById(existing.userId, m);
    }
    const email = typeof claims.email === 'string' ? normalizeEmail(claims.email) : '';
    if (!/^[^\s@]+@[^\s@]+$/.test(email) || email.length > 320) {
      throw new BadRequestException('The OAuth provider did not share an email address');
    }
    // Only a provider-verified address may claim an existing user or a new one.
    if (claims.email_verified !== true && String(claims.email_verified) !== 'true') {
      throw new ForbiddenException('The OAuth provider has not verified this email address');
    }
    let user = await this.users.findByEmail(email, m);
    if (user) {
      if (!user.emailVerified) {
        // Nobody proved they own this address when the user signed up; the provider now proves the
        // signer-in does. Credentials set by whoever registered it first (password, sessions, API
        // keys, a linked identity) stop working, so a user pre-registered with someone else's
        // address cannot keep access to their account.
        await this.auth.verifyEmailAndResetCredentials(user.id, m);
      } else if (await this.accounts.findForUser(user.id, CUSTOM_PROVIDER_ID, m)) {
        throw new ConflictException('Another OAuth account is already linked to this user');
      }
    } else {
      await this.auth.assertRegistrationOpen(email);
      user = await this.auth.createUser({ name: displayName(claims, email), email, image: pictureUrl(claims.picture), passwordHash: null, emailVerified: true }, m);
    }
    await this.accounts.save(this.applyTokens(this.accounts.build(user.id, CUSTOM_PROVIDER_ID, claims.sub, m), tokens), m);
    return user;
  }

  /**
   * A signed-in user started the flow: attach the provider account to them, if the session that
   * started it is still live (a password reset or a first verification in between ended it,
   * docs/accounts.md "When an address is proven") and the address is proven where it can be.
   */
  private async link(m: EntityManager, userId: string, sessionId: string | null, { tokens, claims }: ProviderSignIn): Promise<User> {
    await this.accounts.lockProviderAccount(CUSTOM_PROVIDER_ID, claims.sub, m);
    // After the user row's lock, a proof that ended the session has committed or waits for this link.
    await this.users.lockSignInMethods(userId, m);
    const user = await this.users.findById(userId, m);
    if (!user || !sessionId || !(await this.auth.validateSession(sessionId, userId))) throw new UnauthorizedException('Unauthorized');
    await this.auth.assertProvenForLastingCredentials(userId);
    let account = await this.accounts.findByProviderAccount(CUSTOM_PROVIDER_ID, claims.sub, m);
    if (account && account.userId !== userId) throw new ConflictException('This OAuth account is already linked to another user');
    if (!account) {
      if (await this.accounts.findForUser(userId, CUSTOM_PROVIDER_ID, m)) {
        throw new ConflictException('Another OAuth account is already linked to this user');
      }
      account = this.accounts.build(userId, CUSTOM_PROVIDER_ID, claims.sub, m);
    }
    await this.accounts.save(this.applyTokens(account, tokens), m);
    return user;
  }

  private applyTokens(account: Account, tokens: TokenSet): Account {
    if (tokens.id_token) {
      account.idToken = this.crypto.encrypt(tokens.id_token);
      account.idTokenExpiresAt = new Date(tokens.claims().exp * 1000);
    }
    account.accessToken = this.crypto.encryptNullable(tokens.access_token);
    account.accessTokenExpiresAt = tokens.expires_at ? new Date(tokens.expires_at * 1000) : null;
    // Providers that do not rotate refresh tokens send none on refresh: keep the one we have.
    if (tokens.refresh_token) account.refreshToken = this.crypto.encrypt(tokens.refresh_token);
    account.scope = tokens.scope ?? account.scope ?? null;
    return account;
  }

  private allowedCallback(value: unknown): string | null {
    if (value === undefined || value === '') return null;
    const url =
      typeof value === 'string' ? resolveCallbackUrl(value, this.config.clientUrl, [new URL(this.config.clientUrl).origin, new URL(this.config.publicApiUrl).origin]) : null;
    if (!url) throw new BadRequestException('callbackURL must be on the origin of CLIENT_URL or PUBLIC_API_URL');
    return url;
  }

  /** The user and session whose session token came with the authorize request; 401 when a token is there but not valid. */
  private async linkingUser(authorization: unknown): Promise<{ userId: string; sessionId: string } | null> {
    if (authorization === undefined || authorization === '') return null;
    const bearer = typeof authorization === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] : undefined;
    let payload: unknown;
    try {
      payload = bearer ? jwt.verify(bearer, this.config.jwtSecret, { algorithms: [JWT_ALGORITHM] }) : null;
    } catch {
      payload = null;
    }
    const { sub, sid } = (payload ?? {}) as { sub?: unknown; sid?: unknown };
    const user = typeof sub === 'string' && typeof sid === 'string' ? await this.auth.validateSession(sid, sub) : null;
    if (!user) throw new UnauthorizedException('Unauthorized');
    return { userId: user.id, sessionId: sid as string };
  }
}

function displayName(claims: Record<string, unknown>, email: string): string {
  const given = [claims.given_name, claims.family_name].filter((s) => typeof s === 'string' && s.trim()).join(' ');
  const name = [claims.name, given, claims.preferred_username].find((s) => typeof s === 'string' && s.trim()) as string | undefined;
  return (name ?? email.split('@')[0]).trim().slice(0, 200);
}

function pictureUrl(value: unknown): string | null {
  return typeof value === 'string' && /^https?:\/\/\S+$/.test(value) && value.length <= 2048 ? value : null;
}
