import { BadRequestException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { keyScopeAllows } from '../../common/decorators/api-key-scope.decorator';
import { AuthUser } from '../../common/decorators/current-user.decorator';
import { isUuid } from '../../common/pipes/id.pipe';
import { AccessService } from '../../common/permissions/access.service';
import { hasPermission, insufficientPermissions } from '../../common/permissions/permissions';
import { LabelService } from '../label/label.service';
import { TaskPatch } from '../task/task-changes';
import { Priority } from '../task/task.record';
import { TaskService } from '../task/task.service';
import { BulkOperation, BulkUpdateDto } from './dto/task-bulk.dto';

const TASK_NOT_FOUND = 'Task not found';

/** The permission each operation needs, as on the single-task routes. */
export const BULK_PERMISSION: Record<BulkOperation, { resource: string; action: string }> = {
  updateStatus: { resource: 'task', action: 'update' },
  updatePriority: { resource: 'task', action: 'update' },
  updateDueDate: { resource: 'task', action: 'update' },
  updateAssignee: { resource: 'task', action: 'assign' },
  addLabel: { resource: 'label', action: 'update' },
  removeLabel: { resource: 'label', action: 'update' },
  moveToProject: { resource: 'task', action: 'update' },
  delete: { resource: 'task', action: 'delete' },
};

/**
 * `PATCH /task/bulk` (docs/compatibility.md, "Bulk update"): one operation on up to 500 tasks of
 * one workspace, in one transaction (all or nothing). The route has no path id for the permission
 * guard, so this finds the tasks' workspace and checks the caller's membership and the
 * operation's permission itself, the way the guard does: an API key's scope first (whether or
 * not the tasks exist), then 404 for tasks the caller cannot see, then 403. Field changes go
 * through the task write path, so each changed task gets its history and events; an unchanged
 * task is not written and not counted.
 */
@Injectable()
export class TaskBulkService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly access: AccessService,
    private readonly tasks: TaskService,
    private readonly labels: LabelService,
  ) {}

  async update(user: AuthUser, dto: BulkUpdateDto): Promise<{ success: true; updatedCount: number }> {
    const need = BULK_PERMISSION[dto.operation];
    const keyScopes = user.apiKey?.permissions;
    if (keyScopes && !keyScopeAllows(keyScopes, need.resource, need.action)) throw new ForbiddenException('Insufficient API key scope');
    const ids = this.taskIds(dto.taskIds);
    const workspaceId = await this.workspaceOf(user, ids, need);
    const value = dto.value;
    if (dto.operation === 'moveToProject') await this.assertDestination(user, workspaceId, (value as string).toLowerCase());
    const updatedCount = await this.ds.transaction(async (m) => {
      switch (dto.operation) {
        case 'updateStatus':
          return this.patch(workspaceId, user, ids, { status: value as string }, m);
        case 'updatePriority':
          return this.patch(workspaceId, user, ids, { priority: value as Priority }, m);
        case 'updateDueDate':
          return this.patch(workspaceId, user, ids, { dueDate: value === '' ? null : (value as string | null) }, m);
        case 'updateAssignee': {
          const userId = value === '' || value === null ? null : (value as string).toLowerCase();
          if (userId) await this.tasks.assertAssignable(workspaceId, userId, m);
          return this.patch(workspaceId, user, ids, { userId }, m);
        }
        case 'addLabel':
          return this.labels.attachToMany(workspaceId, value as string, ids, m, user.id);
        case 'removeLabel':
          return this.labels.detachByNameFromMany(workspaceId, (value as string).trim(), ids, m, user.id);
        case 'moveToProject':
          return this.tasks.moveMany(workspaceId, user.id, ids, (value as string).toLowerCase(), m);
        case 'delete':
          return this.tasks.removeMany(workspaceId, ids, user.id, m);
      }
    });
    return { success: true, updatedCount };
  }

  private patch(workspaceId: string, user: AuthUser, ids: string[], patch: TaskPatch, m: EntityManager): Promise<number> {
    return this.tasks.updateMany(workspaceId, user.id, ids, patch, m);
  }

  /** A bulk move's destination, as the single move checks it: a project the caller cannot see → 404; one of another workspace → 400. */
  private async assertDestination(user: AuthUser, workspaceId: string, projectId: string): Promise<void> {
    const dest = await this.access.locate('project', projectId, user.id);
    if (!dest?.memberId) throw new NotFoundException('Project not found');
    if (dest.workspaceId !== workspaceId) throw new BadRequestException('Tasks can only be moved within the same workspace');
  }

  /** The ids in lower case, each once; an id that is not a UUID is a task that does not exist. */
  private taskIds(raw: string[]): string[] {
    if (raw.some((id) => !isUuid(id))) throw new NotFoundException(TASK_NOT_FOUND);
    return [...new Set(raw.map((id) => id.toLowerCase()))];
  }

  /**
   * The one workspace of the tasks, where the caller holds the permission. A task that does not
   * exist or lies in a workspace the caller is not a member of → 404; tasks of two of the
   * caller's workspaces → 400; a member without the permission → 403.
   */
  private async workspaceOf(user: AuthUser, ids: string[], need: { resource: string; action: string }): Promise<string> {
    const located = await this.tasks.workspacesOf(ids);
    if (located.size !== ids.length) throw new NotFoundException(TASK_NOT_FOUND);
    const workspaces = [...new Set(located.values())];
    const memberships = [];
    for (const workspaceId of workspaces) {
      const membership = await this.access.membership(workspaceId, user.id);
      if (!membership) throw new NotFoundException(TASK_NOT_FOUND);
      memberships.push(membership);
    }
    if (workspaces.length > 1) throw new BadRequestException('All tasks of a bulk update must be in one workspace');
    const permissions = await this.access.permissionsFor(workspaces[0], memberships[0].roles);
    if (!hasPermission(permissions, need.resource, need.action)) throw new ForbiddenException(insufficientPermissions(need.resource, need.action));
    return workspaces[0];
  }
}
