import { createHmac, generateKeyPairSync, randomUUID } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import jwt from 'jsonwebtoken';
import type { Api, Res } from './api';
import { sql } from './fixtures';

/**
 * Real HTTP servers on loopback that answer as the two git hosts do: the selfgit REST API v1
 * (Gitea's) and the hostedgit REST API v3 (GitHub's, with the App installation-token endpoint).
 * They hold repositories, issues, comments and tokens set up by the test, record every request,
 * and take comments posted to them. Nothing in the service is mocked: it talks HTTP to these.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: any;
}

type Reply = { status: number; body?: unknown; headers?: Record<string, string>; raw?: string };
type Route = (req: RecordedRequest) => Reply | Promise<Reply | undefined> | undefined;

/** A small HTTP server with an override hook: `intercept` answers first when it returns something. */
class FakeServer {
  readonly requests: RecordedRequest[] = [];
  intercept: Route | null = null;
  private server: Server | null = null;

  constructor(private readonly route: Route) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this.url;
  }

  get url(): string {
    const addr = this.server?.address() as AddressInfo | null;
    if (!addr) throw new Error('server not started');
    return `http://127.0.0.1:${addr.port}`;
  }

  async stop(): Promise<void> {
    const s = this.server;
    this.server = null;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://x');
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = raw;
    }
    const recorded: RecordedRequest = { method: req.method ?? '', path: decodeURIComponent(url.pathname), query: url.searchParams, headers: req.headers, body };
    this.requests.push(recorded);
    let reply: Reply | undefined;
    try {
      reply = (await this.intercept?.(recorded)) ?? (await this.route(recorded)) ?? { status: 404, body: { message: 'Not Found' } };
    } catch (err) {
      reply = { status: 500, body: { message: String(err) } };
    }
    res.writeHead(reply.status, { 'content-type': reply.raw !== undefined ? 'text/html' : 'application/json', ...(reply.headers ?? {}) });
    res.end(reply.raw ?? (reply.body === undefined ? '' : JSON.stringify(reply.body)));
  }
}

// ---------------------------------------------------------------- selfgit (Gitea API v1)

export interface FakeIssue {
  number: number;
  title: string;
  body?: string;
  state?: 'open' | 'closed';
  labels?: { name: string; color?: string }[];
  /** A pull request (listed among issues as the host does, with `pull_request` set). */
  pull?: boolean;
  comments?: FakeComment[];
}

export interface FakeComment {
  id: number;
  body: string;
  user: string;
  /** The comment's `html_url` and its author's `avatar_url` as the server answers them (default: pages of the server). */
  htmlUrl?: string;
  avatarUrl?: string;
}

interface FakeRepo {
  owner: string;
  name: string;
  private: boolean;
  issues: FakeIssue[];
  /** Access per token: write (push) or read only. */
  access: Map<string, 'write' | 'read'>;
  /** This repository's own page size, instead of the server's `pageSize`. */
  pageSize?: number;
  /** A server that pages badly: every page holds `pageSize` issues, whatever `limit` asks for. */
  ignoresLimit?: boolean;
}

/**
 * The selfgit server. `pageSize` is the server's own maximum of items per page (Gitea's
 * MAX_RESPONSE_ITEMS): it answers fewer than asked for when the client asks for more.
 */
export class FakeSelfgit {
  readonly tokens = new Map<string, string>(); // token → login
  readonly repos = new Map<string, FakeRepo>();
  /** Comments posted by the service: `owner/name#number` → bodies. */
  readonly posted: { repo: string; number: number; body: string; id: number }[] = [];
  pageSize = 50;
  private nextCommentId = 9000;
  private readonly server = new FakeServer((r) => this.route(r));

  start() {
    return this.server.start();
  }
  stop() {
    return this.server.stop();
  }
  get url() {
    return this.server.url;
  }
  get requests() {
    return this.server.requests;
  }
  set intercept(fn: Route | null) {
    this.server.intercept = fn;
  }

  addUser(token: string, login = `user-${token.slice(0, 6)}`): this {
    this.tokens.set(token, login);
    return this;
  }

  addRepo(owner: string, name: string, opts: { private?: boolean; access?: Record<string, 'write' | 'read'>; issues?: FakeIssue[] } = {}): FakeRepo {
    const repo: FakeRepo = { owner, name, private: opts.private ?? false, issues: opts.issues ?? [], access: new Map(Object.entries(opts.access ?? {})) };
    this.repos.set(`${owner}/${name}`.toLowerCase(), repo);
    return repo;
  }

  repo(owner: string, name: string): FakeRepo {
    return this.repos.get(`${owner}/${name}`.toLowerCase())!;
  }

  private revision = 0;

  /** An issue as the server shows it; `updated_at` moves on with every rendering, as edits do. */
  issueJson(repo: FakeRepo, i: FakeIssue) {
    return {
      id: i.number * 1000,
      number: i.number,
      title: i.title,
      body: i.body ?? '',
      state: i.state ?? 'open',
      labels: (i.labels ?? []).map((l, k) => ({ id: k + 1, name: l.name, color: l.color ?? 'ee0701' })),
      user: { login: 'reporter', avatar_url: `${this.url}/avatars/reporter` },
      html_url: `${this.url}/${repo.owner}/${repo.name}/${i.pull ? 'pulls' : 'issues'}/${i.number}`,
      comments: (i.comments ?? []).length,
      pull_request: i.pull ? { merged: false } : null,
      updated_at: new Date(Date.UTC(2025, 0, 1) + ++this.revision * 1000).toISOString(),
      repository: { owner: repo.owner, name: repo.name, full_name: `${repo.owner}/${repo.name}` },
    };
  }

  commentJson(repo: FakeRepo, i: FakeIssue, c: FakeComment) {
    return {
      id: c.id,
      body: c.body,
      user: { login: c.user, avatar_url: c.avatarUrl ?? `${this.url}/avatars/${c.user}` },
      html_url: c.htmlUrl ?? `${this.url}/${repo.owner}/${repo.name}/issues/${i.number}#issuecomment-${c.id}`,
      created_at: '2025-01-01T00:00:00Z',
    };
  }

  repositoryJson(repo: FakeRepo) {
    return {
      id: 1,
      owner: { login: repo.owner, username: repo.owner },
      name: repo.name,
      full_name: `${repo.owner}/${repo.name}`,
      html_url: `${this.url}/${repo.owner}/${repo.name}`,
    };
  }

  private route(r: RecordedRequest): Reply | undefined {
    const m = /^\/api\/v1(\/.*)$/.exec(r.path);
    if (!m) return undefined;
    const path = m[1];
    const auth = String(r.headers.authorization ?? '');
    const token = auth.startsWith('token ') ? auth.slice(6) : '';
    const login = this.tokens.get(token);
    if (!login) return { status: 401, body: { message: 'token is required' } };
    if (r.method === 'GET' && path === '/user') return { status: 200, body: { id: 1, login, full_name: login, avatar_url: '' } };
    const rm = /^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/.exec(path);
    if (!rm) return undefined;
    const repo = this.repos.get(`${rm[1]}/${rm[2]}`.toLowerCase());
    const access = repo?.access.get(token);
    if (!repo || !access) return { status: 404, body: { message: "The target couldn't be found." } };
    const rest = rm[3] ?? '';
    if (r.method === 'GET' && rest === '') {
      return {
        status: 200,
        body: { ...this.repositoryJson(repo), private: repo.private, permissions: { admin: false, push: access === 'write', pull: true } },
      };
    }
    if (r.method === 'GET' && rest === '/issues') {
      const state = r.query.get('state') ?? 'open';
      const all = repo.issues.filter((i) => state === 'all' || (i.state ?? 'open') === state);
      const pageSize = repo.pageSize ?? this.pageSize;
      const limit = repo.ignoresLimit ? pageSize : Math.min(Number(r.query.get('limit') ?? 30), pageSize);
      const page = Number(r.query.get('page') ?? 1);
      const slice = all.slice((page - 1) * limit, page * limit);
      return { status: 200, body: slice.map((i) => this.issueJson(repo, i)), headers: { 'x-total-count': String(all.length) } };
    }
    const cm = /^\/issues\/(\d+)\/comments$/.exec(rest);
    if (cm) {
      const issue = repo.issues.find((i) => i.number === Number(cm[1]));
      if (!issue) return { status: 404, body: { message: 'not found' } };
      if (r.method === 'GET') return { status: 200, body: (issue.comments ?? []).map((c) => this.commentJson(repo, issue, c)) };
      if (r.method === 'POST') {
        if (access !== 'write') return { status: 403, body: { message: 'forbidden' } };
        const c: FakeComment = { id: this.nextCommentId++, body: String(r.body?.body ?? ''), user: login };
        (issue.comments ??= []).push(c);
        this.posted.push({ repo: `${repo.owner}/${repo.name}`, number: issue.number, body: c.body, id: c.id });
        return { status: 201, body: this.commentJson(repo, issue, c) };
      }
    }
    return undefined;
  }
}

// ---------------------------------------------------------------- hostedgit (GitHub REST v3 + App)

/** An RSA key pair for a test App (PKCS#1 PEM private key, as the hosted service hands them out). */
export function appKeyPair(): { privateKey: string; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { privateKey: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(), publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}

/**
 * The hostedgit API: `POST /app/installations/{id}/access_tokens` takes the App's JWT (RS256,
 * `iss` = the App id, verified with the App's public key) and answers an installation token;
 * `POST /repos/{owner}/{repo}/issues/{n}/comments` takes that token.
 */
export class FakeHostedgit {
  readonly installations = new Set<number>();
  /** Installation tokens handed out → installation id. */
  readonly tokens = new Map<string, number>();
  readonly posted: { repo: string; number: number; body: string; id: number; installation: number }[] = [];
  /** The App's OAuth client, for users' authorizations (`HOSTEDGIT_APP_CLIENT_ID` / `_SECRET`). */
  readonly clientId = 'Iv1.tandemtestclient';
  clientSecret = 'hostedgit-test-client-secret';
  /** Repository (`owner/name`, lower case) → the installation of the App that covers it. */
  readonly repoInstallations = new Map<string, number>();
  /** Repository (`owner/name`, lower case) → user login → role: `admin`, `maintain`, `write` or `read`. */
  readonly repoRoles = new Map<string, Map<string, string>>();
  /** User access tokens handed out → login. */
  readonly userTokens = new Map<string, string>();
  private readonly codes = new Map<string, { login: string; redirectUri: string }>();
  private nextCommentId = 5000;
  private readonly server = new FakeServer((r) => this.route(r));

  /** Installs the App on `owner/name` (installation `installationId`) and gives users their roles there. */
  addRepo(owner: string, name: string, installationId: number | null, roles: Record<string, string> = {}): void {
    const key = `${owner}/${name}`.toLowerCase();
    if (installationId !== null) {
      this.installations.add(installationId);
      this.repoInstallations.set(key, installationId);
    }
    this.repoRoles.set(key, new Map(Object.entries(roles)));
  }

  /**
   * The user `login`, signed in on the host, approves the App on its authorization page (the url
   * the service answered): the host's redirect back to the service, with a one-time code and the state.
   */
  approve(authorizeUrl: string, login: string): URL {
    const u = new URL(authorizeUrl);
    if (u.pathname !== '/login/oauth/authorize' || u.searchParams.get('client_id') !== this.clientId) throw new Error(`not this App's authorization page: ${authorizeUrl}`);
    const redirectUri = u.searchParams.get('redirect_uri')!;
    const code = randomUUID().replace(/-/g, '');
    this.codes.set(code, { login, redirectUri });
    const back = new URL(redirectUri);
    back.searchParams.set('code', code);
    back.searchParams.set('state', u.searchParams.get('state') ?? '');
    return back;
  }

  constructor(
    readonly appId: string,
    private readonly publicKey: string,
  ) {}

  start() {
    return this.server.start();
  }
  stop() {
    return this.server.stop();
  }
  get url() {
    return this.server.url;
  }
  get requests() {
    return this.server.requests;
  }
  set intercept(fn: Route | null) {
    this.server.intercept = fn;
  }

  private appJwtValid(auth: string): boolean {
    try {
      const claims = jwt.verify(auth.replace(/^bearer\s+/i, ''), this.publicKey, { algorithms: ['RS256'] }) as jwt.JwtPayload;
      return String(claims.iss) === this.appId;
    } catch {
      return false;
    }
  }

  private route(r: RecordedRequest): Reply | undefined {
    const auth = String(r.headers.authorization ?? '');
    if (r.path === '/login/oauth/access_token' && r.method === 'POST') {
      // As the host does: 200 with an `error` for a bad code, the token otherwise; a code works once.
      const b = (r.body ?? {}) as Record<string, unknown>;
      if (b.client_id !== this.clientId || b.client_secret !== this.clientSecret) return { status: 200, body: { error: 'incorrect_client_credentials' } };
      const grant = this.codes.get(String(b.code));
      this.codes.delete(String(b.code));
      if (!grant || grant.redirectUri !== b.redirect_uri) return { status: 200, body: { error: 'bad_verification_code' } };
      const token = `ghu_${randomUUID().replace(/-/g, '')}`;
      this.userTokens.set(token, grant.login);
      return { status: 200, body: { access_token: token, token_type: 'bearer', scope: '' } };
    }
    const im = /^\/repos\/([^/]+)\/([^/]+)\/installation$/.exec(r.path);
    if (im && r.method === 'GET') {
      if (!this.appJwtValid(auth)) return { status: 401, body: { message: 'A JSON web token could not be decoded' } };
      const id = this.repoInstallations.get(`${im[1]}/${im[2]}`.toLowerCase());
      return id === undefined ? { status: 404, body: { message: 'Not Found' } } : { status: 200, body: { id, account: { login: im[1] } } };
    }
    const rm = /^\/repos\/([^/]+)\/([^/]+)$/.exec(r.path);
    if (rm && r.method === 'GET') {
      const login = this.userTokens.get(auth.replace(/^(token|bearer)\s+/i, ''));
      if (login === undefined) return { status: 401, body: { message: 'Bad credentials' } };
      const key = `${rm[1]}/${rm[2]}`.toLowerCase();
      // A user's token sees a repository only where the App is installed and the user has access.
      const role = this.repoRoles.get(key)?.get(login);
      if (!role || !this.repoInstallations.has(key)) return { status: 404, body: { message: 'Not Found' } };
      const rank = ['read', 'write', 'maintain', 'admin'].indexOf(role);
      return {
        status: 200,
        body: { full_name: `${rm[1]}/${rm[2]}`, permissions: { admin: rank >= 3, maintain: rank >= 2, push: rank >= 1, triage: rank >= 1, pull: true } },
      };
    }
    const tm = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(r.path);
    if (tm && r.method === 'POST') {
      const bearer = auth.replace(/^bearer\s+/i, '');
      try {
        const claims = jwt.verify(bearer, this.publicKey, { algorithms: ['RS256'] }) as jwt.JwtPayload;
        if (String(claims.iss) !== this.appId) throw new Error('iss');
      } catch {
        return { status: 401, body: { message: 'A JSON web token could not be decoded' } };
      }
      const id = Number(tm[1]);
      if (!this.installations.has(id)) return { status: 404, body: { message: 'Not Found' } };
      const token = `ghs_${randomUUID().replace(/-/g, '')}`;
      this.tokens.set(token, id);
      return { status: 201, body: { token, expires_at: new Date(Date.now() + 3600_000).toISOString(), permissions: { issues: 'write' }, repository_selection: 'all' } };
    }
    const cm = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/.exec(r.path);
    if (cm && r.method === 'POST') {
      const installation = this.tokens.get(auth.replace(/^(token|bearer)\s+/i, ''));
      if (installation === undefined) return { status: 401, body: { message: 'Bad credentials' } };
      const id = this.nextCommentId++;
      this.posted.push({ repo: `${cm[1]}/${cm[2]}`, number: Number(cm[3]), body: String(r.body?.body ?? ''), id, installation });
      return { status: 201, body: { id, body: r.body?.body, html_url: `https://hosted.example/${cm[1]}/${cm[2]}/issues/${cm[3]}#issuecomment-${id}` } };
    }
    return undefined;
  }
}

// ---------------------------------------------------------------- sending webhooks to the service

/** The hex HMAC-SHA256 of `body` with `secret`, as both hosts sign deliveries. */
export const hmacHex = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('hex');

export interface SentWebhook {
  status: number;
  body: any;
}

async function postJson(url: string, body: string, headers: Record<string, string>): Promise<SentWebhook> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* keep text */
  }
  return { status: res.status, body: parsed };
}

/** Delivers a selfgit webhook as the server does: X-Gitea-Event, X-Gitea-Delivery, X-Gitea-Signature. */
export function sendSelfgitWebhook(
  url: string,
  secret: string,
  event: string,
  payload: unknown,
  opts: { deliveryId?: string; signature?: string; raw?: string } = {},
): Promise<SentWebhook> {
  const body = opts.raw ?? JSON.stringify(payload);
  return postJson(url, body, {
    'x-gitea-event': event,
    'x-gitea-delivery': opts.deliveryId ?? randomUUID(),
    'x-gitea-signature': opts.signature ?? hmacHex(secret, body),
  });
}

/** Delivers a hostedgit webhook as the service does: X-GitHub-Event, X-GitHub-Delivery, X-Hub-Signature-256. */
export function sendHostedgitWebhook(url: string, secret: string, event: string, payload: unknown, opts: { deliveryId?: string; signature?: string } = {}): Promise<SentWebhook> {
  const body = JSON.stringify(payload);
  return postJson(url, body, {
    'x-github-event': event,
    'x-github-delivery': opts.deliveryId ?? randomUUID(),
    'x-hub-signature-256': opts.signature ?? `sha256=${hmacHex(secret, body)}`,
  });
}

// ---------------------------------------------------------------- linking a hostedgit repository

/** The environment of an app whose hostedgit App `host` stands in for, users' authorization included. */
export function hostedgitAppEnv(host: FakeHostedgit, privateKey: string): Record<string, string> {
  return {
    HOSTEDGIT_APP_ID: host.appId,
    HOSTEDGIT_APP_PRIVATE_KEY: privateKey,
    HOSTEDGIT_API_BASE_URL: host.url,
    HOSTEDGIT_WEB_BASE_URL: host.url,
    HOSTEDGIT_APP_CLIENT_ID: host.clientId,
    HOSTEDGIT_APP_CLIENT_SECRET: host.clientSecret,
  };
}

/** The `name=value` pairs of a response's Set-Cookie headers, as a browser would send them back. */
const cookiesOf = (headers: Headers): string =>
  headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');

/**
 * Links a project to a hostedgit repository as a browser does (docs/git-hosts.md, "Linking proves
 * control"): `POST …/authorize` with the caller's token, the host user `login` approves the App on
 * the page it answered, and the host's redirect comes back to the service's callback with the
 * cookie of the first step. Answers the callback's response (and the start's, when it failed).
 */
export async function linkHostedgit(api: Api, host: FakeHostedgit, token: string, projectId: string, body: Record<string, unknown>, login: string): Promise<Res> {
  const start = await api.post(`/hostedgit-integration/project/${projectId}/authorize`, body, token);
  if (start.status !== 200) return start;
  const back = host.approve(start.body.url, login);
  return api.get(`/hostedgit-integration/callback${back.search}`, undefined, { headers: { cookie: cookiesOf(start.headers) } });
}

/**
 * Stores a project's hostedgit link straight in the table, as a proven link looks (for tests of
 * other things than linking: the access rules, the route fuzz). Answers the row's id.
 */
export async function plantHostedgitLink(databaseUrl: string, workspaceId: string, projectId: string, owner: string, name: string, installationId = 1): Promise<string> {
  const [row] = await sql(
    databaseUrl,
    `INSERT INTO git_integration (workspace_id, project_id, type, repository_owner, repository_name, repository_key, installation_id)
     VALUES ($1, $2, 'hostedgit', $3, $4, lower($3 || '/' || $4), $5) RETURNING id`,
    [workspaceId, projectId, owner, name, installationId],
  );
  return row.id as string;
}
