import { BullModule } from '@nestjs/bullmq';
import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { redisOptionsFromUrl } from '../redis/redis-options';
import './guarded-bullmq';

/** Registers queues by name; importing this file first makes them use the guarded BullMQ classes. */
export const registerQueues = (...names: string[]) => BullModule.registerQueue(...names.map((name) => ({ name })));

/** BullMQ root: one Redis connection setting and key prefix for every queue (QUEUE_PREFIX). */
@Global()
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        connection: redisOptionsFromUrl(config.redisUrl, { maxRetriesPerRequest: null }),
        prefix: `${config.queuePrefix}:bull`,
        defaultJobOptions: {
          attempts: 12,
          backoff: { type: 'exponential', delay: 5_000 },
          removeOnComplete: { age: 24 * 3600, count: 1000 },
          removeOnFail: { age: 7 * 24 * 3600 },
        },
      }),
    }),
  ],
  exports: [BullModule],
})
export class QueueModule {}
