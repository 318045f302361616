import { Controller, Get, Headers, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiProduces, ApiProperty, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { AuthUser, CurrentUser } from '../../common/decorators/current-user.decorator';
import { RequirePermission, ResolvedScope, Scope } from '../../common/decorators/require-permission.decorator';
import { ApiAnswer } from '../../common/http/api-errors';
import { IsIdString } from '../../common/validation/dto-helpers';
import { LiveHub } from './live-hub';

export class LiveEventsQuery {
  @ApiProperty({ description: 'The workspace whose events to follow' })
  @IsIdString()
  workspaceId: string;
}

@ApiTags('events')
@ApiBearerAuth()
@Controller('events')
export class LiveEventsController {
  constructor(private readonly hub: LiveHub) {}

  @Get()
  @ApiProduces('text/event-stream')
  @ApiAnswer('text/event-stream: `id:` the event id, `event:` its kind (`task.created`, … or `notification`), `data:` JSON; `reset`; heartbeat comments')
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'Resume just after this event (within the last 1,000 of the workspace), else a `reset` event comes first' })
  @RequirePermission('task', 'read', { kind: 'workspace', from: 'query', key: 'workspaceId' })
  @ApiOperation({
    summary:
      "The workspace's live events for a member (an API key needs task:read): every task event as it commits and the caller's own in-app notifications (not to an API key limited by permissions), as server-sent events, texts cut to 280 characters (truncated: true), no entry over 16 KiB (docs/live-events.md). At most LIVE_STREAMS_PER_USER (10) open streams per user and LIVE_STREAMS_PER_PROCESS (5,000) per API process: past either, 429 with Retry-After (`Too many open event streams: at most 10 per user; close one first`, `Too many open event streams on this server: try again later`)",
  })
  async stream(
    @Scope() scope: ResolvedScope,
    @CurrentUser() user: AuthUser,
    @Query() _q: LiveEventsQuery,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() res: Response,
  ): Promise<void> {
    const resume = typeof lastEventId === 'string' && lastEventId.length > 0 && lastEventId.length <= 100 ? lastEventId : undefined;
    // In-app notifications reach the credentials GET /notification accepts: sessions and API keys without permission limits.
    const notifications = !user.apiKey || user.apiKey.permissions === null;
    await this.hub.open(scope.workspaceId, { userId: user.id, sessionId: user.sessionId ?? null, apiKeyId: user.apiKey?.id ?? null, notifications }, res, resume);
  }
}
