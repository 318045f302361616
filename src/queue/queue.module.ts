import { BullModule } from '@nestjs/bullmq';
import { Global, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import type { ConnectionOptions } from 'bullmq';
import type { Cluster } from 'ioredis';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { clusterClient, redisOptions } from '../redis/redis-connection';
import './guarded-bullmq';
import { OutboxFilters } from './outbox-filters';
import { OutboxSignal } from './outbox-signal';
import { OutboxWakeRepository } from './outbox-wake.repository';
import { QUEUE_NAMES, QUEUES, QueueName } from './queues';
import { WorkerSettings } from './worker-settings';

/** Registers queues by name with their job options; importing this file first makes them use the guarded BullMQ classes. */
export const registerQueues = (...names: QueueName[]) => BullModule.registerQueue(...names.map((name) => ({ name, defaultJobOptions: QUEUES[name].jobOptions })));

/**
 * The queues' connection setting: ioredis options for one server or a Sentinel-named primary
 * (every queue and worker opens its own connections from them); with a Cluster, one Cluster client
 * that the queues share (BullMQ takes a Cluster only as a client; each worker duplicates it for
 * its blocking reads), closed here at shutdown since BullMQ leaves a shared client open.
 */
@Injectable()
export class QueueConnection implements OnApplicationShutdown {
  private cluster: Cluster | null = null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  options(): ConnectionOptions {
    if (this.config.redis.mode !== 'cluster') return redisOptions(this.config, { maxRetriesPerRequest: null });
    return (this.cluster ??= clusterClient(this.config, { maxRetriesPerRequest: null }));
  }

  onApplicationShutdown(): void {
    this.cluster?.disconnect();
  }
}

@Global()
@Module({ providers: [QueueConnection], exports: [QueueConnection] })
export class QueueConnectionModule {}

/**
 * BullMQ root: one Redis connection setting and key prefix for every queue (QUEUE_PREFIX), the
 * configured worker settings (WorkerSettings) that processors apply, and the outbox filters
 * (OutboxFilters) that consumers register for the relay.
 */
@Global()
@Module({
  imports: [
    BullModule.forRootAsync({
      imports: [QueueConnectionModule],
      inject: [APP_CONFIG, QueueConnection],
      useFactory: (config: AppConfig, connection: QueueConnection) => ({
        connection: connection.options(),
        prefix: `${config.queuePrefix}:bull`,
      }),
    }),
  ],
  providers: [WorkerSettings, OutboxSignal, OutboxWakeRepository, OutboxFilters],
  exports: [BullModule, WorkerSettings, OutboxSignal, OutboxFilters],
})
export class QueueModule {}

/**
 * Worker role: every queue, registered once, for the outbox relay (which publishes to them) and
 * the processors (which consume them). API-only processes open no queue connection at all.
 */
@Module({ imports: [registerQueues(...QUEUE_NAMES)], exports: [BullModule] })
export class WorkerQueuesModule {}
