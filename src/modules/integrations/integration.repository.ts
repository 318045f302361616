import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { firstRow } from '../../database/sql';
import { Events, INTEGRATION_FIELDS, IntegrationRow, IntegrationType } from './integration.record';

/** Column values to write. Secret columns take ciphertext; `secret_replaced_at: 'now'` writes the database's now(). */
export interface IntegrationColumns {
  is_active: boolean;
  events: Events;
  chat_id: string | null;
  thread_id: number | null;
  chat_label: string | null;
  channel_name: string | null;
  bot_token: string | null;
  webhook_url: string | null;
  secret: string | null;
  previous_secret: string | null;
  secret_replaced_at: 'now' | null;
  due_date_reminder_lead_minutes: number;
}

const COLUMNS = [
  'is_active',
  'events',
  'chat_id',
  'thread_id',
  'chat_label',
  'channel_name',
  'bot_token',
  'webhook_url',
  'secret',
  'previous_secret',
  'secret_replaced_at',
  'due_date_reminder_lead_minutes',
] as const satisfies readonly (keyof IntegrationColumns)[];

/** A value as a statement parameter, or the SQL that stands for it (jsonb, now()). */
function valueSql(column: keyof IntegrationColumns, value: unknown, params: unknown[]): string {
  if (column === 'secret_replaced_at' && value === 'now') return 'now()';
  params.push(column === 'events' ? JSON.stringify(value) : value);
  return column === 'events' ? `$${params.length}::jsonb` : `$${params.length}`;
}

/** The notifying integrations of projects: one row per (project, type). */
@Injectable()
export class IntegrationRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  findInProject(workspaceId: string, projectId: string, type: IntegrationType, m: EntityManager = this.ds.manager): Promise<IntegrationRow | undefined> {
    return firstRow<IntegrationRow>(m, `SELECT ${INTEGRATION_FIELDS} FROM integration WHERE workspace_id = $1 AND project_id = $2 AND type = $3`, [workspaceId, projectId, type]);
  }

  /** The row, locked until the transaction of `m` ends (writes of the same integration queue behind it). */
  lockInProject(workspaceId: string, projectId: string, type: IntegrationType, m: EntityManager): Promise<IntegrationRow | undefined> {
    return firstRow<IntegrationRow>(m, `SELECT ${INTEGRATION_FIELDS} FROM integration WHERE workspace_id = $1 AND project_id = $2 AND type = $3 FOR UPDATE`, [
      workspaceId,
      projectId,
      type,
    ]);
  }

  /** Inserts the project's integration of that type; undefined when one exists already (a concurrent create). */
  insertIfAbsent(workspaceId: string, projectId: string, type: IntegrationType, values: IntegrationColumns, m: EntityManager): Promise<IntegrationRow | undefined> {
    const params: unknown[] = [workspaceId, projectId, type];
    const exprs = COLUMNS.map((c) => valueSql(c, values[c], params));
    return firstRow<IntegrationRow>(
      m,
      `INSERT INTO integration (workspace_id, project_id, type, ${COLUMNS.join(', ')})
       VALUES ($1, $2, $3, ${exprs.join(', ')})
       ON CONFLICT (project_id, type) DO NOTHING
       RETURNING ${INTEGRATION_FIELDS}`,
      params,
    );
  }

  /** Writes the given columns (undefined = unchanged) and updated_at. */
  update(workspaceId: string, id: string, values: Partial<IntegrationColumns>, m: EntityManager): Promise<IntegrationRow | undefined> {
    const params: unknown[] = [id, workspaceId];
    const set = COLUMNS.filter((c) => values[c] !== undefined).map((c) => `${c} = ${valueSql(c, values[c], params)}`);
    return firstRow<IntegrationRow>(
      m,
      `UPDATE integration SET ${[...set, 'updated_at = now()'].join(', ')} WHERE id = $1 AND workspace_id = $2 RETURNING ${INTEGRATION_FIELDS}`,
      params,
    );
  }

  /** True when there was one to delete. */
  async deleteInProject(workspaceId: string, projectId: string, type: IntegrationType): Promise<boolean> {
    const row = await firstRow<{ id: string }>(this.ds.manager, `DELETE FROM integration WHERE workspace_id = $1 AND project_id = $2 AND type = $3 RETURNING id`, [
      workspaceId,
      projectId,
      type,
    ]);
    return row !== undefined;
  }
}
