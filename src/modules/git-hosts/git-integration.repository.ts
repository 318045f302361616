import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { firstRow, setClause } from '../../database/sql';
import { GIT_INTEGRATION_FIELDS, GitIntegrationRow, GitSource, GitWebhookIntegrationRow } from './git-integration.record';

/** Column values to write. Secret columns take ciphertext. */
export interface GitIntegrationColumns {
  is_active: boolean;
  base_url: string | null;
  access_token: string | null;
  repository_owner: string;
  repository_name: string;
  repository_key: string;
  installation_id: number | null;
  branch_pattern: string;
  comment_task_link: boolean;
}

/** The unique index that lets one active integration link a repository (a violation of it is a 409). */
export const ACTIVE_REPOSITORY_INDEX = 'git_integration_active_repository_key';

/**
 * How long a selfgit webhook secret that a rotation replaced is still accepted
 * (docs/git-hosts.md, "Rotating the webhook secret"), as the integrations' signing secrets are.
 */
export const WEBHOOK_SECRET_OVERLAP = `interval '24 hours'`;

/** How long an import may hold the project's import mark before another import may take it over (a crashed process). */
const IMPORT_MARK_TTL = `interval '30 minutes'`;

/** The git-host integrations of projects: one row per (project, type). */
@Injectable()
export class GitIntegrationRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  findInProject(workspaceId: string, projectId: string, type: GitSource, m: EntityManager = this.ds.manager): Promise<GitIntegrationRow | undefined> {
    return firstRow<GitIntegrationRow>(m, `SELECT ${GIT_INTEGRATION_FIELDS} FROM git_integration WHERE workspace_id = $1 AND project_id = $2 AND type = $3`, [
      workspaceId,
      projectId,
      type,
    ]);
  }

  /** The row, locked until the transaction of `m` ends. */
  lockInProject(workspaceId: string, projectId: string, type: GitSource, m: EntityManager): Promise<GitIntegrationRow | undefined> {
    return firstRow<GitIntegrationRow>(m, `SELECT ${GIT_INTEGRATION_FIELDS} FROM git_integration WHERE workspace_id = $1 AND project_id = $2 AND type = $3 FOR UPDATE`, [
      workspaceId,
      projectId,
      type,
    ]);
  }

  /**
   * An integration by id alone, for its public inbound webhook (the URL names it; the tenant is
   * what it finds). The caller proves it may act on it with the integration's own webhook secret,
   * or with the one a rotation replaced while the overlap lasts (by the database's clock).
   */
  findForWebhook(type: GitSource, id: string): Promise<GitWebhookIntegrationRow | undefined> {
    return firstRow<GitWebhookIntegrationRow>(
      this.ds.manager,
      `SELECT ${GIT_INTEGRATION_FIELDS},
              CASE WHEN webhook_secret_replaced_at > now() - ${WEBHOOK_SECRET_OVERLAP} THEN webhook_previous_secret END AS webhook_previous_secret
         FROM git_integration WHERE id = $1 AND type = $2`,
      [id, type],
    );
  }

  /**
   * Replaces the webhook secret (ciphertext): the current one becomes the previous one, accepted
   * until the overlap has passed; one rotated out earlier is dropped. Answers the row.
   */
  rotateWebhookSecret(workspaceId: string, id: string, secret: string, m: EntityManager): Promise<GitIntegrationRow | undefined> {
    return firstRow<GitIntegrationRow>(
      m,
      `UPDATE git_integration
          SET webhook_previous_secret = webhook_secret, webhook_secret = $3, webhook_secret_replaced_at = now(), updated_at = now()
        WHERE id = $1 AND workspace_id = $2
        RETURNING ${GIT_INTEGRATION_FIELDS}`,
      [id, workspaceId, secret],
    );
  }

  /** The active integration of `type` linking the repository `repositoryKey`, for a webhook that names only the repository. */
  findActiveByRepository(type: GitSource, repositoryKey: string): Promise<GitIntegrationRow | undefined> {
    return firstRow<GitIntegrationRow>(this.ds.manager, `SELECT ${GIT_INTEGRATION_FIELDS} FROM git_integration WHERE type = $1 AND repository_key = $2 AND is_active`, [
      type,
      repositoryKey,
    ]);
  }

  /**
   * Inserts the project's integration of that type with a new webhook secret (ciphertext);
   * undefined when one exists already (a concurrent create). A repository linked by another
   * active integration is a unique violation of ACTIVE_REPOSITORY_INDEX.
   */
  insertIfAbsent(
    workspaceId: string,
    projectId: string,
    type: GitSource,
    values: GitIntegrationColumns & { webhook_secret: string | null },
    m: EntityManager,
  ): Promise<GitIntegrationRow | undefined> {
    const columns = Object.keys(values);
    const params: unknown[] = [workspaceId, projectId, type, ...Object.values(values)];
    return firstRow<GitIntegrationRow>(
      m,
      `INSERT INTO git_integration (workspace_id, project_id, type, ${columns.join(', ')})
       VALUES ($1, $2, $3, ${columns.map((_, i) => `$${i + 4}`).join(', ')})
       ON CONFLICT (project_id, type) DO NOTHING
       RETURNING ${GIT_INTEGRATION_FIELDS}`,
      params,
    );
  }

  /** Writes the given columns (undefined = unchanged) and updated_at. */
  update(workspaceId: string, id: string, values: Partial<GitIntegrationColumns>, m: EntityManager): Promise<GitIntegrationRow | undefined> {
    const set = setClause(values as Record<string, unknown>, 3);
    const assignments = [set.sql, 'updated_at = now()'].filter(Boolean).join(', ');
    return firstRow<GitIntegrationRow>(m, `UPDATE git_integration SET ${assignments} WHERE id = $1 AND workspace_id = $2 RETURNING ${GIT_INTEGRATION_FIELDS}`, [
      id,
      workspaceId,
      ...set.params,
    ]);
  }

  /** True when there was one to delete. */
  async deleteInProject(workspaceId: string, projectId: string, type: GitSource): Promise<boolean> {
    const row = await firstRow<{ id: string }>(this.ds.manager, `DELETE FROM git_integration WHERE workspace_id = $1 AND project_id = $2 AND type = $3 RETURNING id`, [
      workspaceId,
      projectId,
      type,
    ]);
    return row !== undefined;
  }

  /**
   * Marks an import of the integration as running; false when another one holds the mark (an
   * abandoned mark expires after 30 minutes). Auto-committed: the mark is seen at once.
   */
  async claimImport(workspaceId: string, id: string): Promise<boolean> {
    const row = await firstRow(
      this.ds.manager,
      `UPDATE git_integration SET import_started_at = now()
        WHERE id = $1 AND workspace_id = $2 AND (import_started_at IS NULL OR import_started_at < now() - ${IMPORT_MARK_TTL})
        RETURNING id`,
      [id, workspaceId],
    );
    return row !== undefined;
  }

  async releaseImport(workspaceId: string, id: string): Promise<void> {
    await firstRow(this.ds.manager, `UPDATE git_integration SET import_started_at = NULL WHERE id = $1 AND workspace_id = $2 RETURNING id`, [id, workspaceId]);
  }
}
