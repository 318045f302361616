import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { rows } from '../../database/sql';

export interface DueRemoval {
  storage_key: string;
  attempts: number;
}

/** Uploads never finalized are abandoned after this long (docs/files.md, "Removal"). */
export const ABANDONED_AFTER_HOURS = 24;

/** The objects still to be removed from the file store, and the uploads left unfinished. */
@Injectable()
export class StoredFileRemovalRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Deletes pending uploads older than ABANDONED_AFTER_HOURS (the trigger queues their objects); how many went. */
  async sweepAbandoned(): Promise<number> {
    return (
      await rows(
        this.ds.manager,
        `DELETE FROM asset WHERE id IN (
           SELECT id FROM asset WHERE status = 'pending' AND created_at < now() - make_interval(hours => $1) ORDER BY created_at LIMIT 500
         ) RETURNING id`,
        [ABANDONED_AFTER_HOURS],
      )
    ).length;
  }

  /**
   * Takes up to `limit` due removals for `leaseSeconds`: each is pushed back by that much as it is
   * taken, so a worker that dies mid-way leaves it to another later, and two workers never take
   * the same one at once.
   */
  claimDue(limit: number, leaseSeconds: number): Promise<DueRemoval[]> {
    return rows<DueRemoval>(
      this.ds.manager,
      `UPDATE stored_file_removal r SET next_attempt_at = now() + make_interval(secs => $2), attempts = r.attempts + 1
         FROM (SELECT storage_key FROM stored_file_removal WHERE next_attempt_at <= now() ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED) due
        WHERE r.storage_key = due.storage_key
        RETURNING r.storage_key, r.attempts`,
      [limit, leaseSeconds],
    );
  }

  /** Removed from the store: done, unless the key was queued again meanwhile (it cannot be: keys are never reused). */
  async done(keys: string[]): Promise<void> {
    if (keys.length) await rows(this.ds.manager, `DELETE FROM stored_file_removal WHERE storage_key = ANY($1::text[])`, [keys]);
  }

  /** A failed removal is tried again after `retryInSeconds`, with the error kept for operators. */
  async failed(key: string, error: string, retryInSeconds: number): Promise<void> {
    await rows(this.ds.manager, `UPDATE stored_file_removal SET last_error = $2, next_attempt_at = now() + make_interval(secs => $3) WHERE storage_key = $1`, [
      key,
      error.slice(0, 500),
      retryInSeconds,
    ]);
  }
}
