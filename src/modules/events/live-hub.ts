import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type { Response } from 'express';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { isAfter, LiveReader, LiveStreams, PlacedEntry } from '../../redis/live-streams';
import { TooManyRequestsError } from '../../redis/rate-limit.service';
import { LiveAccessRepository, StreamHolder } from './live-access.repository';

/** How often the holders of open streams are checked (a removed member loses the stream within this and a read). */
const ACCESS_CHECK_MS = 2_000;
/** How long one blocking read waits for new entries before the reader looks at its list of workspaces again. */
const READ_BLOCK_MS = 1_000;
/** A stream whose client reads slower than this much queued output is closed; it resumes with Last-Event-ID. */
const MAX_QUEUED_BYTES = 1 << 20;
/** Ids remembered per stream, so an entry appended twice (a retried relay batch) is sent once. */
const RECENT_IDS = 256;
/** What a refused stream is told to wait before it tries again (seconds). */
const RETRY_AFTER_SECONDS = 30;
export const TOO_MANY_ON_SERVER = 'Too many open event streams on this server: try again later';
export const tooManyForUser = (n: number) => `Too many open event streams: at most ${n} per user; close one first`;

/** Who holds a stream, and whether in-app notifications may reach it (GET /notification refuses a key limited by permissions). */
export interface LiveHolder extends StreamHolder {
  notifications: boolean;
}

interface Stream extends LiveHolder {
  res: Response;
  workspaceId: string;
  /** Set once the stream is ended or its client left: nothing is written to it after that. */
  gone: boolean;
  /** The position of the last entry this stream has been given (or passed over). */
  cursor: string;
  /** Entries that came while the stream was catching up from Last-Event-ID; null once live. */
  held: PlacedEntry[] | null;
  recent: string[];
}

interface Workspace {
  streams: Set<Stream>;
  /** Where the reader goes on in this workspace's Redis stream. */
  position: string;
}

/**
 * The event streams one API process holds (docs/live-events.md): one blocking Redis reader for
 * all the workspaces with an open stream, each entry given to the streams of its workspace (a
 * notification only to its user's), heartbeats, and a check every two seconds that each holder is
 * still a member with a live session or key.
 */
@Injectable()
export class LiveHub implements OnModuleDestroy {
  private readonly logger = new Logger('LiveEvents');
  private readonly workspaces = new Map<string, Workspace>();
  private reader: LiveReader | null = null;
  private reading: Promise<void> | null = null;
  private stopped = false;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly accessCheck: NodeJS.Timeout;
  private checking = false;
  /** Open streams per user, for LIVE_STREAMS_PER_USER. */
  private readonly perUser = new Map<string, number>();
  private open_ = 0;

  constructor(
    private readonly live: LiveStreams,
    private readonly access: LiveAccessRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.heartbeat = setInterval(() => this.beat(), config.eventsHeartbeatSeconds * 1000);
    this.heartbeat.unref();
    this.accessCheck = setInterval(() => void this.checkAccess(), ACCESS_CHECK_MS);
    this.accessCheck.unref();
  }

  /** Streams currently open in this process. */
  get size(): number {
    return this.open_;
  }

  /**
   * Answers `res` with the workspace's live events from now on, or, with `lastEventId`, from just
   * after that event when it is still within the window (else a `reset` event first, then live).
   * Over a cap it throws TooManyStreamsError before anything is written. A client that leaves
   * while this waits for Redis is never registered as a stream (and its workspace not read for it).
   */
  async open(workspaceId: string, holder: LiveHolder, res: Response, lastEventId: string | undefined): Promise<void> {
    if (this.open_ >= this.config.liveStreamsPerProcess) throw new TooManyRequestsError(RETRY_AFTER_SECONDS, TOO_MANY_ON_SERVER);
    if ((this.perUser.get(holder.userId) ?? 0) >= this.config.liveStreamsPerUser)
      throw new TooManyRequestsError(RETRY_AFTER_SECONDS, tooManyForUser(this.config.liveStreamsPerUser));
    const stream: Stream = { ...holder, workspaceId, res, gone: false, cursor: '0-0', held: lastEventId ? [] : null, recent: [] };
    // Registered before the first wait, so a client that leaves during it is seen; the 'error'
    // listener keeps a write to a connection that broke from becoming an unhandled error.
    res.on('close', () => this.drop(stream));
    res.on('error', () => this.drop(stream));
    this.count(holder.userId, 1);
    // It may have left before this handler ran (while the guard read the database): then its 'close' came already.
    if (res.destroyed || !res.socket || res.socket.destroyed) {
      this.drop(stream);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    this.write(stream, 'retry: 3000\n\n');

    let workspace = this.workspaces.get(workspaceId);
    if (!workspace) {
      const position = await this.live.newest(workspaceId);
      if (stream.gone) return;
      // Another open() may have made it meanwhile: keep the first.
      workspace = this.workspaces.get(workspaceId) ?? { streams: new Set(), position };
      this.workspaces.set(workspaceId, workspace);
    }
    stream.cursor = workspace.position;
    workspace.streams.add(stream);
    this.startReading();
    if (!lastEventId) return;

    const from = await this.live.positionOf(workspaceId, lastEventId);
    if (stream.gone) return;
    if (from === null) {
      this.send(stream, { position: stream.cursor, id: '', event: 'reset', data: '{"reason":"Last-Event-ID is not within the window: fetch again"}', userId: null });
    } else {
      stream.cursor = from;
      const missed = await this.live.after(workspaceId, from);
      if (stream.gone) return;
      for (const e of missed) this.deliver(stream, e);
    }
    const held = stream.held ?? [];
    stream.held = null;
    for (const e of held) this.deliver(stream, e);
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearInterval(this.heartbeat);
    clearInterval(this.accessCheck);
    for (const w of [...this.workspaces.values()]) for (const s of [...w.streams]) this.end(s);
    this.workspaces.clear();
    this.reader?.close();
    await this.reading?.catch(() => undefined);
  }

  /** Ends a stream (its holder lost access, or shutdown): removed from its workspace first, so nothing is written to it after. */
  private end(stream: Stream): void {
    this.drop(stream);
    if (!stream.res.writableEnded) stream.res.end();
  }

  /** Forgets a stream, once, wherever it ended: its client left, it was ended or cut, its connection broke. */
  private drop(stream: Stream): void {
    if (stream.gone) return;
    stream.gone = true;
    stream.held = null;
    this.count(stream.userId, -1);
    const workspace = this.workspaces.get(stream.workspaceId);
    if (!workspace?.streams.delete(stream)) return;
    if (!workspace.streams.size) this.workspaces.delete(stream.workspaceId);
  }

  private count(userId: string, by: 1 | -1): void {
    this.open_ += by;
    const n = (this.perUser.get(userId) ?? 0) + by;
    if (n > 0) this.perUser.set(userId, n);
    else this.perUser.delete(userId);
  }

  private startReading(): void {
    if (this.reading || this.stopped) return;
    this.reader ??= this.live.newReader();
    this.reading = this.readLoop().finally(() => {
      this.reading = null;
      // Streams opened as the loop ended need it again.
      if (this.workspaces.size && !this.stopped) this.startReading();
    });
  }

  private async readLoop(): Promise<void> {
    let failures = 0;
    while (!this.stopped && this.workspaces.size) {
      const positions = new Map([...this.workspaces].map(([id, w]) => [id, w.position]));
      let found: Map<string, PlacedEntry[]>;
      try {
        found = await this.reader!.read(positions, READ_BLOCK_MS);
        failures = 0;
      } catch (err) {
        if (this.stopped) return;
        if (failures++ === 0) this.logger.warn(`reading the live streams failed, retrying: ${(err as Error).message}`);
        await new Promise((r) => setTimeout(r, Math.min(5_000, 200 * failures)).unref());
        continue;
      }
      for (const [workspaceId, entries] of found) {
        const workspace = this.workspaces.get(workspaceId);
        if (!workspace || !entries.length) continue;
        workspace.position = entries[entries.length - 1].position;
        for (const stream of [...workspace.streams]) for (const e of entries) this.deliver(stream, e);
      }
    }
  }

  /** Gives `e` to `stream` unless it is another user's notification (or one its credential may not read), already given, or older than the stream's cursor. */
  private deliver(stream: Stream, e: PlacedEntry): void {
    if (stream.gone) return;
    if (stream.held) {
      stream.held.push(e);
      return;
    }
    if (!isAfter(e.position, stream.cursor)) return;
    stream.cursor = e.position;
    if (e.userId && (e.userId !== stream.userId || !stream.notifications)) return;
    if (stream.recent.includes(e.id)) return;
    stream.recent.push(e.id);
    if (stream.recent.length > RECENT_IDS) stream.recent.shift();
    this.send(stream, e);
  }

  private send(stream: Stream, e: PlacedEntry): void {
    this.write(stream, `${e.id ? `id: ${e.id}\n` : ''}event: ${e.event}\ndata: ${e.data}\n\n`);
  }

  /**
   * Writes to a stream that is still open. A client that reads slower than its stream is fed, so
   * that MAX_QUEUED_BYTES wait for it (in the response and in its socket: `writableLength` of an
   * open response counts both), is cut: its connection is destroyed, since an `end()` would only
   * queue behind what it does not read. It resumes with Last-Event-ID.
   */
  private write(stream: Stream, text: string): void {
    const res = stream.res;
    if (stream.gone || res.writableEnded || res.destroyed) {
      this.drop(stream);
      return;
    }
    if (res.writableLength > MAX_QUEUED_BYTES) {
      this.drop(stream);
      res.destroy();
      return;
    }
    res.write(text);
  }

  private beat(): void {
    for (const w of [...this.workspaces.values()]) for (const s of [...w.streams]) if (!s.held) this.write(s, ': heartbeat\n\n');
  }

  /** Ends the streams whose holders left the workspace, or whose session or key ended. */
  private async checkAccess(): Promise<void> {
    if (this.checking || !this.workspaces.size) return;
    this.checking = true;
    try {
      for (const [workspaceId, workspace] of [...this.workspaces]) {
        const streams = [...workspace.streams];
        const allowed = await this.access.stillAllowed(workspaceId, streams);
        streams.forEach((s, i) => {
          if (!allowed.has(i)) this.end(s);
        });
      }
    } catch (err) {
      this.logger.warn(`checking the holders of event streams failed: ${(err as Error).message}`);
    } finally {
      this.checking = false;
    }
  }
}
