import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { firstRow, rows } from '../../database/sql';
import { GitSource } from './git-integration.record';
import { WORKFLOW_EVENTS, WorkflowEvent, WorkflowRuleRow, WorkflowTargets } from './workflow-rule.record';

export const WORKFLOW_RULE_SCOPE_SQL = 'SELECT workspace_id FROM workflow_rule WHERE id = $1';

const RULE_FIELDS = `r.id, r.workspace_id, r.project_id, r.integration_type, r.event_type, r.column_id,
  c.name AS column_name, c.slug AS column_slug, r.created_at, r.updated_at`;

/**
 * A project's workflow rules: at most one per (integration type, event), each naming a column of
 * the same project. A rule goes with its column or its project (foreign keys cascade).
 */
@Injectable()
export class WorkflowRuleRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The project's rules: hostedgit before selfgit, events in the order WORKFLOW_EVENTS lists them. */
  listOfProject(workspaceId: string, projectId: string): Promise<WorkflowRuleRow[]> {
    return rows<WorkflowRuleRow>(
      this.ds.manager,
      `SELECT ${RULE_FIELDS} FROM workflow_rule r JOIN board_column c ON c.id = r.column_id
        WHERE r.workspace_id = $1 AND r.project_id = $2
        ORDER BY r.integration_type, array_position($3::text[], r.event_type)`,
      [workspaceId, projectId, WORKFLOW_EVENTS],
    );
  }

  /**
   * Creates the rule for (project, type, event), or points the existing one at `columnId` (same id,
   * new updatedAt). undefined when `columnId` is not a column of the project: nothing is written.
   */
  upsert(workspaceId: string, projectId: string, rule: { integrationType: GitSource; eventType: WorkflowEvent; columnId: string }): Promise<WorkflowRuleRow | undefined> {
    return firstRow<WorkflowRuleRow>(
      this.ds.manager,
      `WITH col AS (
         SELECT id, name, slug FROM board_column WHERE id = $5 AND project_id = $2 AND workspace_id = $1
       ), saved AS (
         INSERT INTO workflow_rule (workspace_id, project_id, integration_type, event_type, column_id)
         SELECT $1, $2, $3, $4, col.id FROM col
         ON CONFLICT (project_id, integration_type, event_type)
           DO UPDATE SET column_id = EXCLUDED.column_id,
                         updated_at = CASE WHEN workflow_rule.column_id = EXCLUDED.column_id THEN workflow_rule.updated_at ELSE now() END
         RETURNING *
       )
       SELECT r.id, r.workspace_id, r.project_id, r.integration_type, r.event_type, r.column_id,
              col.name AS column_name, col.slug AS column_slug, r.created_at, r.updated_at
         FROM saved r JOIN col ON col.id = r.column_id`,
      [workspaceId, projectId, rule.integrationType, rule.eventType, rule.columnId],
    );
  }

  /** Deletes the rule; answers it as it was (undefined when there is none in the workspace). */
  delete(workspaceId: string, id: string): Promise<WorkflowRuleRow | undefined> {
    return firstRow<WorkflowRuleRow>(
      this.ds.manager,
      `WITH gone AS (DELETE FROM workflow_rule WHERE id = $2 AND workspace_id = $1 RETURNING *)
       SELECT ${RULE_FIELDS} FROM gone r JOIN board_column c ON c.id = r.column_id`,
      [workspaceId, id],
    );
  }

  /** Event → column slug for the project's rules of one integration type, as the git events consult them. */
  async targets(workspaceId: string, projectId: string, type: GitSource, m: EntityManager = this.ds.manager): Promise<WorkflowTargets> {
    const found = await rows<{ event_type: WorkflowEvent; slug: string }>(
      m,
      `SELECT r.event_type, c.slug FROM workflow_rule r JOIN board_column c ON c.id = r.column_id
        WHERE r.workspace_id = $1 AND r.project_id = $2 AND r.integration_type = $3`,
      [workspaceId, projectId, type],
    );
    return Object.fromEntries(found.map((r) => [r.event_type, r.slug]));
  }
}
