import { randomBytes } from 'node:crypto';
import type { WorkspaceRecord } from '../../src/modules/organization/workspace.record';

export interface Res<T = any> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

export interface Auth {
  token: string;
  user: { id: string; name: string; email: string };
}

/** A workspace record as the organization routes answer it. */
export type Workspace = WorkspaceRecord;

type Opts = { token?: string; headers?: Record<string, string>; raw?: string };

/** A small HTTP client over fetch: real requests to the running app. */
export class Api {
  constructor(readonly base: string) {}

  async request<T = any>(method: string, path: string, body?: unknown, opts: Opts = {}): Promise<Res<T>> {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let payload: string | undefined;
    if (opts.raw !== undefined) payload = opts.raw;
    else if (body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(this.base + path, { method, headers, body: payload, redirect: 'manual' });
    // An event stream does not end: its status and headers are the answer (test/support/sse.ts reads one).
    if (res.headers.get('content-type')?.startsWith('text/event-stream')) {
      await res.body?.cancel();
      return { status: res.status, body: undefined as T, headers: res.headers, text: '' };
    }
    const text = await res.text();
    let parsed: any = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: keep text */
    }
    return { status: res.status, body: parsed, headers: res.headers, text };
  }

  get<T = any>(path: string, token?: string, opts: Opts = {}) {
    return this.request<T>('GET', path, undefined, { ...opts, token });
  }
  post<T = any>(path: string, body: unknown, token?: string, opts: Opts = {}) {
    return this.request<T>('POST', path, body, { ...opts, token });
  }
  put<T = any>(path: string, body: unknown, token?: string, opts: Opts = {}) {
    return this.request<T>('PUT', path, body, { ...opts, token });
  }
  patch<T = any>(path: string, body: unknown, token?: string, opts: Opts = {}) {
    return this.request<T>('PATCH', path, body, { ...opts, token });
  }
  delete<T = any>(path: string, token?: string, body?: unknown, opts: Opts = {}) {
    return this.request<T>('DELETE', path, body, { ...opts, token });
  }

  /** Signs up a fresh user; fails the test if that does not work. */
  async signUp(fields: Partial<{ name: string; email: string; password: string }> = {}): Promise<Auth & { password: string }> {
    const password = fields.password ?? 'correct horse battery';
    const email = fields.email ?? `u${randomBytes(6).toString('hex')}@example.test`;
    const res = await this.post('/auth/sign-up/email', { name: fields.name ?? 'Test User', email, password });
    if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${res.text}`);
    return { ...res.body, password };
  }

  /** Creates a workspace owned by `token`'s user; answers the workspace record. */
  async createWorkspace(token: string, name = `WS ${randomBytes(3).toString('hex')}`) {
    const res = await this.post('/auth/organization/create', { name }, token);
    if (res.status !== 200) throw new Error(`create workspace failed: ${res.status} ${res.text}`);
    return res.body as Workspace;
  }
}
