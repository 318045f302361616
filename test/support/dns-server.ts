import { createSocket, Socket } from 'node:dgram';
import { AddressInfo, isIP } from 'node:net';

/**
 * A small authoritative DNS server on loopback (UDP) for tests of the destination guard: it
 * answers from `records` (which a test may change between two lookups, as a DNS rebinding
 * attacker would) a name's IPv4 addresses to A queries and its IPv6 addresses to AAAA queries
 * (none: an empty answer), and unknown names with NXDOMAIN. A record is one address or several,
 * so a name can resolve to a public and a private address at once.
 * The app uses it through OUTBOUND_DNS_SERVERS.
 */
export class TestDnsServer {
  readonly records = new Map<string, string | readonly string[]>();
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
    const record = this.records.get(name);
    const addresses = record === undefined ? [] : typeof record === 'string' ? [record] : record;
    const answers: Buffer[] = [];
    for (const address of addresses) {
      const family = isIP(address);
      // A (1) answers IPv4 addresses, AAAA (28) IPv6 ones.
      if ((type === 1 && family === 4) || (type === 28 && family === 6)) answers.push(resourceRecord(type, family === 4 ? ipv4Bytes(address) : ipv6Bytes(address)));
    }
    const header = Buffer.alloc(12);
    header.writeUInt16BE(msg.readUInt16BE(0), 0); // same id
    header.writeUInt16BE(0x8580 | (record === undefined ? 3 : 0), 2); // response, authoritative, RD, RA; NXDOMAIN when unknown
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    return Buffer.concat([header, msg.subarray(12, questionEnd), ...answers]);
  }
}

/** An answer record of `type` for the question's name, with `data` (the address's bytes). */
function resourceRecord(type: number, data: Buffer): Buffer {
  const rr = Buffer.alloc(12 + data.length);
  rr.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
  rr.writeUInt16BE(type, 2);
  rr.writeUInt16BE(1, 4); // IN
  rr.writeUInt32BE(0, 6); // TTL 0: never cached
  rr.writeUInt16BE(data.length, 10);
  data.copy(rr, 12);
  return rr;
}

const ipv4Bytes = (address: string): Buffer => Buffer.from(address.split('.').map(Number));

/** The 16 bytes of an IPv6 address (`::` expanded; no dotted IPv4 tail). */
function ipv6Bytes(address: string): Buffer {
  const [head, tail] = address.includes('::') ? address.split('::') : [address, undefined];
  const groups = (s: string | undefined) => (s ? s.split(':') : []);
  const parts = tail === undefined ? groups(head) : [...groups(head), ...Array(8 - groups(head).length - groups(tail).length).fill('0'), ...groups(tail)];
  const out = Buffer.alloc(16);
  parts.forEach((g, k) => out.writeUInt16BE(parseInt(g, 16), 2 * k));
  return out;
}
