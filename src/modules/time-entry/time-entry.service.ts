import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuthUser } from '../../common/decorators/current-user.decorator';
import { firstRow, rows } from '../../database/sql';
import { CreateTimeEntryDto, UpdateTimeEntryDto } from './dto/time-entry.dto';
import { durationSeconds } from './time-span';
import { TIME_ENTRY_FIELDS, TimeEntryRecord, TimeEntryRow, toTimeEntryRecord } from './time-entry.record';

const NOT_FOUND = 'Time entry not found';
/** Restricts a statement on time_entry to entries of tasks in workspace $2. */
const IN_WORKSPACE = 'task_id IN (SELECT id FROM task WHERE workspace_id = $2)';

const toDate = (s: string | null | undefined) => (s ? new Date(s) : null);

@Injectable()
export class TimeEntryService {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The caller is the author. */
  async create(workspaceId: string, user: AuthUser, dto: CreateTimeEntryDto): Promise<TimeEntryRecord> {
    const start = new Date(dto.startTime);
    const end = toDate(dto.endTime);
    const duration = durationSeconds(start, end);
    const row = await firstRow<TimeEntryRow>(
      this.ds.manager,
      `INSERT INTO time_entry (task_id, user_id, description, start_time, end_time, duration)
       SELECT id, $3, $4, $5, $6, $7 FROM task WHERE id = $1 AND workspace_id = $2
       RETURNING ${TIME_ENTRY_FIELDS}`,
      [dto.taskId.toLowerCase(), workspaceId, user.id, dto.description ?? null, start, end, duration],
    );
    if (!row) throw new NotFoundException('Task not found');
    return toTimeEntryRecord(row);
  }

  /** The task's entries by start time. */
  async listTask(workspaceId: string, taskId: string): Promise<TimeEntryRecord[]> {
    const found = await rows<TimeEntryRow>(
      this.ds.manager,
      `SELECT ${TIME_ENTRY_FIELDS} FROM time_entry WHERE task_id = $1 AND ${IN_WORKSPACE} ORDER BY start_time, id`,
      [taskId, workspaceId],
    );
    return found.map(toTimeEntryRecord);
  }

  async get(workspaceId: string, id: string): Promise<TimeEntryRecord> {
    return toTimeEntryRecord(await this.find(this.ds.manager, workspaceId, id));
  }

  /** Omitted fields stay; `endTime: null` sets the timer running again; the duration follows the times. */
  async update(workspaceId: string, id: string, dto: UpdateTimeEntryDto): Promise<TimeEntryRecord> {
    return this.ds.transaction(async (m) => {
      const cur = await this.find(m, workspaceId, id, 'FOR NO KEY UPDATE');
      const start = dto.startTime !== undefined ? new Date(dto.startTime) : cur.start_time;
      const end = dto.endTime !== undefined ? toDate(dto.endTime) : cur.end_time;
      const description = dto.description !== undefined ? dto.description : cur.description;
      const row = await firstRow<TimeEntryRow>(
        m,
        `UPDATE time_entry SET start_time = $2, end_time = $3, duration = $4, description = $5, updated_at = now()
          WHERE id = $1 RETURNING ${TIME_ENTRY_FIELDS}`,
        [id, start, end, durationSeconds(start, end), description],
      );
      return toTimeEntryRecord(row!);
    });
  }

  async remove(workspaceId: string, id: string): Promise<TimeEntryRecord> {
    const row = await firstRow<TimeEntryRow>(this.ds.manager, `DELETE FROM time_entry WHERE id = $1 AND ${IN_WORKSPACE} RETURNING ${TIME_ENTRY_FIELDS}`, [
      id,
      workspaceId,
    ]);
    if (!row) throw new NotFoundException(NOT_FOUND);
    return toTimeEntryRecord(row);
  }

  private async find(m: EntityManager, workspaceId: string, id: string, lock = ''): Promise<TimeEntryRow> {
    const row = await firstRow<TimeEntryRow>(m, `SELECT ${TIME_ENTRY_FIELDS} FROM time_entry WHERE id = $1 AND ${IN_WORKSPACE} ${lock}`, [id, workspaceId]);
    if (!row) throw new NotFoundException(NOT_FOUND);
    return row;
  }
}
