import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { isUuid } from '../../common/pipes/id.pipe';
import { isForeignKeyViolation } from '../../database/sql';
import { PutWorkflowRuleDto } from './dto/workflow-rule.dto';
import { toWorkflowRuleRecord, WorkflowRuleRecord } from './workflow-rule.record';
import { WorkflowRuleRepository } from './workflow-rule.repository';

export const COLUMN_NOT_IN_PROJECT = 'columnId must be a column of this project';
export const WORKFLOW_RULE_NOT_FOUND = 'Workflow rule not found';

/**
 * A project's workflow rules (docs/git-hosts.md, "Workflow rules"): which column a git event of
 * each host moves its tasks to. The inbound webhooks read them through WorkflowRuleRepository.
 */
@Injectable()
export class WorkflowRuleService {
  constructor(private readonly rules: WorkflowRuleRepository) {}

  async list(workspaceId: string, projectId: string): Promise<WorkflowRuleRecord[]> {
    return (await this.rules.listOfProject(workspaceId, projectId)).map(toWorkflowRuleRecord);
  }

  async put(workspaceId: string, projectId: string, dto: PutWorkflowRuleDto): Promise<WorkflowRuleRecord> {
    const columnId = dto.columnId.toLowerCase();
    if (!isUuid(columnId)) throw new BadRequestException(COLUMN_NOT_IN_PROJECT);
    try {
      const row = await this.rules.upsert(workspaceId, projectId, { integrationType: dto.integrationType, eventType: dto.eventType, columnId });
      if (!row) throw new BadRequestException(COLUMN_NOT_IN_PROJECT);
      return toWorkflowRuleRecord(row);
    } catch (err) {
      // The column (or the project) was deleted while the rule was written.
      if (isForeignKeyViolation(err)) throw new BadRequestException(COLUMN_NOT_IN_PROJECT);
      throw err;
    }
  }

  async remove(workspaceId: string, id: string): Promise<WorkflowRuleRecord> {
    const row = await this.rules.delete(workspaceId, id);
    if (!row) throw new NotFoundException(WORKFLOW_RULE_NOT_FOUND);
    return toWorkflowRuleRecord(row);
  }
}
