import { AddressInfo, createServer, Server, Socket } from 'node:net';
import { ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  envelope: { from: string | false; to: string[] };
  auth?: { username?: string; password?: string };
  parsed: ParsedMail;
}

/**
 * A real SMTP server on loopback that records what it receives (no STARTTLS, optional AUTH).
 * `waitFor(address, n)` resolves once n messages to that address have arrived.
 */
export class TestSmtpServer {
  readonly mails: ReceivedMail[] = [];
  private server: SMTPServer | null = null;
  private waiters: { done: () => boolean; resolve: () => void }[] = [];

  constructor(private readonly opts: { user?: string; password?: string } = {}) {}

  /** Starts on `port` (0 = any free port); returns the port. */
  async start(port = 0): Promise<number> {
    const requireAuth = !!this.opts.user;
    this.server = new SMTPServer({
      secure: false,
      disabledCommands: requireAuth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
      authOptional: !requireAuth,
      allowInsecureAuth: true,
      logger: false,
      onAuth: (auth, _session, cb) => {
        if (auth.username === this.opts.user && auth.password === this.opts.password) return cb(null, { user: auth.username });
        return cb(new Error('Invalid username or password'));
      },
      onData: (stream, session, cb) => {
        simpleParser(stream)
          .then((parsed) => {
            this.mails.push({
              envelope: { from: session.envelope.mailFrom && session.envelope.mailFrom.address, to: session.envelope.rcptTo.map((r) => r.address) },
              auth: session.user ? { username: String(session.user) } : undefined,
              parsed,
            });
            this.waiters = this.waiters.filter((w) => (w.done() ? (w.resolve(), false) : true));
            cb();
          })
          .catch((err) => cb(err));
      },
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, '127.0.0.1', () => resolve());
    });
    return (this.server.server.address() as AddressInfo).port;
  }

  /** Mails whose envelope recipient is `address`. */
  to(address: string): ReceivedMail[] {
    return this.mails.filter((m) => m.envelope.to.includes(address));
  }

  /** Resolves with the mails to `address` once there are at least `n` of them. */
  waitFor(address: string, n = 1, timeoutMs = 15_000): Promise<ReceivedMail[]> {
    const done = () => this.to(address).length >= n;
    if (done()) return Promise.resolve(this.to(address));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`expected ${n} mails to ${address}, got ${this.to(address).length} within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({ done, resolve: () => (clearTimeout(timer), resolve(this.to(address))) });
    });
  }

  async stop(): Promise<void> {
    const s = this.server;
    this.server = null;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  }
}

/** A loopback port that nothing listens on (for "SMTP is down"). */
export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', () => resolve()));
  const { port } = srv.address() as AddressInfo;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

/**
 * A server that accepts connections on `port` and never says a word: an SMTP server hanging
 * before its greeting. A send to it stays in progress until the test calls close(), so the test
 * decides when that attempt ends.
 */
export class SilentServer {
  private readonly sockets = new Set<Socket>();
  private onConnect: (() => void)[] = [];

  private constructor(private readonly server: Server) {
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => this.sockets.delete(socket));
      for (const resolve of this.onConnect.splice(0)) resolve();
    });
  }

  static async start(port: number): Promise<SilentServer> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    return new SilentServer(server);
  }

  /** Resolves once a client holds a connection (at once if one does already). */
  connected(timeoutMs = 15_000): Promise<void> {
    if (this.sockets.size) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`nobody connected within ${timeoutMs} ms`)), timeoutMs);
      this.onConnect.push(() => (clearTimeout(timer), resolve()));
    });
  }

  /** Drops every connection (the client sees it closed) and stops listening. */
  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
