import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
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

  insert(fields: Pick<ApiKey, 'userId' | 'name' | 'start' | 'keyHash' | 'permissions' | 'expiresAt'>, m: EntityManager = this.ds.manager): Promise<ApiKey> {
    return m.getRepository(ApiKey).save(fields);
  }

  listOfUser(userId: string, m: EntityManager = this.ds.manager): Promise<ApiKey[]> {
    return m.find(ApiKey, { where: { userId }, order: { createdAt: 'DESC' } });
  }

  /** Deletes one key of the user; false when the user has no such key. */
  async deleteOfUser(userId: string, keyId: string, m: EntityManager = this.ds.manager): Promise<boolean> {
    const res = await m.delete(ApiKey, { id: keyId, userId });
    return Boolean(res.affected);
  }

  async deleteAllOfUser(userId: string, m: EntityManager = this.ds.manager): Promise<void> {
    await m.query(`DELETE FROM api_key WHERE user_id = $1`, [userId]);
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
