import { createServer, IncomingMessage, request, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Response } from 'express';
import type { AppConfig } from '../../config/app-config';
import type { LiveReader, LiveStreams, PlacedEntry } from '../../redis/live-streams';
import type { LiveAccessRepository, StreamHolder } from './live-access.repository';
import { LiveHub } from './live-hub';

/**
 * The hub with real HTTP responses on loopback (a real server and client), and its two
 * collaborators stood in for: Redis (a reader that waits until it is closed, a window the test
 * fills) and the access check (the test says who may keep a stream). What is tested is what it
 * writes to which response, and what it keeps.
 */

const WORKSPACE = '11111111-1111-4111-8111-111111111111';
const holder = (userId: string) => ({ userId, sessionId: null, apiKeyId: null, notifications: true });

class StandInStreams {
  window: PlacedEntry[] = [];
  newest = () => Promise.resolve(this.window.at(-1)?.position ?? '0-0');
  positionOf = (_w: string, id: string) => Promise.resolve(this.window.find((e) => e.id === id)?.position ?? null);
  after = (_w: string, position: string) => Promise.resolve(this.window.filter((e) => Number(e.position.split('-')[0]) > Number(position.split('-')[0])));
  newReader(): LiveReader {
    let wake: () => void = () => undefined;
    return {
      read: () => new Promise((resolve) => (wake = () => resolve(new Map()))),
      close: () => wake(),
    };
  }
}

let server: Server;
let port: number;
/** What to do with each request, by its path. */
const handlers = new Map<string, (req: IncomingMessage, res: ServerResponse) => void>();
let requests = 0;
const errors: unknown[] = [];
const recordError = (err: unknown) => errors.push(err);

beforeAll(async () => {
  process.on('uncaughtException', recordError);
  server = createServer((req, res) => handlers.get(req.url ?? '')?.(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  process.off('uncaughtException', recordError);
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function hubWith(streams: StandInStreams, allowed: (holders: readonly StreamHolder[]) => Set<number>, caps = { perUser: 10, perProcess: 100 }): LiveHub {
  const access = { stillAllowed: (_w: string, holders: readonly StreamHolder[]) => Promise.resolve(allowed(holders)) } as unknown as LiveAccessRepository;
  const config = { eventsHeartbeatSeconds: 3600, liveStreamsPerUser: caps.perUser, liveStreamsPerProcess: caps.perProcess } as AppConfig;
  return new LiveHub(streams as unknown as LiveStreams, access, config);
}

/** Opens a stream through the hub; `read: false` is a client that never reads what it is sent. */
function openStream(hub: LiveHub, userId: string, opts: { read?: boolean; lastEventId?: string } = {}) {
  const received: Buffer[] = [];
  let closed = false;
  const path = `/${++requests}`;
  const served = new Promise<ServerResponse>((resolve) => {
    handlers.set(path, (_req, res) => {
      void hub.open(WORKSPACE, holder(userId), res as unknown as Response, opts.lastEventId);
      resolve(res);
    });
  });
  const req = request({ port, host: '127.0.0.1', path }, (res) => {
    if (opts.read === false) res.pause();
    else res.on('data', (c: Buffer) => received.push(c));
    res.on('error', () => undefined);
  });
  // The connection's end, whether or not the client read what came before it.
  req.on('close', () => (closed = true));
  req.on('error', () => undefined);
  req.end();
  return { served, text: () => Buffer.concat(received).toString('utf8'), closed: () => closed, destroy: () => req.destroy() };
}

const until = async (what: string, probe: () => boolean) => {
  const deadline = Date.now() + 10_000;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};
const entry = (n: number, size = 100): PlacedEntry => ({
  position: `${n}-0`,
  id: `e${n}`,
  event: 'task.description_changed',
  data: JSON.stringify({ n, text: 'x'.repeat(size) }),
  userId: null,
});
/** What the hub's reader would hand it: the entries of its workspace. */
const feed = (hub: LiveHub, entries: PlacedEntry[]) => {
  const internals = hub as unknown as { workspaces: Map<string, { streams: Set<unknown>; position: string }>; deliver(s: unknown, e: PlacedEntry): void };
  const workspace = internals.workspaces.get(WORKSPACE);
  if (!workspace) return;
  for (const s of [...workspace.streams]) for (const e of entries) internals.deliver(s, e);
};
const internals = (hub: LiveHub) => hub as unknown as { beat(): void; checkAccess(): Promise<void> };

describe('LiveHub', () => {
  beforeEach(() => (errors.length = 0));

  it('a client that stops reading is cut once 1 MiB waits for it, forgotten, and never written to again; the others get every entry', async () => {
    const hub = hubWith(new StandInStreams(), (h) => new Set(h.map((_, i) => i)));
    const asleep = openStream(hub, 'sleeper', { read: false });
    const awake = openStream(hub, 'reader');
    await asleep.served;
    await awake.served;
    await until('both registered', () => hub.size === 2);
    let n = 0;
    // Entries of 100 kB until the sleeper is cut: the kernel's buffers take some first.
    while (hub.size === 2 && n < 2_000) {
      feed(hub, [entry(++n, 20_000)]);
      // The reader reads as it comes (the sleeper never does).
      await until('the reader has read it', () => awake.text().includes(`id: e${n}\n`));
    }
    expect(hub.size).toBe(1);
    // More entries and heartbeats after the cut go to the reader only, and nothing fails.
    feed(hub, [entry(++n), entry(++n)]);
    internals(hub).beat();
    await until('the last entry at the reader', () => awake.text().includes(`id: e${n}\n`));
    const ids = [...awake.text().matchAll(/^id: e(\d+)$/gm)].map((m) => Number(m[1]));
    expect(ids).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    // Its connection is destroyed (an end() would only queue behind what it does not read).
    expect((await asleep.served).destroyed).toBe(true);
    expect(errors).toEqual([]);
    awake.destroy();
    await hub.onModuleDestroy();
  });

  it('a stream ended by the access check is forgotten at once: a heartbeat or an entry right after it writes nothing to it', async () => {
    let allowBob = true;
    const hub = hubWith(new StandInStreams(), (h) => new Set(h.flatMap((x, i) => (x.userId === 'bob' && !allowBob ? [] : [i]))));
    const bob = openStream(hub, 'bob');
    const owner = openStream(hub, 'owner');
    const [bobsRes] = await Promise.all([bob.served, owner.served]);
    await until('both registered', () => hub.size === 2);
    allowBob = false;
    await internals(hub).checkAccess();
    // In the same turn, before the response's 'close' could come.
    internals(hub).beat();
    feed(hub, [entry(1)]);
    expect(hub.size).toBe(1);
    expect(bobsRes.writableEnded).toBe(true);
    await until('the entry at the owner', () => owner.text().includes('id: e1\n'));
    await until("Bob's stream closed", () => bob.closed());
    expect(bob.text()).not.toContain('heartbeat');
    expect(errors).toEqual([]);
    owner.destroy();
    await hub.onModuleDestroy();
  });

  it('a client that left before its stream was opened is not kept, and its place is free', async () => {
    const hub = hubWith(new StandInStreams(), () => new Set(), { perUser: 1, perProcess: 100 });
    const path = `/${++requests}`;
    const gone = new Promise<ServerResponse>((resolve) => {
      handlers.set(path, (req, res) => req.socket.once('close', () => resolve(res)));
    });
    const req = request({ port, host: '127.0.0.1', path });
    req.on('error', () => undefined);
    req.end(() => setImmediate(() => req.destroy()));
    const res = await gone;
    await hub.open(WORKSPACE, holder('ada'), res as unknown as Response, undefined);
    expect(hub.size).toBe(0);
    // Ada's one place is still hers to take.
    const again = openStream(hub, 'ada');
    await again.served;
    await until('the new stream registered', () => hub.size === 1);
    again.destroy();
    await until('the stream dropped', () => hub.size === 0);
    await hub.onModuleDestroy();
  });

  it('a resume that queues more than 1 MiB cuts that stream only, without an error', async () => {
    const streams = new StandInStreams();
    streams.window = Array.from({ length: 60 }, (_, i) => entry(i + 1, 100_000));
    const hub = hubWith(streams, (h) => new Set(h.map((_, i) => i)));
    const resumed = openStream(hub, 'ada', { read: false, lastEventId: 'e1' });
    const res = await resumed.served;
    await until('the resumed stream cut', () => res.destroyed);
    expect(hub.size).toBe(0);
    internals(hub).beat();
    expect(errors).toEqual([]);
    await hub.onModuleDestroy();
  });

  it('over LIVE_STREAMS_PER_USER or LIVE_STREAMS_PER_PROCESS, open() refuses with 429 and Retry-After before writing anything', async () => {
    const hub = hubWith(new StandInStreams(), (h) => new Set(h.map((_, i) => i)), { perUser: 2, perProcess: 3 });
    const open = [openStream(hub, 'ada'), openStream(hub, 'ada')];
    for (const s of open) await s.served;
    const refuse = async (userId: string) => {
      const res = { headersSent: false } as unknown as Response;
      return hub.open(WORKSPACE, holder(userId), res, undefined).then(
        () => null,
        (err: { getStatus(): number; getResponse(): unknown }) => [err.getStatus(), err.getResponse()],
      );
    };
    expect(await refuse('ada')).toEqual([429, { message: 'Too many open event streams: at most 2 per user; close one first', retryAfter: 30 }]);
    const bob = openStream(hub, 'bob');
    await bob.served;
    expect(await refuse('carol')).toEqual([429, { message: 'Too many open event streams on this server: try again later', retryAfter: 30 }]);
    for (const s of [...open, bob]) s.destroy();
    await until('all dropped', () => hub.size === 0);
    await hub.onModuleDestroy();
  });
});
