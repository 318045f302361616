import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermission, ResolvedScope, Scope } from '../../common/decorators/require-permission.decorator';
import { ApiAnswer, ApiErrors } from '../../common/http/api-errors';
import { Id } from '../../common/pipes/id.pipe';
import { ExternalLinkService } from './external-link.service';
import { ExternalLinkSchema } from '../git-hosts/git-hosts.schema';

/** The git-host branches, pull requests and issues linked to a task (docs/git-hosts.md, "External links"). */
@ApiTags('external-link')
@ApiBearerAuth()
@Controller('external-link')
export class ExternalLinkController {
  constructor(private readonly links: ExternalLinkService) {}

  @Get('task/:taskId')
  @ApiAnswer('External link[] (oldest first)', [ExternalLinkSchema])
  @RequirePermission('task', 'read', { kind: 'task', from: 'params', key: 'taskId' })
  @ApiErrors([403, 'Insufficient API key scope'], [404, 'Task not found'])
  @ApiOperation({ summary: 'The branches, pull requests and issues of git hosts linked to the task' })
  listOfTask(@Scope() scope: ResolvedScope, @Param('taskId', Id('Task')) taskId: string) {
    return this.links.listOfTask(scope.workspaceId, taskId);
  }
}
