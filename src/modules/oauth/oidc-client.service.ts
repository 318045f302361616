import { BadRequestException, Inject, Injectable, Logger, NotFoundException, ServiceUnavailableException } from '@nestjs/common';
import { BaseClient, custom, errors, generators, Issuer, TokenSet, UserinfoResponse } from 'openid-client';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { isAllowedProviderUrl } from './oauth-urls';

const HTTP_TIMEOUT_MS = 5_000;
// The discovery document (and so the endpoints) is re-read now and then; keys rotate through
// openid-client's own JWKS refetch on an unknown `kid`.
const DISCOVERY_TTL_MS = 60 * 60_000;
const CLOCK_TOLERANCE_S = 5;

export interface AuthorizationRequest {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** What the callback learnt: the verified tokens and the user's claims (id token, then userinfo). */
export interface ProviderSignIn {
  tokens: TokenSet;
  claims: { sub: string; email?: string; email_verified?: boolean; name?: string; picture?: string };
}

/** Provider answered, but refused (an error response): nothing to retry. */
const isRefusal = (e: unknown): e is errors.OPError => {
  if (!(e instanceof errors.OPError)) return false;
  const status = e.response?.statusCode;
  return status === undefined || status < 500;
};

/**
 * The one custom OpenID Connect provider (docs/decisions-local.md, Custom OAuth), through openid-client. Discovery is lazy
 * and cached, and a failed discovery is retried on the next request, so a provider that is down
 * at boot never stops the service.
 */
@Injectable()
export class OidcClientService {
  private readonly logger = new Logger(OidcClientService.name);
  private discovered: { client: BaseClient; at: number } | null = null;
  private discovering: Promise<BaseClient> | null = null;
  readonly enabled: boolean;
  readonly redirectUri: string;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    const { issuer, clientId, clientSecret } = config.customOAuth;
    this.enabled = Boolean(issuer && clientId && clientSecret);
    this.redirectUri = `${config.publicApiUrl}/api/auth/oauth2/callback/custom`;
    custom.setHttpOptionsDefaults({ timeout: HTTP_TIMEOUT_MS });
  }

  assertEnabled(): void {
    if (!this.enabled) throw new NotFoundException('Custom OAuth is not configured');
  }

  /** The provider's authorization URL for one sign-in: code flow with state, nonce and PKCE (S256). */
  async authorizationUrl(req: AuthorizationRequest): Promise<string> {
    const client = await this.client();
    const scope = this.config.customOAuth.scopes;
    return client.authorizationUrl({
      scope,
      state: req.state,
      nonce: req.nonce,
      code_challenge: generators.codeChallenge(req.codeVerifier),
      code_challenge_method: 'S256',
      // OpenID Connect Core §11: offline_access (a refresh token) is only granted with prompt=consent.
      ...(scope.split(/\s+/).includes('offline_access') ? { prompt: 'consent' } : {}),
    });
  }

  /** Exchanges the code and verifies the id token (issuer, audience, signature, expiry, nonce). */
  async exchangeCode(params: { code: string; state: string; iss?: string }, req: AuthorizationRequest): Promise<ProviderSignIn> {
    const client = await this.client();
    let tokens: TokenSet;
    try {
      tokens = await client.callback(this.redirectUri, params, {
        state: req.state,
        nonce: req.nonce,
        code_verifier: req.codeVerifier,
        response_type: 'code',
      });
    } catch (e) {
      if (isRefusal(e)) throw new BadRequestException(`OAuth code exchange failed: ${safeCode(e.error)}`);
      if (e instanceof errors.RPError && !/timed out/.test(e.message)) {
        this.logger.warn(`id token refused: ${e.message}`);
        throw new BadRequestException('Invalid ID token');
      }
      throw this.unavailable(e);
    }
    const idClaims = tokens.claims();
    let claims: ProviderSignIn['claims'] = { ...idClaims, sub: idClaims.sub };
    // Providers may keep profile claims out of the id token (Core §5.4): ask userinfo then.
    if (!claims.email && tokens.access_token && client.issuer.metadata.userinfo_endpoint) {
      let info: UserinfoResponse;
      try {
        info = await client.userinfo(tokens); // checks that userinfo's sub is the id token's
      } catch (e) {
        if (e instanceof errors.RPError && !/timed out/.test(e.message)) throw new BadRequestException('Invalid userinfo response');
        throw isRefusal(e) ? new BadRequestException(`OAuth userinfo failed: ${safeCode(e.error)}`) : this.unavailable(e);
      }
      claims = { ...info, ...claims, email: info.email, email_verified: info.email_verified };
    }
    return { tokens, claims };
  }

  /** New tokens for a refresh token; null when the provider refuses it (revoked, expired). */
  async refresh(refreshToken: string, expectedSub: string): Promise<TokenSet | null> {
    const client = await this.client();
    let tokens: TokenSet;
    try {
      tokens = await client.refresh(refreshToken);
    } catch (e) {
      if (isRefusal(e)) return null;
      if (e instanceof errors.RPError && !/timed out/.test(e.message)) {
        this.logger.warn(`refreshed id token refused: ${e.message}`);
        throw new BadRequestException('Invalid ID token');
      }
      throw this.unavailable(e);
    }
    if (tokens.id_token && tokens.claims().sub !== expectedSub) throw new BadRequestException('Invalid ID token');
    return tokens;
  }

  private async client(): Promise<BaseClient> {
    this.assertEnabled();
    if (this.discovered && Date.now() - this.discovered.at < DISCOVERY_TTL_MS) return this.discovered.client;
    // One discovery at a time; a failure clears it so that the next request tries again.
    this.discovering ??= this.discover()
      .then((client) => {
        this.discovered = { client, at: Date.now() };
        return client;
      })
      .finally(() => {
        this.discovering = null;
      });
    try {
      return await this.discovering;
    } catch (e) {
      // A stale but working client beats none while the provider is briefly unreachable.
      if (this.discovered) return this.discovered.client;
      throw this.unavailable(e);
    }
  }

  private async discover(): Promise<BaseClient> {
    const { issuer: configured, clientId, clientSecret } = this.config.customOAuth;
    const issuer = await Issuer.discover(configured!);
    const trim = (u: string) => u.replace(/\/+$/, '');
    if (trim(String(issuer.metadata.issuer)) !== trim(configured!)) {
      throw new Error(`discovered issuer ${issuer.metadata.issuer} is not CUSTOM_OAUTH_ISSUER`);
    }
    const endpoints = ['authorization_endpoint', 'token_endpoint', 'jwks_uri', 'userinfo_endpoint'] as const;
    for (const name of endpoints) {
      const url = issuer.metadata[name];
      if (url !== undefined && !isAllowedProviderUrl(String(url), this.config.allowPrivateDestinations)) {
        throw new Error(`provider ${name} is not an allowed URL`);
      }
    }
    const client = new issuer.Client({
      client_id: clientId!,
      client_secret: clientSecret!,
      redirect_uris: [this.redirectUri],
      response_types: ['code'],
    });
    client[custom.clock_tolerance] = CLOCK_TOLERANCE_S;
    return client;
  }

  private unavailable(e: unknown): ServiceUnavailableException {
    // Only the error's name and message: a provider's response object may carry tokens.
    const err = e as Error;
    this.logger.warn(`OAuth provider unavailable: ${err?.name ?? 'Error'}: ${err?.message ?? String(e)}`);
    return new ServiceUnavailableException('OAuth provider unavailable');
  }
}

/** A provider's error code, safe to echo (OAuth error codes are short ASCII words). */
export function safeCode(code: unknown): string {
  return typeof code === 'string' && /^[\w.-]{1,64}$/.test(code) ? code : 'error';
}
