import { AddressInfo, createServer, Socket } from 'node:net';

/** `host:port` of a postgres:// or redis:// URL (default ports filled in), for messages and probes. */
export function addressOf(url: string): { host: string; port: number; text: string } {
  const u = new URL(url);
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1') || '127.0.0.1';
  const port = u.port ? Number(u.port) : u.protocol.startsWith('redis') ? 6379 : 5432;
  return { host, port, text: `${u.hostname || host}:${port}` };
}

/** The URL with its password replaced by `***`: what a log line or a message may show. */
export function maskPassword(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}

/** Whether anything accepts a TCP connection at host:port within `timeoutMs`. */
export function answers(host: string, port: number, timeoutMs = 1_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(port, host, () => done(true));
  });
}

/** A loopback TCP port that nothing listens on right now (the kernel's pick). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Whether a process with this id exists (EPERM: it does, under another user). */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err: any) {
    return err?.code === 'EPERM';
  }
}
