import { Controller, Get, Inject, ServiceUnavailableException } from '@nestjs/common';
import type { Cluster } from 'ioredis';
import { once } from 'node:events';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../../common/decorators/public.decorator';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { RedisService } from '../../redis/redis.service';
import { ApiAnswer } from '../../common/http/api-errors';
import { HealthRepository } from './health.repository';
import { HealthSchema } from '../health/health.schema';

async function within<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<never>((_, rej) => (timer = setTimeout(() => rej(new Error('timeout')), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly database: HealthRepository,
    private readonly redis: RedisService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Public()
  @Get()
  @ApiAnswer('Health', HealthSchema)
  @ApiOperation({ summary: 'Liveness and readiness: checks Postgres and Redis (503 when either is down)' })
  async check() {
    const [db, redis, seen] = await Promise.all([
      within(this.database.ping(), 2000).then(
        () => 'up',
        () => 'down',
      ),
      this.redisUp().then((up) => (up ? 'up' : 'down')),
      this.redisSeen(),
    ]);
    const down = [db === 'down' && 'database', redis === 'down' && 'redis'].filter(Boolean);
    if (down.length) throw new ServiceUnavailableException(`Unavailable: ${down.join(', ')}`);
    return { status: 'ok', checks: { database: db, redis }, redis: seen };
  }

  /**
   * How Redis is reached, and where the service's data is: with Sentinel, the primary's name and
   * the address this process is connected to (after a failover, the promoted replica's); with a
   * Cluster, the node that serves the slot of the installation's keys (QUEUE_PREFIX's hash tag).
   */
  private async redisSeen(): Promise<HealthSchema['redis']> {
    const target = this.config.redis;
    if (target.mode === 'single') return { mode: 'single' };
    if (target.mode === 'sentinel') {
      const stream = (this.redis.client as unknown as { stream?: { remoteAddress?: string; remotePort?: number } }).stream;
      const primary = stream?.remoteAddress && stream.remotePort ? `${stream.remoteAddress}:${stream.remotePort}` : undefined;
      return { mode: 'sentinel', name: target.name, primary };
    }
    const cluster = this.redis.client as unknown as Cluster;
    this.slot ??= await within(cluster.cluster('KEYSLOT', this.redis.key('health')), 2000).catch(() => undefined);
    const primary = this.slot === undefined ? undefined : cluster.slots[this.slot]?.[0];
    return { mode: 'cluster', primary };
  }

  /** The Cluster slot of the installation's keys, once known. */
  private slot: number | undefined;

  private async redisUp(): Promise<boolean> {
    const target = this.config.redis;
    const client = this.redis.client;
    // Just started (or reconnecting this instant): give the connection its chance to become
    // ready, so a fresh process does not report itself down; a failed attempt ends the wait.
    if (client.status === 'connecting' || client.status === 'connect') {
      await within(once(client, 'ready'), 2000).catch(() => undefined);
    }
    // A client that is not connected would queue the ping until it reconnects: report it down.
    if (client.status !== 'ready') return false;
    // A Cluster answers a PING from any node; a read of a key asks the node that holds the service's slot.
    const probe: Promise<unknown> = target.mode === 'cluster' ? client.exists(this.redis.key('health')) : client.ping();
    return within(probe, 2000).then(
      () => true,
      () => false,
    );
  }
}
