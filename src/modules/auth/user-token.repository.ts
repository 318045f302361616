import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { firstRow } from '../../database/sql';
import { UserTokenPurpose } from './user-token.entity';

/** A token taken out of the table: whose it was, for which address, and whether it was still valid. */
export interface SpentToken {
  userId: string;
  email: string;
  live: boolean;
}

/**
 * One-use tokens of the account emails, by SHA-256 only. A user has at most one token per
 * purpose: issuing one replaces the previous. Tokens belong to users, not to a workspace.
 */
@Injectable()
export class UserTokenRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Stores a new token for the user and purpose, dropping the user's earlier one and every expired token. */
  async replace(fields: { userId: string; purpose: UserTokenPurpose; tokenHash: string; email: string; expiresAt: Date }, m: EntityManager = this.ds.manager): Promise<void> {
    await m.query(`DELETE FROM user_token WHERE (user_id = $1 AND purpose = $2) OR expires_at < now()`, [fields.userId, fields.purpose]);
    await m.query(`INSERT INTO user_token (user_id, purpose, token_hash, email, expires_at) VALUES ($1, $2, $3, $4, $5)`, [
      fields.userId,
      fields.purpose,
      fields.tokenHash,
      fields.email,
      fields.expiresAt,
    ]);
  }

  /** Whether a token with this hash and purpose exists and has not expired (reads only). */
  async isLive(purpose: UserTokenPurpose, tokenHash: string, m: EntityManager = this.ds.manager): Promise<boolean> {
    const rows = await m.query(`SELECT 1 FROM user_token WHERE token_hash = $1 AND purpose = $2 AND expires_at > now()`, [tokenHash, purpose]);
    return rows.length > 0;
  }

  /**
   * Takes the token out of the table (expired or not) and says whose it was: of two concurrent
   * uses only one gets it, so a token works once. Undefined when there is no such token.
   */
  async take(purpose: UserTokenPurpose, tokenHash: string, m: EntityManager = this.ds.manager): Promise<SpentToken | undefined> {
    const r = await firstRow<{ user_id: string; email: string; live: boolean }>(
      m,
      `DELETE FROM user_token WHERE token_hash = $1 AND purpose = $2 RETURNING user_id, email, expires_at > now() AS live`,
      [tokenHash, purpose],
    );
    return r ? { userId: r.user_id, email: r.email, live: r.live } : undefined;
  }

  async deleteOfUser(userId: string, purpose: UserTokenPurpose, m: EntityManager = this.ds.manager): Promise<void> {
    await m.query(`DELETE FROM user_token WHERE user_id = $1 AND purpose = $2`, [userId, purpose]);
  }
}
