import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { redisClient, RedisClient } from './redis-connection';

/** One entry of a workspace's live stream, as the event stream sends it (docs/live-events.md). */
export interface LiveEntry {
  /** The SSE `id:`: the event id (a notification: the event id and `:notification`). */
  id: string;
  /** The SSE `event:`: the event's wire name (`task.status_changed`), or `notification`. */
  event: string;
  /** The SSE `data:`, JSON. */
  data: string;
  /** Only this user's streams get it (a notification); null: every member's. */
  userId: string | null;
}

/** An entry as read back, with its place in the Redis stream. */
export interface PlacedEntry extends LiveEntry {
  position: string;
}

/** How many entries of a workspace a stream can resume from (Last-Event-ID); older ones are gone. */
export const LIVE_WINDOW = 1000;
/** A workspace's stream expires this long after its last entry (nobody can resume from it later than the window anyway). */
const LIVE_TTL_SECONDS = 24 * 3600;

/** `a` is after `b`, two Redis stream ids (`<ms>-<seq>`). */
export function isAfter(a: string, b: string): boolean {
  const [am, as] = a.split('-').map(Number);
  const [bm, bs] = b.split('-').map(Number);
  return am > bm || (am === bm && as > bs);
}

/**
 * The live streams of the workspaces (docs/live-events.md): one capped Redis stream per workspace
 * that the worker appends committed task events and in-app notifications to, and that every API
 * process reads for the event streams it holds. Redis, not process memory, so a change made
 * through one API process reaches the streams held by every other.
 */
@Injectable()
export class LiveStreams implements OnApplicationShutdown {
  private writerConnection: RedisClient | null = null;
  private readonly readers = new Set<RedisClient>();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  key(workspaceId: string): string {
    return `${this.config.queuePrefix}:live:${workspaceId}`;
  }

  private get writer(): RedisClient {
    if (!this.writerConnection) {
      this.writerConnection = redisClient(this.config, { maxRetriesPerRequest: 2, connectionName: `${this.config.queuePrefix}:live` });
      this.writerConnection.on('error', () => undefined); // the caller's command fails and is retried by its job
    }
    return this.writerConnection;
  }

  /** The index of a workspace's entries: SSE id → the millisecond part of its position (a sorted set, the newest LIVE_WINDOW). */
  private indexKey(workspaceId: string): string {
    return `${this.key(workspaceId)}:ids`;
  }

  /**
   * Appends the entries of each workspace (one round trip), then indexes them by SSE id (a second
   * one), so a resume finds its place without reading the window; the oldest beyond LIVE_WINDOW
   * go from both. An entry appended but not indexed (the second trip failed) is only found by no
   * resume: that client gets `reset` and fetches again.
   */
  async append(byWorkspace: ReadonlyMap<string, readonly LiveEntry[]>): Promise<void> {
    if (!byWorkspace.size) return;
    const pipeline = this.writer.pipeline();
    const order: { workspaceId: string; id: string }[] = [];
    for (const [workspaceId, entries] of byWorkspace) {
      const key = this.key(workspaceId);
      for (const e of entries) {
        pipeline.xadd(key, 'MAXLEN', '~', String(LIVE_WINDOW), '*', 'id', e.id, 'event', e.event, 'user', e.userId ?? '', 'data', e.data);
        order.push({ workspaceId, id: e.id });
      }
      pipeline.expire(key, LIVE_TTL_SECONDS);
    }
    const results = (await pipeline.exec()) ?? [];
    const failed = results.find(([err]) => err);
    if (failed) throw failed[0];
    const positions = results.map(([, r]) => r).filter((r): r is string => typeof r === 'string' && r.includes('-'));
    const index = this.writer.pipeline();
    const touched = new Set<string>();
    order.forEach(({ workspaceId, id }, i) => {
      if (!id || !positions[i]) return;
      // NX: an entry appended twice (a retried batch) keeps the place of its first copy.
      index.zadd(this.indexKey(workspaceId), 'NX', positions[i].split('-')[0], id);
      touched.add(workspaceId);
    });
    for (const workspaceId of touched) {
      index.zremrangebyrank(this.indexKey(workspaceId), 0, -(LIVE_WINDOW + 1));
      index.expire(this.indexKey(workspaceId), LIVE_TTL_SECONDS);
    }
    const indexed = (await index.exec()) ?? [];
    const indexFailed = indexed.find(([err]) => err);
    if (indexFailed) throw indexFailed[0];
  }

  /** The position of the workspace's newest entry ('0-0' when it has none). */
  async newest(workspaceId: string): Promise<string> {
    const [last] = await this.writer.xrevrange(this.key(workspaceId), '+', '-', 'COUNT', 1);
    return last?.[0] ?? '0-0';
  }

  /**
   * Where the entry with SSE id `id` is, within the window; null when it is not there (too old,
   * or never was). Reads the index, then only the entries of that millisecond.
   */
  async positionOf(workspaceId: string, id: string): Promise<string | null> {
    const ms = await this.writer.zscore(this.indexKey(workspaceId), id);
    if (ms === null) return null;
    const same = await this.writer.xrange(this.key(workspaceId), ms, ms, 'COUNT', LIVE_WINDOW);
    return same.map(placed).find((e) => e.id === id)?.position ?? null;
  }

  /** The workspace's entries after `position`, oldest first. */
  async after(workspaceId: string, position: string): Promise<PlacedEntry[]> {
    return (await this.writer.xrange(this.key(workspaceId), `(${position}`, '+', 'COUNT', LIVE_WINDOW)).map(placed);
  }

  /** A connection of its own for blocking reads (XREAD BLOCK holds it); closed at shutdown. */
  newReader(): LiveReader {
    const redis = redisClient(this.config, { maxRetriesPerRequest: null, connectionName: `${this.config.queuePrefix}:live-reader` });
    redis.on('error', () => undefined); // a failed read is retried by the reader's loop
    this.readers.add(redis);
    return {
      read: async (positions, blockMs) => {
        const keys = [...positions.keys()];
        const answer = await redis.xread('COUNT', 500, 'BLOCK', blockMs, 'STREAMS', ...keys.map((w) => this.key(w)), ...keys.map((w) => positions.get(w)!));
        const out = new Map<string, PlacedEntry[]>();
        for (const [key, entries] of answer ?? []) out.set(keys[keys.findIndex((w) => this.key(w) === key)], entries.map(placed));
        return out;
      },
      close: () => {
        this.readers.delete(redis);
        redis.disconnect();
      },
    };
  }

  onApplicationShutdown(): void {
    for (const r of this.readers) r.disconnect();
    this.readers.clear();
    this.writerConnection?.disconnect();
  }
}

/** A blocking reader of several workspaces' streams: new entries after each one's position, within `blockMs`. */
export interface LiveReader {
  read(positions: ReadonlyMap<string, string>, blockMs: number): Promise<Map<string, PlacedEntry[]>>;
  close(): void;
}

function placed([position, fields]: [string, string[]]): PlacedEntry {
  const f: Record<string, string> = {};
  for (let i = 0; i + 1 < fields.length; i += 2) f[fields[i]] = fields[i + 1];
  return { position, id: f.id ?? '', event: f.event ?? 'message', data: f.data ?? '{}', userId: f.user ? f.user : null };
}
