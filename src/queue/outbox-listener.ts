import { Inject, Injectable, Logger } from '@nestjs/common';
import { Client } from 'pg';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { OutboxRepository } from './outbox.repository';

/** How the listening connection shows in pg_stat_activity. */
export const OUTBOX_LISTENER_NAME = 'tandem-outbox-listener';
const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 30_000;

/**
 * Keeps one Postgres connection of its own LISTENing on the outbox channel and calls `wake` on
 * every notification, so a committed row is published within milliseconds instead of at the next
 * poll. LISTEN belongs to a session, so it cannot use the pool (whose connections are lent out
 * and given back). When the connection drops it reconnects with backoff, and wakes the relay
 * once listening again: rows committed meanwhile were announced to nobody. Polling covers the gap.
 */
@Injectable()
export class OutboxListener {
  private readonly logger = new Logger(OutboxListener.name);
  private client: Client | null = null;
  private wake: () => void = () => undefined;
  private retryTimer: NodeJS.Timeout | null = null;
  private retryMs = RECONNECT_MIN_MS;
  private stopped = false;
  private lost = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly outbox: OutboxRepository,
  ) {}

  start(wake: () => void): void {
    this.wake = wake;
    void this.connect();
  }

  /** Stops listening and reconnecting; resolves once the connection is closed. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({ connectionString: this.config.databaseUrl, application_name: OUTBOX_LISTENER_NAME, keepAlive: true });
    this.client = client;
    client.on('notification', () => this.wake());
    // Without these, a terminated backend or a network drop would go unnoticed (or crash the process).
    client.on('error', (err) => this.dropped(client, err));
    client.on('end', () => this.dropped(client, new Error('connection closed')));
    try {
      await client.connect();
      await this.outbox.listen(client);
    } catch (err) {
      this.dropped(client, err as Error);
      return;
    }
    if (client !== this.client) return; // stopped or dropped meanwhile
    if (this.lost) this.logger.log('outbox listener connected again');
    this.lost = false;
    this.retryMs = RECONNECT_MIN_MS;
    this.wake();
  }

  private dropped(client: Client, err: Error): void {
    if (client !== this.client) return; // a late event of a connection already given up
    this.client = null;
    client.end().catch(() => undefined);
    if (this.stopped) return;
    // One warning per outage: reconnect attempts that fail too stay quiet.
    if (!this.lost) this.logger.warn(`outbox listener lost its database connection, polling until it is back: ${err.message}`);
    this.lost = true;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.connect();
    }, this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, RECONNECT_MAX_MS);
  }
}
