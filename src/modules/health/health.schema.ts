import { ApiProperty, ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'HealthChecks' })
export class HealthChecksSchema {
  @ApiProperty({ enum: ['up'] }) database: 'up';
  @ApiProperty({ enum: ['up'] }) redis: 'up';
}

@ApiSchema({ name: 'HealthRedis' })
export class HealthRedisSchema {
  @ApiProperty({ enum: ['single', 'sentinel', 'cluster'], description: 'How the service reaches Redis: REDIS_URL, Sentinel or a Cluster (docs/scaling.md)' })
  mode: 'single' | 'sentinel' | 'cluster';
  @ApiProperty({ required: false, description: "Sentinel: the primary's name in the sentinels' configuration" })
  name?: string;
  @ApiProperty({
    required: false,
    description: "Sentinel: the address (host:port) of the primary this process is connected to. Cluster: the node that serves the slot of the service's keys",
  })
  primary?: string;
}

/** Health (`GET /health`): 200 only when both are up (503 otherwise). */
@ApiSchema({ name: 'Health' })
export class HealthSchema {
  @ApiProperty({ enum: ['ok'] }) status: 'ok';
  @ApiProperty({ type: HealthChecksSchema }) checks: HealthChecksSchema;
  @ApiProperty({ type: HealthRedisSchema }) redis: HealthRedisSchema;
}
