import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { firstRow, rows } from '../../database/sql';

/** How long a requested email's row is kept: longer than its job can live in the queue (failed jobs stay 7 days, src/queue/queues.ts). */
export const EMAIL_JOB_RETENTION_DAYS = 8;

export interface EmailJobRow {
  id: string;
  kind: string;
  reference: Record<string, unknown>;
}

/** The requested emails (table `email_job`). They belong to no workspace: each names what it is about. */
@Injectable()
export class EmailJobRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Writes the row in `m`'s transaction; answers its random id. */
  async insert(kind: string, reference: Record<string, unknown>, m: EntityManager = this.ds.manager): Promise<string> {
    const row = await firstRow<{ id: string }>(m, `INSERT INTO email_job (kind, reference) VALUES ($1, $2) RETURNING id`, [kind, JSON.stringify(reference)]);
    return row!.id;
  }

  find(id: string, m: EntityManager = this.ds.manager): Promise<EmailJobRow | undefined> {
    return firstRow<EmailJobRow>(m, `SELECT id, kind, reference FROM email_job WHERE id = $1`, [id]);
  }

  /** Deletes the rows older than the retention; answers how many. */
  async pruneExpired(m: EntityManager = this.ds.manager): Promise<number> {
    const [row] = await rows<{ n: number }>(
      m,
      `WITH gone AS (DELETE FROM email_job WHERE created_at < now() - make_interval(days => $1) RETURNING 1) SELECT count(*)::int AS n FROM gone`,
      [EMAIL_JOB_RETENTION_DAYS],
    );
    return row.n;
  }
}
