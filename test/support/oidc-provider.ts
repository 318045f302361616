import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Provider } from 'oidc-provider';

export interface ProviderUser {
  email: string;
  emailVerified: boolean;
  name: string;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Accounts by login name (= `sub`); add to it at any time. */
  users: Map<string, ProviderUser>;
  close(): Promise<void>;
}

// oidc-provider announces its development conveniences (in-memory adapter, dev interactions) on
// the console; here they are expected, so they are kept out of the test output.
let quieted = false;
function quietProviderNotices(): void {
  if (quieted) return;
  quieted = true;
  for (const level of ['info', 'warn'] as const) {
    const original = console[level].bind(console);
    console[level] = (...args: unknown[]) => {
      if (typeof args[0] === 'string' && args[0].includes('oidc-provider ')) return;
      original(...args);
    };
  }
}

/** A free loopback port (for a server that starts later). */
export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

/**
 * A real OpenID provider (oidc-provider) on loopback: one confidential client with a secret,
 * PKCE (S256) required, refresh tokens for offline_access (rotated on every use), and the
 * development login/consent pages, so a test can drive the login over plain HTTP.
 */
export async function startOidcProvider(opts: { redirectUri: string; port?: number; clientSecret?: string; users?: Map<string, ProviderUser> }): Promise<TestOidcProvider> {
  quietProviderNotices();
  const server: Server = createServer();
  await new Promise<void>((r) => server.listen(opts.port ?? 0, '127.0.0.1', r));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'tandem-test';
  const clientSecret = opts.clientSecret ?? randomBytes(24).toString('hex');
  const users = opts.users ?? new Map<string, ProviderUser>();
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [opts.redirectUri],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { required: () => true, methods: ['S256'] },
    features: { devInteractions: { enabled: true }, revocation: { enabled: true } },
    scopes: ['openid', 'offline_access', 'email', 'profile'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    rotateRefreshToken: true,
    ttl: { AccessToken: 3600, AuthorizationCode: 60, IdToken: 3600, RefreshToken: 86_400, Interaction: 600, Session: 3600, Grant: 86_400 },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    jwks: { keys: [{ ...(privateKey.export({ format: 'jwk' }) as any), kid: 'test-key', use: 'sig', alg: 'RS256' }] },
    async findAccount(_ctx, sub) {
      const u = users.get(sub);
      if (!u) return undefined;
      return { accountId: sub, claims: async () => ({ sub, email: u.email, email_verified: u.emailVerified, name: u.name }) };
    },
  });
  const handle = provider.callback();
  // Koa answers its own errors (500), so the handler's promise never rejects.
  server.on('request', (req, res) => void handle(req, res));
  return {
    issuer,
    clientId,
    clientSecret,
    users,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/**
 * A browser for the provider's pages: keeps cookies, follows redirects, fills in the login form
 * with `login` and accepts the consent page, and stops at the first redirect to `stopAt`
 * (the app's callback), which it returns without following.
 */
export async function loginAtProvider(authorizeUrl: string, login: string, stopAt: string): Promise<URL> {
  const cookies = new Map<string, string>();
  let url = authorizeUrl;
  let body: URLSearchParams | undefined;
  for (let step = 0; step < 12; step++) {
    if (url.startsWith(stopAt)) return new URL(url);
    const res = await fetch(url, {
      method: body ? 'POST' : 'GET',
      body,
      redirect: 'manual',
      headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      cookies.set(pair.slice(0, i).trim(), pair.slice(i + 1).trim());
    }
    body = undefined;
    const html = await res.text();
    if (res.status >= 300 && res.status < 400) {
      url = new URL(res.headers.get('location')!, url).href;
    } else if (res.status === 200 && /<form/.test(html)) {
      const action = /<form[^>]*action="([^"]+)"/.exec(html)![1];
      const prompt = /name="prompt" value="(\w+)"/.exec(html)![1];
      url = new URL(action, url).href;
      body = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'anything' } : { prompt });
    } else {
      throw new Error(`provider answered ${res.status}: ${html.slice(0, 500)}`);
    }
  }
  throw new Error('too many steps at the provider');
}
