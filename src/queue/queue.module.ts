import { BullModule } from '@nestjs/bullmq';
import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { redisOptionsFromUrl } from '../redis/redis-options';
import './guarded-bullmq';
import { OutboxFilters } from './outbox-filters';
import { OutboxSignal } from './outbox-signal';
import { OutboxWakeRepository } from './outbox-wake.repository';
import { QUEUE_NAMES, QUEUES, QueueName } from './queues';
import { WorkerSettings } from './worker-settings';

/** Registers queues by name with their job options; importing this file first makes them use the guarded BullMQ classes. */
export const registerQueues = (...names: QueueName[]) => BullModule.registerQueue(...names.map((name) => ({ name, defaultJobOptions: QUEUES[name].jobOptions })));

/**
 * BullMQ root: one Redis connection setting and key prefix for every queue (QUEUE_PREFIX), the
 * configured worker settings (WorkerSettings) that processors apply, and the outbox filters
 * (OutboxFilters) that consumers register for the relay.
 */
@Global()
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        connection: redisOptionsFromUrl(config.redisUrl, { maxRetriesPerRequest: null }),
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
