import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Workflow rules (docs/git-hosts.md, "Workflow rules"): per project and git host, the column an
 * event moves a task to. One rule per (project, host, event); the column belongs to the same
 * project (the API checks it), and the rule goes with its column or its project.
 */
export class WorkflowRules1763781900000 implements MigrationInterface {
  name = 'WorkflowRules1763781900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE workflow_rule (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspace(id) ON DELETE CASCADE,
        project_id uuid NOT NULL REFERENCES project(id) ON DELETE CASCADE,
        integration_type text NOT NULL CONSTRAINT workflow_rule_integration_type CHECK (integration_type IN ('hostedgit', 'selfgit')),
        event_type text NOT NULL CONSTRAINT workflow_rule_event_type
          CHECK (event_type IN ('branch_push', 'pr_opened', 'pr_merged', 'issue_opened', 'issue_closed', 'issue_reopened')),
        column_id uuid NOT NULL REFERENCES board_column(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT workflow_rule_event_key UNIQUE (project_id, integration_type, event_type)
      )`);
    await q.query(`CREATE INDEX workflow_rule_column_idx ON workflow_rule (column_id)`);
    await q.query(`CREATE INDEX workflow_rule_workspace_idx ON workflow_rule (workspace_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE workflow_rule`);
  }
}
