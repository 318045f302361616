import { createSocket, Socket } from 'node:dgram';
import { AddressInfo } from 'node:net';

/**
 * A small authoritative DNS server on loopback (UDP) for tests of the destination guard: it
 * answers A queries from `records` (which a test may change between two lookups, as a DNS
 * rebinding attacker would), AAAA queries with no answer, and unknown names with NXDOMAIN.
 * The app uses it through OUTBOUND_DNS_SERVERS.
 */
export class TestDnsServer {
  readonly records = new Map<string, string>();
  private socket: Socket | null = null;

  get server(): string {
    const a = this.socket!.address() as AddressInfo;
    return `127.0.0.1:${a.port}`;
  }

  async start(): Promise<this> {
    const socket = createSocket('udp4');
    socket.on('message', (msg, rinfo) => {
      const answer = this.answer(msg);
      if (answer) socket.send(answer, rinfo.port, rinfo.address);
    });
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    this.socket = socket;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.socket ? this.socket.close(() => resolve()) : resolve()));
    this.socket = null;
  }

  private answer(msg: Buffer): Buffer | null {
    if (msg.length < 12 || msg.readUInt16BE(4) !== 1) return null;
    // The question: labels up to the zero byte, then type and class.
    const labels: string[] = [];
    let i = 12;
    while (i < msg.length && msg[i] !== 0) {
      labels.push(msg.subarray(i + 1, i + 1 + msg[i]).toString('ascii'));
      i += 1 + msg[i];
    }
    const questionEnd = i + 5;
    if (questionEnd > msg.length) return null;
    const type = msg.readUInt16BE(i + 1);
    const name = labels.join('.').toLowerCase();
    const ip = this.records.get(name);
    const answers: Buffer[] = [];
    if (ip && type === 1) {
      const rr = Buffer.alloc(16);
      rr.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
      rr.writeUInt16BE(1, 2); // A
      rr.writeUInt16BE(1, 4); // IN
      rr.writeUInt32BE(0, 6); // TTL 0: never cached
      rr.writeUInt16BE(4, 10);
      ip.split('.').forEach((octet, k) => rr.writeUInt8(Number(octet), 12 + k));
      answers.push(rr);
    }
    const header = Buffer.alloc(12);
    header.writeUInt16BE(msg.readUInt16BE(0), 0); // same id
    header.writeUInt16BE(0x8580 | (ip ? 0 : 3), 2); // response, authoritative, RD, RA; NXDOMAIN when unknown
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    return Buffer.concat([header, msg.subarray(12, questionEnd), ...answers]);
  }
}
