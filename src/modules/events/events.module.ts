import { Module } from '@nestjs/common';
import { LiveAccessRepository } from './live-access.repository';
import { LiveEventsController } from './live-events.controller';
import { LiveHub } from './live-hub';

/**
 * The live event stream (`GET /api/events`, docs/live-events.md), API role: the events come from
 * the workspaces' live streams in Redis (src/redis/live-streams.ts), which the worker fills from
 * the committed outbox rows (src/modules/delivery/live-tap.ts) and the in-app notifications.
 */
@Module({
  controllers: [LiveEventsController],
  providers: [LiveHub, LiveAccessRepository],
})
export class EventsModule {}
