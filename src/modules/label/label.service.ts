import { BadRequestException, ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { isUuid } from '../../common/pipes/id.pipe';
import { isForeignKeyViolation, isUniqueViolation } from '../../database/sql';
import { TaskService } from '../task/task.service';
import { CreateLabelDto, UpdateLabelDto } from './dto/label.dto';
import { LabelRecord, LabelRow, toLabelRecord } from './label.record';
import { LabelRepository } from './label.repository';

const NOT_FOUND = 'Label not found';
const TASK_NOT_FOUND = 'Task not found';
/** Labels a workspace's catalogue may hold (docs/decisions-local.md, "Limits"). */
export const LABELS_PER_WORKSPACE = 1000;
export const LABEL_CATALOGUE_FULL = `A workspace has at most ${LABELS_PER_WORKSPACE} labels: delete one first`;

/**
 * Labels (docs/decisions-local.md, "Work items"): the workspace catalogue holds one label per name
 * (case-insensitive); attaching puts a copy on the task that remembers its catalogue label, so
 * renaming or recoloring the catalogue label updates every copy in the same transaction.
 */
@Injectable()
export class LabelService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly labels: LabelRepository,
    private readonly tasks: TaskService,
  ) {}

  /** Idempotent per name: an existing catalogue label of that name is answered as it is. With taskId, answers the task's copy. */
  async create(workspaceId: string, dto: CreateLabelDto, actorId: string | null = null): Promise<LabelRecord> {
    return this.ds.transaction(async (m) => {
      const taskId = dto.taskId?.toLowerCase();
      if (taskId !== undefined && !(await this.tasks.existsInWorkspace(workspaceId, taskId, m))) throw new NotFoundException(TASK_NOT_FOUND);
      const catalogue = await this.inCatalogue(workspaceId, dto.name, dto.color, m);
      return toLabelRecord(taskId === undefined ? catalogue : await this.copyOnto(m, catalogue, taskId, actorId));
    });
  }

  async listWorkspace(workspaceId: string): Promise<LabelRecord[]> {
    return (await this.labels.listCatalogue(workspaceId)).map(toLabelRecord);
  }

  /** The tasks carrying the label (a catalogue label or a task's copy: the copies share its name). */
  async tasksCarrying(workspaceId: string, id: string): Promise<{ taskIds: string[] }> {
    const label = await this.find(this.ds.manager, workspaceId, id);
    return { taskIds: await this.labels.tasksCarrying(workspaceId, label.name) };
  }

  async listTask(workspaceId: string, taskId: string): Promise<LabelRecord[]> {
    return (await this.labels.listOnTask(workspaceId, taskId)).map(toLabelRecord);
  }

  async get(workspaceId: string, id: string): Promise<LabelRecord> {
    return toLabelRecord(await this.find(this.ds.manager, workspaceId, id));
  }

  /** Renaming or recoloring a catalogue label updates its task copies in the same statement. */
  async update(workspaceId: string, id: string, dto: UpdateLabelDto): Promise<LabelRecord> {
    if (dto.name === undefined && dto.color === undefined) return this.get(workspaceId, id);
    try {
      const row = await this.labels.update(workspaceId, id, { name: dto.name, color: dto.color });
      if (!row) throw new NotFoundException(NOT_FOUND);
      return toLabelRecord(row);
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictException(`A label named "${dto.name}" already exists`);
      throw err;
    }
  }

  /** Deleting a catalogue label removes its copies from every task (foreign key cascade). */
  async remove(workspaceId: string, id: string): Promise<LabelRecord> {
    const row = await this.labels.delete(workspaceId, id);
    if (!row) throw new NotFoundException(NOT_FOUND);
    return toLabelRecord(row);
  }

  /** Puts the label on the task (idempotent: only a new copy writes `label_added`); answers the task's copy. */
  async attach(workspaceId: string, id: string, taskId: string, actorId: string | null = null): Promise<LabelRecord> {
    return this.ds.transaction(async (m) => {
      const label = await this.find(m, workspaceId, id);
      if (!(await this.tasks.existsInWorkspace(workspaceId, taskId, m))) throw new NotFoundException(TASK_NOT_FOUND);
      return toLabelRecord(await this.copyOnto(m, label, taskId.toLowerCase(), actorId));
    });
  }

  /**
   * Takes the label (given as the catalogue label or as the task's copy) off the task; answers the
   * removed copy. Without `taskId` the label must be a task's copy, which is taken off its task.
   */
  async detach(workspaceId: string, id: string, taskId?: string, actorId: string | null = null): Promise<LabelRecord> {
    if (taskId === undefined) {
      const label = await this.find(this.ds.manager, workspaceId, id);
      if (label.task_id === null) throw new BadRequestException('taskId is required to detach a workspace label');
      taskId = label.task_id;
    }
    if (!(await this.tasks.existsInWorkspace(workspaceId, taskId))) throw new NotFoundException(TASK_NOT_FOUND);
    const row = await this.labels.deleteFromTask(workspaceId, taskId.toLowerCase(), id, actorId);
    if (!row) throw new NotFoundException('Label is not attached to this task');
    return toLabelRecord(row);
  }

  /** The labels on each of the tasks (by name), for exports: task id → its labels. */
  async onTasks(workspaceId: string, taskIds: string[]): Promise<Map<string, LabelRecord[]>> {
    const out = new Map<string, LabelRecord[]>();
    if (!taskIds.length) return out;
    for (const row of await this.labels.listOnTasks(workspaceId, taskIds)) {
      const list = out.get(row.task_id!) ?? [];
      list.push(toLabelRecord(row));
      out.set(row.task_id!, list);
    }
    return out;
  }

  /**
   * Puts a label (a catalogue label, or a task's copy standing for its catalogue label) on each of
   * the tasks of the workspace in `m`'s transaction; answers how many tasks got it (a task that
   * already has a label of that name is left as it is). 404 when the label is not the workspace's.
   */
  async attachToMany(workspaceId: string, labelId: string, taskIds: string[], m: EntityManager, actorId: string | null = null): Promise<number> {
    if (!isUuid(labelId)) throw new NotFoundException(NOT_FOUND);
    const label = await this.find(m, workspaceId, labelId.toLowerCase());
    const catalogue = label.task_id === null ? label : label.catalog_label_id ? await this.labels.findInWorkspace(workspaceId, label.catalog_label_id, m) : undefined;
    if (!catalogue) throw new NotFoundException(NOT_FOUND);
    try {
      return (await this.labels.copyOntoTasks(workspaceId, catalogue, taskIds, actorId, m)).length;
    } catch (err) {
      if (isForeignKeyViolation(err)) throw new NotFoundException(TASK_NOT_FOUND); // a task was deleted meanwhile
      throw err;
    }
  }

  /** Takes the label named `name` (case-insensitive) off each of the tasks in `m`'s transaction; answers how many had it. */
  async detachByNameFromMany(workspaceId: string, name: string, taskIds: string[], m: EntityManager, actorId: string | null = null): Promise<number> {
    return new Set(await this.labels.deleteByNameFromTasks(workspaceId, taskIds, name, actorId, m)).size;
  }

  /**
   * Puts labels given by name on a task, inside `m`: each comes from the workspace catalogue (made
   * there with `color` when the workspace has none of that name, case-insensitively). Labels the
   * task already has are left alone. Answers how many the task did not have (for imports).
   */
  async attachByName(workspaceId: string, taskId: string, labels: { name: string; color: string }[], m: EntityManager): Promise<number> {
    const onTask = new Set((await this.labels.listOnTask(workspaceId, taskId, m)).map((l) => l.name.toLowerCase()));
    let added = 0;
    for (const { name, color } of labels) {
      if (onTask.has(name.toLowerCase())) continue;
      const catalogue = await this.inCatalogue(workspaceId, name, color, m);
      await this.labels.ensureOnTask(workspaceId, taskId, catalogue.id, catalogue.name, catalogue.color, m);
      onTask.add(name.toLowerCase());
      added++;
    }
    return added;
  }

  /** The catalogue label of that name, made when there is none; 400 when the catalogue is full (docs/decisions-local.md, "Limits"). */
  private async inCatalogue(workspaceId: string, name: string, color: string, m: EntityManager): Promise<LabelRow> {
    const row = await this.labels.ensureInCatalogue(workspaceId, name, color, LABELS_PER_WORKSPACE, m);
    if (!row) throw new BadRequestException(LABEL_CATALOGUE_FULL);
    return row;
  }

  private async find(m: EntityManager, workspaceId: string, id: string): Promise<LabelRow> {
    const row = await this.labels.findInWorkspace(workspaceId, id, m);
    if (!row) throw new NotFoundException(NOT_FOUND);
    return row;
  }

  /** The task's copy of a label: made from the catalogue label behind `label`, or the one the task already has by that name. */
  private async copyOnto(m: EntityManager, label: LabelRow, taskId: string, actorId: string | null): Promise<LabelRow> {
    if (label.task_id === taskId) return label;
    const catalogId = label.task_id === null ? label.id : label.catalog_label_id;
    return this.labels.ensureOnTask(label.workspace_id, taskId, catalogId, label.name, label.color, m, { id: actorId });
  }
}
