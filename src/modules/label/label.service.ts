import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { firstRow, isUniqueViolation, rows, setClause } from '../../database/sql';
import { TaskService } from '../task/task.service';
import { CreateLabelDto, UpdateLabelDto } from './dto/label.dto';
import { LABEL_FIELDS, LabelRecord, LabelRow, toLabelRecord } from './label.record';

const NOT_FOUND = 'Label not found';
const TASK_NOT_FOUND = 'Task not found';

/**
 * Labels (decisions §4): the workspace catalogue holds one label per name (case-insensitive);
 * attaching puts a copy on the task that remembers its catalogue label, so renaming or recoloring
 * the catalogue label can update every copy in the same transaction.
 */
@Injectable()
export class LabelService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly tasks: TaskService,
  ) {}

  /** Idempotent per name: an existing catalogue label of that name is answered as it is. With taskId, answers the task's copy. */
  async create(workspaceId: string, dto: CreateLabelDto): Promise<LabelRecord> {
    return this.ds.transaction(async (m) => {
      const taskId = dto.taskId?.toLowerCase();
      if (taskId !== undefined && !(await this.tasks.existsInWorkspace(workspaceId, taskId, m))) throw new NotFoundException(TASK_NOT_FOUND);
      const inserted = await firstRow<LabelRow>(
        m,
        `INSERT INTO label (workspace_id, name, color) VALUES ($1, $2, $3)
         ON CONFLICT (workspace_id, lower(name)) WHERE task_id IS NULL DO NOTHING
         RETURNING ${LABEL_FIELDS}`,
        [workspaceId, dto.name, dto.color],
      );
      const catalogue =
        inserted ??
        (await firstRow<LabelRow>(m, `SELECT ${LABEL_FIELDS} FROM label WHERE workspace_id = $1 AND task_id IS NULL AND lower(name) = lower($2)`, [
          workspaceId,
          dto.name,
        ]))!;
      return toLabelRecord(taskId === undefined ? catalogue : await this.copyOnto(m, catalogue, taskId));
    });
  }

  async listWorkspace(workspaceId: string): Promise<LabelRecord[]> {
    const found = await rows<LabelRow>(this.ds.manager, `SELECT ${LABEL_FIELDS} FROM label WHERE workspace_id = $1 AND task_id IS NULL ORDER BY lower(name), id`, [
      workspaceId,
    ]);
    return found.map(toLabelRecord);
  }

  async listTask(workspaceId: string, taskId: string): Promise<LabelRecord[]> {
    const found = await rows<LabelRow>(this.ds.manager, `SELECT ${LABEL_FIELDS} FROM label WHERE workspace_id = $1 AND task_id = $2 ORDER BY lower(name), id`, [
      workspaceId,
      taskId,
    ]);
    return found.map(toLabelRecord);
  }

  async get(workspaceId: string, id: string): Promise<LabelRecord> {
    return toLabelRecord(await this.find(this.ds.manager, workspaceId, id));
  }

  /** Renaming or recoloring a catalogue label updates its task copies in the same transaction. */
  async update(workspaceId: string, id: string, dto: UpdateLabelDto): Promise<LabelRecord> {
    const set = setClause({ name: dto.name, color: dto.color }, 3);
    if (!set.params.length) return this.get(workspaceId, id);
    try {
      return await this.ds.transaction(async (m) => {
        const row = await firstRow<LabelRow>(
          m,
          `UPDATE label SET ${set.sql}, updated_at = now() WHERE id = $1 AND workspace_id = $2 RETURNING ${LABEL_FIELDS}`,
          [id, workspaceId, ...set.params],
        );
        if (!row) throw new NotFoundException(NOT_FOUND);
        if (row.task_id === null) {
          await rows(m, `UPDATE label SET name = $2, color = $3, updated_at = now() WHERE catalog_label_id = $1`, [row.id, row.name, row.color]);
        }
        return toLabelRecord(row);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictException(`A label named "${dto.name}" already exists`);
      throw err;
    }
  }

  /** Deleting a catalogue label removes its copies from every task (foreign key cascade). */
  async remove(workspaceId: string, id: string): Promise<LabelRecord> {
    const row = await firstRow<LabelRow>(this.ds.manager, `DELETE FROM label WHERE id = $1 AND workspace_id = $2 RETURNING ${LABEL_FIELDS}`, [id, workspaceId]);
    if (!row) throw new NotFoundException(NOT_FOUND);
    return toLabelRecord(row);
  }

  /** Puts the label on the task (idempotent); answers the task's copy. */
  async attach(workspaceId: string, id: string, taskId: string): Promise<LabelRecord> {
    return this.ds.transaction(async (m) => {
      const label = await this.find(m, workspaceId, id);
      if (!(await this.tasks.existsInWorkspace(workspaceId, taskId, m))) throw new NotFoundException(TASK_NOT_FOUND);
      return toLabelRecord(await this.copyOnto(m, label, taskId.toLowerCase()));
    });
  }

  /** Takes the label (given as the catalogue label or as the task's copy) off the task; answers the removed copy. */
  async detach(workspaceId: string, id: string, taskId: string): Promise<LabelRecord> {
    if (!(await this.tasks.existsInWorkspace(workspaceId, taskId))) throw new NotFoundException(TASK_NOT_FOUND);
    const row = await firstRow<LabelRow>(
      this.ds.manager,
      `DELETE FROM label WHERE workspace_id = $1 AND task_id = $2 AND (id = $3 OR catalog_label_id = $3) RETURNING ${LABEL_FIELDS}`,
      [workspaceId, taskId.toLowerCase(), id],
    );
    if (!row) throw new NotFoundException('Label is not attached to this task');
    return toLabelRecord(row);
  }

  private async find(m: EntityManager, workspaceId: string, id: string): Promise<LabelRow> {
    const row = await firstRow<LabelRow>(m, `SELECT ${LABEL_FIELDS} FROM label WHERE id = $1 AND workspace_id = $2`, [id, workspaceId]);
    if (!row) throw new NotFoundException(NOT_FOUND);
    return row;
  }

  /** The task's copy of a label: made from the catalogue label behind `label`, or the one the task already has by that name. */
  private async copyOnto(m: EntityManager, label: LabelRow, taskId: string): Promise<LabelRow> {
    if (label.task_id === taskId) return label;
    const catalogId = label.task_id === null ? label.id : label.catalog_label_id;
    const inserted = await firstRow<LabelRow>(
      m,
      `INSERT INTO label (workspace_id, task_id, catalog_label_id, name, color) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (task_id, lower(name)) WHERE task_id IS NOT NULL DO NOTHING
       RETURNING ${LABEL_FIELDS}`,
      [label.workspace_id, taskId, catalogId, label.name, label.color],
    );
    return (
      inserted ??
      (await firstRow<LabelRow>(m, `SELECT ${LABEL_FIELDS} FROM label WHERE task_id = $1 AND lower(name) = lower($2)`, [taskId, label.name]))!
    );
  }
}
