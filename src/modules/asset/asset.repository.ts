import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { firstRow, rows } from '../../database/sql';
import { ASSET_FIELDS, AssetRow, AssetSurface } from './asset.record';

/** The permission guard's way from an asset id to its workspace (ScopeRegistry kind `asset`): only finished uploads exist. */
export const ASSET_SCOPE_SQL = `SELECT workspace_id FROM asset WHERE id = $1 AND status = 'ready'`;

/** The fields of an asset row with its uploader's name, from `source` (the table, or a CTE of changed rows) as `a`, plus `extra` columns. */
const withUploader = (source = 'asset', extra = '') => `${ASSET_FIELDS}, u.name AS uploader_name${extra} FROM ${source} a LEFT JOIN "user" u ON u.id = a.uploaded_by`;
const WITH_UPLOADER = withUploader();

/** A pending upload ($1) whose one-use URL's token ($2) is unused and younger than $3 seconds. */
const UNCLAIMED_UPLOAD = `a.id = $1 AND a.upload_token_hash = $2 AND a.status = 'pending' AND a.upload_started_at IS NULL
          AND a.created_at > now() - make_interval(secs => $3)`;

/** An asset as a reader asks for it: with whether its project is public and whether the reader is a member. */
export interface ReadableAssetRow extends AssetRow {
  is_public: boolean;
  is_member: boolean;
}

export interface NewAsset {
  id: string;
  taskId: string;
  surface: AssetSurface;
  storageKey: string;
  filename: string;
  contentType: string;
  size: number;
  uploadedBy: string;
  uploadTokenHash: Buffer | null;
}

/** Files of tasks (docs/files.md). They go with their task, comment or workspace (foreign keys cascade; the trigger queues their objects' removal). */
@Injectable()
export class AssetRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * Records a pending upload when the workspace's files, finished and pending, leave room for it
   * under `quota`; null when they do not. One workspace's reservations are taken one at a time
   * (a transaction-scoped advisory lock), so two uploads cannot both take the last room.
   */
  reserve(workspaceId: string, a: NewAsset, quota: number): Promise<AssetRow | null> {
    return this.ds.transaction(async (m) => {
      await rows(m, `SELECT pg_advisory_xact_lock(hashtextextended('asset-quota:' || $1::text, 0))`, [workspaceId]);
      const [{ used }] = await rows<{ used: string }>(m, `SELECT COALESCE(sum(size), 0) AS used FROM asset WHERE workspace_id = $1`, [workspaceId]);
      if (Number(used) + a.size > quota) return null;
      return (
        (await firstRow<AssetRow>(
          m,
          `INSERT INTO asset AS a (id, workspace_id, task_id, surface, storage_key, filename, content_type, size, uploaded_by, upload_token_hash)
         SELECT $1, t.workspace_id, t.id, $4, $5, $6, $7, $8, $9, $10 FROM task t WHERE t.id = $3 AND t.workspace_id = $2
         RETURNING ${ASSET_FIELDS}, NULL::text AS uploader_name`,
          [a.id, workspaceId, a.taskId, a.surface, a.storageKey, a.filename, a.contentType, a.size, a.uploadedBy, a.uploadTokenHash],
        )) ?? null
      );
    });
  }

  /** The caller's own upload of this task by its key, pending or finished. */
  findUpload(workspaceId: string, taskId: string, storageKey: string, userId: string): Promise<AssetRow | undefined> {
    return firstRow<AssetRow>(this.ds.manager, `SELECT ${WITH_UPLOADER} WHERE a.storage_key = $3 AND a.workspace_id = $1 AND a.task_id = $2 AND a.uploaded_by = $4`, [
      workspaceId,
      taskId,
      storageKey,
      userId,
    ]);
  }

  /** A pending upload whose one-use URL (token) is still valid and unused; nothing is changed. */
  findUnclaimed(id: string, tokenHash: Buffer, ttlSeconds: number): Promise<AssetRow | undefined> {
    return firstRow<AssetRow>(this.ds.manager, `SELECT ${ASSET_FIELDS}, NULL::text AS uploader_name FROM asset a WHERE ${UNCLAIMED_UPLOAD}`, [id, tokenHash, ttlSeconds]);
  }

  /**
   * Claims a pending upload for the service's own upload URL, once: the token must match and be
   * younger than `ttlSeconds`; a second use finds nothing.
   */
  claimUpload(id: string, tokenHash: Buffer, ttlSeconds: number): Promise<AssetRow | undefined> {
    return firstRow<AssetRow>(
      this.ds.manager,
      `UPDATE asset a SET upload_started_at = now()
        WHERE ${UNCLAIMED_UPLOAD}
        RETURNING ${ASSET_FIELDS}, NULL::text AS uploader_name`,
      [id, tokenHash, ttlSeconds],
    );
  }

  /** A finished upload: what its bytes turned out to be. */
  markReady(id: string, contentType: string, isImage: boolean): Promise<AssetRow | undefined> {
    return firstRow<AssetRow>(
      this.ds.manager,
      `WITH done AS (
         UPDATE asset SET status = 'ready', content_type = $2, is_image = $3, upload_token_hash = NULL
          WHERE id = $1 AND status = 'pending' RETURNING *
       )
       SELECT ${withUploader('done')}`,
      [id, contentType, isImage],
    );
  }

  /** Removes a record (its object is queued for removal by the trigger). */
  async deleteById(id: string): Promise<void> {
    await rows(this.ds.manager, `DELETE FROM asset WHERE id = $1`, [id]);
  }

  /**
   * A finished asset for a reader (`userId` null: signed out), with its project's `is_public`
   * and whether the reader is a member of its workspace.
   */
  findForReader(id: string, userId: string | null): Promise<ReadableAssetRow | undefined> {
    return firstRow<ReadableAssetRow>(
      this.ds.manager,
      `SELECT ${withUploader('asset', ', p.is_public, EXISTS (SELECT 1 FROM member m WHERE m.organization_id = a.workspace_id AND m.user_id = $2) AS is_member')}
         JOIN task t ON t.id = a.task_id JOIN project p ON p.id = t.project_id
        WHERE a.id = $1 AND a.status = 'ready'`,
      [id, userId],
    );
  }

  /** A task's finished files, newest first. */
  listOfTask(workspaceId: string, taskId: string): Promise<AssetRow[]> {
    return rows<AssetRow>(this.ds.manager, `SELECT ${WITH_UPLOADER} WHERE a.workspace_id = $1 AND a.task_id = $2 AND a.status = 'ready' ORDER BY a.created_at DESC, a.id DESC`, [
      workspaceId,
      taskId,
    ]);
  }

  /** The finished files of several tasks (an export), newest first per task. */
  listOfTasks(workspaceId: string, taskIds: string[]): Promise<AssetRow[]> {
    return rows<AssetRow>(
      this.ds.manager,
      `SELECT ${WITH_UPLOADER} WHERE a.workspace_id = $1 AND a.task_id = ANY($2::uuid[]) AND a.status = 'ready' ORDER BY a.task_id, a.created_at DESC, a.id DESC`,
      [workspaceId, taskIds],
    );
  }

  findInWorkspace(workspaceId: string, id: string): Promise<AssetRow | undefined> {
    return firstRow<AssetRow>(this.ds.manager, `SELECT ${WITH_UPLOADER} WHERE a.id = $2 AND a.workspace_id = $1 AND a.status = 'ready'`, [workspaceId, id]);
  }

  deleteInWorkspace(workspaceId: string, id: string): Promise<AssetRow | undefined> {
    return firstRow<AssetRow>(
      this.ds.manager,
      `WITH gone AS (DELETE FROM asset WHERE id = $2 AND workspace_id = $1 AND status = 'ready' RETURNING *)
       SELECT ${withUploader('gone')}`,
      [workspaceId, id],
    );
  }

  /**
   * Ties the comment images a comment's text shows to that comment, so that they go with it:
   * the task's unclaimed `comment` images among `ids`.
   */
  async claimForComment(workspaceId: string, taskId: string, commentId: string, ids: string[]): Promise<void> {
    if (!ids.length) return;
    await rows(
      this.ds.manager,
      `UPDATE asset SET comment_id = $3
        WHERE workspace_id = $1 AND task_id = $2 AND id = ANY($4::uuid[]) AND surface = 'comment' AND comment_id IS NULL AND status = 'ready'`,
      [workspaceId, taskId, commentId, ids],
    );
  }
}
