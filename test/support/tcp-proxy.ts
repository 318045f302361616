import { AddressInfo, createServer, connect, Server, Socket } from 'node:net';

/**
 * A TCP proxy on loopback in front of a real server (e.g. Redis), which a test can cut and
 * restore on the same port to simulate an outage of that server.
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<number> {
    const server = createServer((client) => {
      const upstream = connect(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    return this.port;
  }

  /** Drops every connection and refuses new ones until restore(). */
  async cut(): Promise<void> {
    const s = this.server;
    this.server = null;
    for (const sock of this.sockets) sock.destroy();
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  async restore(): Promise<void> {
    if (!this.server) await this.start();
  }

  async stop(): Promise<void> {
    await this.cut();
  }
}

/**
 * A TCP proxy on loopback that holds every connection it accepts until release(), then joins them
 * (and every later one) to the real server. In front of an SMTP server, a send stays in progress
 * until the test releases it: the test decides when the job ends. With `smtp`, the proxy greets
 * the client itself and holds its first command (the client then waits under its socket timeout,
 * 30 s, not its greeting timeout, 10 s, which a loaded machine can pass); on release it drops the
 * server's own greeting and hands the held command on.
 */
export class HoldingProxy {
  private server: Server | null = null;
  private readonly held: Socket[] = [];
  private readonly heldData = new Map<Socket, Buffer[]>();
  private readonly sockets = new Set<Socket>();
  private released = false;
  private onConnect: (() => void)[] = [];
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
    private readonly opts: { smtp?: boolean } = {},
  ) {}

  async start(): Promise<number> {
    const server = createServer((client) => {
      this.track(client);
      if (this.released) this.join(client);
      else {
        this.held.push(client);
        if (this.opts.smtp) {
          const chunks: Buffer[] = [];
          this.heldData.set(client, chunks);
          client.on('data', (c: Buffer) => chunks.push(c));
          client.write('220 holding.test ESMTP\r\n');
        }
      }
      for (const resolve of this.onConnect.splice(0)) resolve();
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    return this.port;
  }

  /** Resolves once a client is held (at once if one is). */
  connected(timeoutMs = 15_000): Promise<void> {
    if (this.held.length) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`nobody connected within ${timeoutMs} ms`)), timeoutMs);
      this.onConnect.push(() => (clearTimeout(timer), resolve()));
    });
  }

  /** Joins the held connections to the server; later ones go straight through. */
  release(): void {
    this.released = true;
    for (const client of this.held.splice(0)) if (!client.destroyed) this.join(client);
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    const s = this.server;
    this.server = null;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  private join(client: Socket): void {
    const upstream = connect(this.targetPort, this.targetHost);
    this.track(upstream);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    const held = this.heldData.get(client);
    if (!held) {
      client.pipe(upstream).pipe(client);
      return;
    }
    // The client was greeted by the proxy: drop the server's greeting, then hand on what the client sent meanwhile.
    this.heldData.delete(client);
    client.removeAllListeners('data');
    let greeting = '';
    const onGreeting = (chunk: Buffer) => {
      greeting += chunk.toString('latin1');
      const end = greeting.search(/(^|\r\n)220 [^\r\n]*\r\n/);
      if (end < 0) return;
      upstream.off('data', onGreeting);
      const rest = greeting.slice(greeting.indexOf('\r\n', greeting.indexOf('220 ', end)) + 2);
      if (rest) client.write(Buffer.from(rest, 'latin1'));
      for (const c of held) upstream.write(c);
      client.pipe(upstream);
      upstream.pipe(client);
    };
    upstream.on('data', onGreeting);
  }

  private track(s: Socket): void {
    this.sockets.add(s);
    s.on('close', () => this.sockets.delete(s));
    s.on('error', () => undefined);
  }
}
