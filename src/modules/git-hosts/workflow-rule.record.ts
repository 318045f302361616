import { iso } from '../../database/sql';
import { GitSource } from './git-integration.record';

/** The git events a workflow rule can name (docs/git-hosts.md, "Workflow rules"). */
export const WORKFLOW_EVENTS = ['branch_push', 'pr_opened', 'pr_merged', 'issue_opened', 'issue_closed', 'issue_reopened'] as const;
export type WorkflowEvent = (typeof WORKFLOW_EVENTS)[number];

export const WORKFLOW_INTEGRATION_TYPES = ['hostedgit', 'selfgit'] as const satisfies readonly GitSource[];

/** workflow_rule joined with its column, as selected by the repository. */
export interface WorkflowRuleRow {
  id: string;
  workspace_id: string;
  project_id: string;
  integration_type: GitSource;
  event_type: WorkflowEvent;
  column_id: string;
  column_name: string;
  column_slug: string;
  created_at: Date;
  updated_at: Date;
}

export interface WorkflowRuleRecord {
  id: string;
  projectId: string;
  integrationType: GitSource;
  eventType: WorkflowEvent;
  columnId: string;
  columnName: string;
  columnSlug: string;
  createdAt: string;
  updatedAt: string;
}

export const toWorkflowRuleRecord = (r: WorkflowRuleRow): WorkflowRuleRecord => ({
  id: r.id,
  projectId: r.project_id,
  integrationType: r.integration_type,
  eventType: r.event_type,
  columnId: r.column_id,
  columnName: r.column_name,
  columnSlug: r.column_slug,
  createdAt: iso(r.created_at)!,
  updatedAt: iso(r.updated_at)!,
});

/** The column slug each event of one integration type moves a task to, where the project has a rule. */
export type WorkflowTargets = Partial<Record<WorkflowEvent, string>>;
