import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { once } from 'node:events';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../../common/decorators/public.decorator';
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
  ) {}

  @Public()
  @Get()
  @ApiAnswer('Health', HealthSchema)
  @ApiOperation({ summary: 'Liveness and readiness: checks Postgres and Redis (503 when either is down)' })
  async check() {
    const [db, redis] = await Promise.all([
      within(this.database.ping(), 2000).then(
        () => 'up',
        () => 'down',
      ),
      this.redisUp().then((up) => (up ? 'up' : 'down')),
    ]);
    const down = [db === 'down' && 'database', redis === 'down' && 'redis'].filter(Boolean);
    if (down.length) throw new ServiceUnavailableException(`Unavailable: ${down.join(', ')}`);
    return { status: 'ok', checks: { database: db, redis } };
  }

  private async redisUp(): Promise<boolean> {
    const client = this.redis.client;
    // Just started (or reconnecting this instant): give the connection its chance to become
    // ready, so a fresh process does not report itself down; a failed attempt ends the wait.
    if (client.status === 'connecting' || client.status === 'connect') {
      await within(once(client, 'ready'), 2000).catch(() => undefined);
    }
    // A client that is not connected would queue the ping until it reconnects: report it down.
    if (client.status !== 'ready') return false;
    return within(client.ping(), 2000).then(
      () => true,
      () => false,
    );
  }
}
