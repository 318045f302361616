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
