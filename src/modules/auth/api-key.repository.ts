import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { isForeignKeyViolation } from '../../database/sql';
import { ApiKey } from './api-key.entity';

/** An API key that is not expired, with its user: what a request authenticated by key needs. */
export interface LiveApiKeyRow {
  id: string;
  permissions: Record<string, string[]> | null;
  expires_at: Date | null;
  user_id: string;
  name: string;
  email: string;
  is_instance_admin: boolean;
}

/** API keys of users, stored by hash only. A key belongs to its user; it has no workspace. */
@Injectable()
export class ApiKeyRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * Inserts a key; null when its parent key (or its user) was deleted meanwhile, so the caller's
   * credential is gone and no orphan can be left behind.
   */
  async insert(
    fields: Pick<ApiKey, 'userId' | 'name' | 'start' | 'keyHash' | 'permissions' | 'expiresAt' | 'parentKeyId'>,
    m: EntityManager = this.ds.manager,
  ): Promise<ApiKey | null> {
    try {
      return await m.getRepository(ApiKey).save(fields);
    } catch (err) {
      if (isForeignKeyViolation(err)) return null;
      throw err;
    }
  }

  listOfUser(userId: string, m: EntityManager = this.ds.manager): Promise<ApiKey[]> {
    return m.find(ApiKey, { where: { userId }, order: { createdAt: 'DESC' } });
  }

  /**
   * Deletes one key of the user and, in the same statement, every key minted from it, transitively
   * (api_key.parent_key_id cascades); false when the user has no such key.
   */
  async deleteOfUser(userId: string, keyId: string, m: EntityManager = this.ds.manager): Promise<boolean> {
    const res = await m.delete(ApiKey, { id: keyId, userId });
    return Boolean(res.affected);
  }

  async deleteAllOfUser(userId: string, m: EntityManager = this.ds.manager): Promise<void> {
    await m.query(`DELETE FROM api_key WHERE user_id = $1`, [userId]);
  }

  /** Whether the user's key `id` still exists and has not expired. */
  async isLive(id: string, userId: string, m: EntityManager = this.ds.manager): Promise<boolean> {
    const rows: unknown[] = await m.query(`SELECT 1 FROM api_key WHERE id = $1 AND user_id = $2 AND (expires_at IS NULL OR expires_at > now())`, [id, userId]);
    return rows.length > 0;
  }

  async findLiveByHash(keyHash: string, m: EntityManager = this.ds.manager): Promise<LiveApiKeyRow | undefined> {
    const rows: LiveApiKeyRow[] = await m.query(
      `SELECT k.id, k.permissions, k.expires_at, u.id AS user_id, u.name, u.email, u.is_instance_admin
         FROM api_key k JOIN "user" u ON u.id = k.user_id
        WHERE k.key_hash = $1 AND (k.expires_at IS NULL OR k.expires_at > now())`,
      [keyHash],
    );
    return rows[0];
  }
}
