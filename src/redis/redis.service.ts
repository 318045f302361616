import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { redisClient, RedisClient } from './redis-connection';

/** The app's own Redis connection (rate limits, caches); queues have their own connections. */
@Injectable()
export class RedisService implements OnApplicationShutdown {
  readonly client: RedisClient;
  private readonly prefix: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.prefix = `${config.queuePrefix}:`;
    this.client = redisClient(config, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false, disconnectTimeout: 300 });
    this.client.on('error', () => undefined); // reported by health checks; ioredis reconnects by itself
  }

  key(...parts: string[]): string {
    return this.prefix + parts.join(':');
  }

  async onApplicationShutdown(): Promise<void> {
    // quit() waits for a reply that a disconnected client never gets; stop reconnecting instead.
    if (this.client.status === 'ready') await this.client.quit().catch(() => this.client.disconnect());
    else this.client.disconnect();
  }
}
