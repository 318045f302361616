import { ApiProperty, ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'HealthChecks' })
export class HealthChecksSchema {
  @ApiProperty({ enum: ['up'] }) database: 'up';
  @ApiProperty({ enum: ['up'] }) redis: 'up';
}

/** Health (`GET /health`): 200 only when both are up (503 otherwise). */
@ApiSchema({ name: 'Health' })
export class HealthSchema {
  @ApiProperty({ enum: ['ok'] }) status: 'ok';
  @ApiProperty({ type: HealthChecksSchema }) checks: HealthChecksSchema;
}
