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
 * (and every later one) to the real server. In front of an SMTP server, a send stays in progress,
 * waiting for the greeting, until the test releases it: the test decides when the job ends.
 */
export class HoldingProxy {
  private server: Server | null = null;
  private readonly held: Socket[] = [];
  private readonly sockets = new Set<Socket>();
  private released = false;
  private onConnect: (() => void)[] = [];
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<number> {
    const server = createServer((client) => {
      this.track(client);
      if (this.released) this.join(client);
      else this.held.push(client);
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
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  }

  private track(s: Socket): void {
    this.sockets.add(s);
    s.on('close', () => this.sockets.delete(s));
    s.on('error', () => undefined);
  }
}
