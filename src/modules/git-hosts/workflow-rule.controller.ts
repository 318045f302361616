import { Body, Controller, Delete, Get, Param, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermission, ResolvedScope, Scope } from '../../common/decorators/require-permission.decorator';
import { ApiAnswer, ApiErrors, ErrorCase } from '../../common/http/api-errors';
import { Id } from '../../common/pipes/id.pipe';
import { PROJECT } from './git-routes';
import { PutWorkflowRuleDto } from './dto/workflow-rule.dto';
import { COLUMN_NOT_IN_PROJECT, WORKFLOW_RULE_NOT_FOUND, WorkflowRuleService } from './workflow-rule.service';
import { WorkflowRuleSchema } from '../git-hosts/git-hosts.schema';

const FORBIDDEN: ErrorCase = [403, 'Insufficient permissions', 'Insufficient API key scope'];

@ApiTags('workflow-rule')
@ApiBearerAuth()
@Controller('workflow-rule')
export class WorkflowRuleController {
  constructor(private readonly rules: WorkflowRuleService) {}

  @Get(':projectId')
  @ApiAnswer('Workflow rule[] (hostedgit, then selfgit; events in their listed order)', [WorkflowRuleSchema])
  @RequirePermission('project', 'read', PROJECT)
  @ApiErrors([403, 'Insufficient API key scope'], [404, 'Project not found'])
  @ApiOperation({ summary: "The project's workflow rules: which column each git event moves a task to" })
  list(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string) {
    return this.rules.list(scope.workspaceId, projectId);
  }

  @Put(':projectId')
  @ApiAnswer('Workflow rule', WorkflowRuleSchema)
  @RequirePermission('project', 'update', PROJECT)
  @ApiErrors(
    [400, COLUMN_NOT_IN_PROJECT, 'integrationType must be one of the following values: hostedgit, selfgit', 'eventType must be one of the following values: …'],
    FORBIDDEN,
    [404, 'Project not found'],
  )
  @ApiOperation({ summary: 'Create or replace the rule for (integrationType, eventType): tasks move to columnId on that event' })
  put(@Scope() scope: ResolvedScope, @Param('projectId', Id('Project')) projectId: string, @Body() dto: PutWorkflowRuleDto) {
    return this.rules.put(scope.workspaceId, projectId, dto);
  }

  @Delete(':id')
  @ApiAnswer('Workflow rule (as it was)', WorkflowRuleSchema)
  @RequirePermission('project', 'update', { kind: 'workflow-rule', from: 'params', key: 'id' })
  @ApiErrors(FORBIDDEN, [404, WORKFLOW_RULE_NOT_FOUND])
  @ApiOperation({ summary: 'Delete a workflow rule; the event falls back to its default column' })
  remove(@Scope() scope: ResolvedScope, @Param('id', Id('Workflow rule')) id: string) {
    return this.rules.remove(scope.workspaceId, id);
  }
}
