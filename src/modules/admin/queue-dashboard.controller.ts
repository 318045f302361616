import { Controller, HttpCode, Post, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { AuthUser, CurrentUser } from '../../common/decorators/current-user.decorator';
import { InstanceAdminOnly } from '../../common/decorators/instance-admin.decorator';
import { ApiAnswer, ApiErrors } from '../../common/http/api-errors';
import { API_KEY_REFUSED, NOT_INSTANCE_ADMIN } from '../../common/guards/instance-admin.guard';
import { DASHBOARD_COOKIE_MAX_AGE_S, QueueDashboard } from './queue-dashboard.service';
import { QueueSessionAnswerSchema } from '../admin/queue-session.schema';

/**
 * Opens the queue dashboard in a browser. The dashboard itself (`/api/admin/queues`, Bull Board's
 * page and its API) is not a controller route: it is served by QueueDashboard's handler, mounted
 * in src/bootstrap.ts, and is not part of the OpenAPI document.
 */
@ApiTags('admin')
@Controller('admin/queues')
export class QueueDashboardController {
  constructor(private readonly dashboard: QueueDashboard) {}

  @Post('session')
  @HttpCode(200)
  @InstanceAdminOnly()
  @ApiAnswer('{expiresAt}', QueueSessionAnswerSchema)
  @ApiErrors([403, NOT_INSTANCE_ADMIN, API_KEY_REFUSED, 'Insufficient API key scope'])
  @ApiOperation({
    summary: 'Lets this browser open the queue dashboard (/api/admin/queues) for 15 minutes',
    description:
      `Sets the HttpOnly, SameSite=Strict cookie \`tandem_queues\` (Path=/api/admin/queues, ${DASHBOARD_COOKIE_MAX_AGE_S} s) ` +
      'that the dashboard page and its own API calls authenticate with; it is bound to the calling session and ends with it. ' +
      "Call it from a page on the API's origin (e.g. /api/docs) or a same-site client with credentials, then open /api/admin/queues.",
  })
  session(@CurrentUser() user: AuthUser, @Res({ passthrough: true }) res: Response): { expiresAt: string } {
    const { setCookie, expiresAt } = this.dashboard.openSession(user);
    res.append('set-cookie', setCookie);
    res.setHeader('cache-control', 'no-store');
    return { expiresAt: expiresAt.toISOString() };
  }
}
