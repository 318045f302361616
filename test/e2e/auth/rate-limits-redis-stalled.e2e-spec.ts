import { AddressInfo, connect, createServer, Server, Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { runRedisUrl, startTestApp, TestApp } from '../../support/app';

/**
 * The limits that stand between an attacker and password guesses hold when Redis does not answer
 * in time (docs/decisions-local.md, "Rate limits"): the service's Redis connection goes through a
 * proxy that stops forwarding (the connection stays up, the commands get no answer, as under
 * load), and the process's own counts decide.
 */
class StallingProxy {
  private server: Server | null = null;
  private readonly held: { to: Socket; data: Buffer }[] = [];
  private readonly sockets = new Set<Socket>();
  stalled = false;
  port = 0;

  constructor(private readonly target: URL) {}

  async start(): Promise<number> {
    this.server = createServer((client) => {
      const upstream = connect(Number(this.target.port || 6379), this.target.hostname);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      const forward = (to: Socket) => (data: Buffer) => (this.stalled ? this.held.push({ to, data }) : to.write(data));
      client.on('data', forward(upstream));
      upstream.on('data', forward(client));
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this.port;
  }

  /** Forwards what it held, in order, and everything after. */
  resume(): void {
    this.stalled = false;
    for (const { to, data } of this.held.splice(0)) to.write(data);
  }

  async stop(): Promise<void> {
    this.resume();
    for (const s of this.sockets) s.destroy();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

let proxy: StallingProxy;
let t: TestApp;
beforeAll(async () => {
  proxy = new StallingProxy(new URL(runRedisUrl()));
  await proxy.start();
  t = await startTestApp({ APP_ROLES: 'api', REDIS_URL: `redis://127.0.0.1:${proxy.port}`, RATE_LIMIT_AUTH: '5', RATE_LIMIT_SIGN_IN_FAILURES: '3' });
});
afterAll(async () => {
  await t?.close();
  await proxy?.stop();
});
afterEach(() => proxy.resume());

const email = () => `nobody${randomBytes(6).toString('hex')}@example.test`;

describe('rate limits while Redis does not answer', () => {
  it('sign-in guesses from one address still reach 429 after RATE_LIMIT_AUTH, with Retry-After', async () => {
    proxy.stalled = true;
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof t.api.post>> | undefined;
    for (let i = 0; i < 8; i++) {
      last = await t.api.post('/auth/sign-in/email', { email: email(), password: 'wrong password' });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    expect(last!.body).toEqual({ message: 'Too many requests' });
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it("one account's failed sign-ins still lock it after RATE_LIMIT_SIGN_IN_FAILURES", async () => {
    // The per-address limit off, so that only the account's back-off is in play.
    const app = await startTestApp({ APP_ROLES: 'api', REDIS_URL: `redis://127.0.0.1:${proxy.port}`, RATE_LIMIT_AUTH: '0', RATE_LIMIT_SIGN_IN_FAILURES: '3' });
    try {
      const user = await app.api.signUp();
      proxy.stalled = true;
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await app.api.post('/auth/sign-in/email', { email: user.user.email, password: 'wrong password' })).status);
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
      // The right password is refused too while the lock lasts.
      const right = await app.api.post('/auth/sign-in/email', { email: user.user.email, password: user.password });
      expect([right.status, Number(right.headers.get('retry-after')) >= 1]).toEqual([429, true]);
    } finally {
      proxy.resume();
      await app.close();
    }
  });
});
