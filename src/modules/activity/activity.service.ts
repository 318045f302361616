import { Injectable, NotFoundException } from '@nestjs/common';
import { AuthUser } from '../../common/decorators/current-user.decorator';
import { AssetService } from '../asset/asset.service';
import { TaskChangesRepository } from '../task/task-changes.repository';
import { ActivityRecord, ActivityRow, toActivityRecord } from './activity.record';
import { ActivityRepository } from './activity.repository';

const COMMENT_NOT_FOUND = 'Comment not found';

/** The task's history: what changed, and the comments. */
@Injectable()
export class ActivityService {
  constructor(
    private readonly activities: ActivityRepository,
    private readonly changes: TaskChangesRepository,
    private readonly assets: AssetService,
  ) {}

  async listComments(workspaceId: string, taskId: string): Promise<ActivityRecord[]> {
    return (await this.activities.listComments(workspaceId, taskId)).map(toActivityRecord);
  }

  async listActivities(workspaceId: string, taskId: string): Promise<ActivityRecord[]> {
    return (await this.activities.listForTask(workspaceId, taskId)).map(toActivityRecord);
  }

  /** A comment is a change of its task: it goes through the task write path. */
  async addComment(workspaceId: string, user: AuthUser, taskId: string, content: string): Promise<ActivityRecord> {
    const row = await this.changes.comment(workspaceId, taskId, user.id, content);
    // No row: the task was deleted between the permission check and the insert.
    if (!row) throw new NotFoundException('Task not found');
    await this.assets.claimForComment(workspaceId, taskId, row.id, content);
    return toActivityRecord(row);
  }

  /** Only the author may edit a comment; to anyone else it does not exist. */
  async editComment(workspaceId: string, user: AuthUser, id: string, content: string): Promise<ActivityRecord> {
    const row = this.found(await this.changes.editComment(workspaceId, user.id, id, content));
    await this.assets.claimForComment(workspaceId, row.taskId, row.id, content);
    return row;
  }

  async deleteComment(workspaceId: string, user: AuthUser, id: string): Promise<ActivityRecord> {
    return this.found(await this.activities.deleteOwnComment(workspaceId, user.id, id));
  }

  private found(row: ActivityRow | undefined): ActivityRecord {
    if (!row) throw new NotFoundException(COMMENT_NOT_FOUND);
    return toActivityRecord(row);
  }
}
