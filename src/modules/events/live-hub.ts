import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type { Response } from 'express';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { isAfter, LiveReader, LiveStreams, PlacedEntry } from '../../redis/live-streams';
import { LiveAccessRepository, StreamHolder } from './live-access.repository';

/** How often the holders of open streams are checked (a removed member loses the stream within this and a read). */
const ACCESS_CHECK_MS = 2_000;
/** How long one blocking read waits for new entries before the reader looks at its list of workspaces again. */
const READ_BLOCK_MS = 1_000;
/** A stream whose client reads slower than this much queued output is closed; it resumes with Last-Event-ID. */
const MAX_QUEUED_BYTES = 1 << 20;
/** Ids remembered per stream, so an entry appended twice (a retried relay batch) is sent once. */
const RECENT_IDS = 256;

interface Stream extends StreamHolder {
  res: Response;
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

  constructor(
    private readonly live: LiveStreams,
    private readonly access: LiveAccessRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.heartbeat = setInterval(() => this.beat(), config.eventsHeartbeatSeconds * 1000);
    this.heartbeat.unref();
    this.accessCheck = setInterval(() => void this.checkAccess(), ACCESS_CHECK_MS);
    this.accessCheck.unref();
  }

  /** Streams currently open in this process. */
  get size(): number {
    let n = 0;
    for (const w of this.workspaces.values()) n += w.streams.size;
    return n;
  }

  /**
   * Answers `res` with the workspace's live events from now on, or, with `lastEventId`, from just
   * after that event when it is still within the window (else a `reset` event first, then live).
   */
  async open(workspaceId: string, holder: StreamHolder, res: Response, lastEventId: string | undefined): Promise<void> {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    res.write('retry: 3000\n\n');
    let workspace = this.workspaces.get(workspaceId);
    if (!workspace) {
      workspace = { streams: new Set(), position: await this.live.newest(workspaceId) };
      // Another open() may have made it meanwhile: keep the first.
      workspace = this.workspaces.get(workspaceId) ?? workspace;
      this.workspaces.set(workspaceId, workspace);
    }
    const stream: Stream = { ...holder, res, cursor: workspace.position, held: lastEventId ? [] : null, recent: [] };
    workspace.streams.add(stream);
    res.on('close', () => this.drop(workspaceId, stream));
    this.startReading();
    if (!lastEventId) return;

    const from = await this.live.positionOf(workspaceId, lastEventId);
    if (from === null) {
      this.send(stream, { position: stream.cursor, id: '', event: 'reset', data: '{"reason":"Last-Event-ID is not within the window: fetch again"}', userId: null });
    } else {
      stream.cursor = from;
      for (const e of await this.live.after(workspaceId, from)) this.deliver(stream, e);
    }
    const held = stream.held ?? [];
    stream.held = null;
    for (const e of held) this.deliver(stream, e);
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearInterval(this.heartbeat);
    clearInterval(this.accessCheck);
    for (const w of this.workspaces.values()) for (const s of w.streams) s.res.end();
    this.workspaces.clear();
    this.reader?.close();
    await this.reading?.catch(() => undefined);
  }

  private drop(workspaceId: string, stream: Stream): void {
    const workspace = this.workspaces.get(workspaceId);
    if (!workspace) return;
    workspace.streams.delete(stream);
    if (!workspace.streams.size) this.workspaces.delete(workspaceId);
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
        for (const stream of workspace.streams) for (const e of entries) this.deliver(stream, e);
      }
    }
  }

  /** Gives `e` to `stream` unless it is another user's notification, already given, or older than the stream's cursor. */
  private deliver(stream: Stream, e: PlacedEntry): void {
    if (stream.held) {
      stream.held.push(e);
      return;
    }
    if (!isAfter(e.position, stream.cursor)) return;
    stream.cursor = e.position;
    if (e.userId && e.userId !== stream.userId) return;
    if (stream.recent.includes(e.id)) return;
    stream.recent.push(e.id);
    if (stream.recent.length > RECENT_IDS) stream.recent.shift();
    this.send(stream, e);
  }

  private send(stream: Stream, e: PlacedEntry): void {
    if (stream.res.writableLength > MAX_QUEUED_BYTES) {
      stream.res.end();
      return;
    }
    stream.res.write(`${e.id ? `id: ${e.id}\n` : ''}event: ${e.event}\ndata: ${e.data}\n\n`);
  }

  private beat(): void {
    for (const w of this.workspaces.values()) for (const s of w.streams) if (!s.held) s.res.write(': heartbeat\n\n');
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
          if (!allowed.has(i)) s.res.end();
        });
      }
    } catch (err) {
      this.logger.warn(`checking the holders of event streams failed: ${(err as Error).message}`);
    } finally {
      this.checking = false;
    }
  }
}
