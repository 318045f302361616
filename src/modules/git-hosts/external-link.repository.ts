import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { firstRow, rows } from '../../database/sql';
import { GitSource } from './git-integration.record';

export type ExternalResourceType = 'issue' | 'branch' | 'pull_request';

/** external_link as selected by LINK_FIELDS. */
export interface ExternalLinkRow {
  id: string;
  workspace_id: string;
  project_id: string;
  task_id: string;
  integration_id: string | null;
  source: GitSource;
  repository_key: string;
  resource_type: ExternalResourceType;
  external_id: string;
  url: string | null;
  title: string | null;
  metadata: Record<string, unknown>;
  link_comment_claimed_at: Date | null;
  link_comment_id: string | null;
}

const LINK_FIELDS =
  'id, workspace_id, project_id, task_id, integration_id, source, repository_key, resource_type, external_id, url, title, metadata, link_comment_claimed_at, link_comment_id';

/** Where a link belongs: the project whose integration made it, the source and the repository. */
export interface LinkScope {
  workspaceId: string;
  projectId: string;
  source: GitSource;
  repositoryKey: string;
}

/**
 * Links between tasks and a git host's issues, branches and pull requests, and the issue comments
 * copied as task comments. Identity is (project, source, repository, resource type, external id):
 * a link is found again by re-imports and replayed webhooks, so nothing is created twice.
 */
@Injectable()
export class ExternalLinkRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  find(s: LinkScope, type: ExternalResourceType, externalId: string, m: EntityManager = this.ds.manager): Promise<ExternalLinkRow | undefined> {
    return firstRow<ExternalLinkRow>(
      m,
      `SELECT ${LINK_FIELDS} FROM external_link
        WHERE workspace_id = $1 AND project_id = $2 AND source = $3 AND repository_key = $4 AND resource_type = $5 AND external_id = $6`,
      [s.workspaceId, s.projectId, s.source, s.repositoryKey, type, externalId],
    );
  }

  /**
   * Inserts the link; undefined when the same link exists already (made concurrently: a unique
   * insert waits for the other transaction and then finds its row).
   */
  insertIfAbsent(
    s: LinkScope,
    link: { taskId: string; integrationId: string; type: ExternalResourceType; externalId: string; url: string | null; title: string | null; metadata: Record<string, unknown> },
    m: EntityManager,
  ): Promise<ExternalLinkRow | undefined> {
    return firstRow<ExternalLinkRow>(
      m,
      `INSERT INTO external_link (workspace_id, project_id, source, repository_key, task_id, integration_id, resource_type, external_id, url, title, metadata)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::jsonb)
       ON CONFLICT (project_id, source, repository_key, resource_type, external_id) DO NOTHING
       RETURNING ${LINK_FIELDS}`,
      [s.workspaceId, s.projectId, s.source, s.repositoryKey, link.taskId, link.integrationId, link.type, link.externalId, link.url, link.title, JSON.stringify(link.metadata)],
    );
  }

  /** The task's links, oldest first, as GET /external-link/task/:taskId lists them. */
  listOfTask(workspaceId: string, taskId: string): Promise<(ExternalLinkRow & { created_at: Date; updated_at: Date })[]> {
    return rows(
      this.ds.manager,
      `SELECT ${LINK_FIELDS}, created_at, updated_at FROM external_link
        WHERE workspace_id = $1 AND task_id = $2
        ORDER BY created_at, id`,
      [workspaceId, taskId],
    );
  }

  /** Refreshes what the link shows (title, URL, metadata merged into the stored one). */
  async refresh(workspaceId: string, id: string, fields: { url: string | null; title: string | null; metadata: Record<string, unknown> }, m: EntityManager): Promise<void> {
    await rows(
      m,
      `UPDATE external_link SET url = $3, title = $4, metadata = metadata || $5::jsonb, updated_at = now()
        WHERE id = $1 AND workspace_id = $2
          AND (url IS DISTINCT FROM $3 OR title IS DISTINCT FROM $4 OR NOT metadata @> $5::jsonb)`,
      [id, workspaceId, fields.url, fields.title, JSON.stringify(fields.metadata)],
    );
  }

  /** How many pull requests linked to the task, other than `exceptExternalId`, are open. */
  async openPullRequestsOfTask(s: LinkScope, taskId: string, exceptExternalId: string, m: EntityManager): Promise<number> {
    const row = await firstRow<{ n: number }>(
      m,
      `SELECT count(*)::int AS n FROM external_link
        WHERE workspace_id = $1 AND project_id = $2 AND source = $3 AND repository_key = $4 AND task_id = $5
          AND resource_type = 'pull_request' AND external_id <> $6 AND metadata->>'state' = 'open'`,
      [s.workspaceId, s.projectId, s.source, s.repositoryKey, taskId, exceptExternalId],
    );
    return row?.n ?? 0;
  }

  /**
   * Claims the link's one task-link comment: true for the one caller that may post it (auto-
   * committed, so a concurrent caller sees the claim at once). Never released once posted.
   */
  async claimLinkComment(workspaceId: string, id: string): Promise<boolean> {
    const row = await firstRow(
      this.ds.manager,
      `UPDATE external_link SET link_comment_claimed_at = now() WHERE id = $1 AND workspace_id = $2 AND link_comment_claimed_at IS NULL RETURNING id`,
      [id, workspaceId],
    );
    return row !== undefined;
  }

  /** Records the posted comment's id (so its echo through the webhook is recognised). */
  async setLinkComment(workspaceId: string, id: string, commentId: string): Promise<void> {
    await rows(this.ds.manager, `UPDATE external_link SET link_comment_id = $3 WHERE id = $1 AND workspace_id = $2`, [id, workspaceId, commentId]);
  }

  /** Gives the claim back after a failed post, so a later import or event tries again. */
  async releaseLinkComment(workspaceId: string, id: string): Promise<void> {
    await rows(this.ds.manager, `UPDATE external_link SET link_comment_claimed_at = NULL WHERE id = $1 AND workspace_id = $2 AND link_comment_id IS NULL`, [id, workspaceId]);
  }

  /** Which of `externalIds` (issue comment ids) were copied already. */
  async copiedComments(s: LinkScope, externalIds: string[], m: EntityManager): Promise<Set<string>> {
    if (!externalIds.length) return new Set();
    const found = await rows<{ external_id: string }>(
      m,
      `SELECT external_id FROM external_comment
        WHERE workspace_id = $1 AND project_id = $2 AND source = $3 AND repository_key = $4 AND external_id = ANY($5::text[])`,
      [s.workspaceId, s.projectId, s.source, s.repositoryKey, externalIds],
    );
    return new Set(found.map((r) => r.external_id));
  }

  /** Records that issue comment `externalId` became activity `activityId`; false when it was recorded already (concurrently). */
  async recordCopiedComment(s: LinkScope, externalId: string, activityId: string, m: EntityManager): Promise<boolean> {
    const row = await firstRow(
      m,
      `INSERT INTO external_comment (workspace_id, project_id, source, repository_key, external_id, activity_id)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (project_id, source, repository_key, external_id) DO NOTHING
       RETURNING id`,
      [s.workspaceId, s.projectId, s.source, s.repositoryKey, externalId, activityId],
    );
    return row !== undefined;
  }
}
