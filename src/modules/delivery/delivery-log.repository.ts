import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { firstRow, rows } from '../../database/sql';
import { DELIVERY_FIELDS, DeliveryRow } from './delivery.record';
import { IntegrationChannel as IntegrationType } from './channels';

/**
 * The API side of the delivery log: reading a project's deliveries to one integration type and
 * marking one for redelivery. The delivery workers write the rows (their own repository).
 */
@Injectable()
export class DeliveryLogRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The delivery, if it is one of this project's to this integration type. */
  findForTarget(workspaceId: string, projectId: string, type: IntegrationType, id: string): Promise<DeliveryRow | undefined> {
    return firstRow<DeliveryRow>(this.ds.manager, `SELECT ${DELIVERY_FIELDS} FROM delivery WHERE id = $4 AND workspace_id = $1 AND project_id = $2 AND target_type = $3`, [
      workspaceId,
      projectId,
      type,
      id,
    ]);
  }

  /**
   * Newest first (created_at, then id, both descending); with `beforeId`, only those after that
   * delivery in this order. The cursor is compared in SQL, at the column's full precision.
   */
  listForTarget(workspaceId: string, projectId: string, type: IntegrationType, limit: number, beforeId?: string): Promise<DeliveryRow[]> {
    const params: unknown[] = [workspaceId, projectId, type, limit];
    let after = '';
    if (beforeId !== undefined) {
      params.push(beforeId);
      after = `AND (created_at, id) < (SELECT created_at, id FROM delivery WHERE id = $5)`;
    }
    return rows<DeliveryRow>(
      this.ds.manager,
      `SELECT ${DELIVERY_FIELDS} FROM delivery
        WHERE workspace_id = $1 AND project_id = $2 AND target_type = $3 ${after}
        ORDER BY created_at DESC, id DESC
        LIMIT $4`,
      params,
    );
  }

  /** Sets the delivery back to pending (delivered_at cleared); undefined when it is not this project's to this type. */
  markPending(workspaceId: string, projectId: string, type: IntegrationType, id: string, m: EntityManager): Promise<DeliveryRow | undefined> {
    return firstRow<DeliveryRow>(
      m,
      `UPDATE delivery SET status = 'pending', delivered_at = NULL
        WHERE id = $4 AND workspace_id = $1 AND project_id = $2 AND target_type = $3
        RETURNING ${DELIVERY_FIELDS}`,
      [workspaceId, projectId, type, id],
    );
  }
}
