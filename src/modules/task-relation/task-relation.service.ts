import { BadRequestException, ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { keyScopeAllows } from '../../common/decorators/api-key-scope.decorator';
import { AuthUser } from '../../common/decorators/current-user.decorator';
import { isForeignKeyViolation, isUniqueViolation } from '../../database/sql';
import { UserRepository } from '../auth/user.repository';
import { TaskService } from '../task/task.service';
import { CreateTaskRelationDto } from './dto/task-relation.dto';
import { TaskRelationListItem, TaskRelationRecord, toRelatedTaskRecord, toTaskRelationRecord } from './task-relation.record';
import { TASK_RELATION_PAIR_INDEX, TaskRelationRepository } from './task-relation.repository';

const TASK_NOT_FOUND = 'Task not found';

/**
 * Relations between two tasks of one workspace (docs/compatibility.md, "Task relations"): a task
 * is never related to itself, a pair holds one relation of each type whichever way round, and a
 * relation goes with either of its tasks.
 */
@Injectable()
export class TaskRelationService {
  constructor(
    private readonly relations: TaskRelationRepository,
    private readonly tasks: TaskService,
    private readonly users: UserRepository,
  ) {}

  /** The source task is the guard's (its workspace, task:update); the target must be in the same workspace. */
  async create(workspaceId: string, user: AuthUser, dto: CreateTaskRelationDto): Promise<TaskRelationRecord> {
    const sourceTaskId = dto.sourceTaskId.toLowerCase();
    const targetTaskId = dto.targetTaskId.toLowerCase();
    if (sourceTaskId === targetTaskId) throw new BadRequestException('A task cannot be related to itself');
    // A task of a workspace the caller cannot see, or of another of theirs, does not exist here.
    if (!(await this.tasks.existsInWorkspace(workspaceId, targetTaskId))) throw new NotFoundException(TASK_NOT_FOUND);
    try {
      return toTaskRelationRecord(await this.relations.insert(workspaceId, { sourceTaskId, targetTaskId, relationType: dto.relationType, createdById: user.id }));
    } catch (err) {
      if (isUniqueViolation(err, TASK_RELATION_PAIR_INDEX)) throw new ConflictException(`These tasks already have a ${dto.relationType} relation`);
      if (isForeignKeyViolation(err)) throw new NotFoundException(TASK_NOT_FOUND); // a task was deleted meanwhile
      throw err;
    }
  }

  /**
   * The relations the task is either end of, oldest first, each with both tasks. Names of people
   * belong to the workspace's members (read with `workspace:read`): an API key without that scope
   * gets `assigneeName: null`, the assignee's id only (docs/decisions-local.md, "Access rules" 5).
   */
  /** The relations with either end in the project, as records (a timeline draws them between its bars). */
  async listOfProject(workspaceId: string, projectId: string): Promise<TaskRelationRecord[]> {
    return (await this.relations.listOfProject(workspaceId, projectId)).map(toTaskRelationRecord);
  }

  async listOfTask(workspaceId: string, taskId: string, user: AuthUser): Promise<TaskRelationListItem[]> {
    const found = await this.relations.listOfTask(workspaceId, taskId);
    if (!found.length) return [];
    const ids = [...new Set(found.flatMap((r) => [r.source_task_id, r.target_task_id]))];
    const tasks = new Map((await this.tasks.findManyInWorkspace(workspaceId, ids)).map((t) => [t.id, t]));
    const keyScopes = user.apiKey?.permissions;
    const showPeople = !keyScopes || keyScopeAllows(keyScopes, 'workspace', 'read');
    const assigneeIds = showPeople ? [...new Set([...tasks.values()].map((t) => t.user_id).filter((id): id is string => id !== null))] : [];
    const names = new Map((await this.users.findByIds(assigneeIds)).map((u) => [u.id, u.name]));
    const end = (id: string) => {
      const t = tasks.get(id)!;
      return toRelatedTaskRecord(t, t.user_id ? (names.get(t.user_id) ?? null) : null);
    };
    // Read in steps: a relation whose task was deleted in between went with it.
    return found
      .filter((r) => tasks.has(r.source_task_id) && tasks.has(r.target_task_id))
      .map((r) => ({ ...toTaskRelationRecord(r), sourceTask: end(r.source_task_id), targetTask: end(r.target_task_id) }));
  }

  async remove(workspaceId: string, id: string, actorId: string | null = null): Promise<TaskRelationRecord> {
    const row = await this.relations.delete(workspaceId, id, actorId);
    if (!row) throw new NotFoundException('Task relation not found');
    return toTaskRelationRecord(row);
  }
}
