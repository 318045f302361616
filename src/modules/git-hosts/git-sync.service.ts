import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { ColumnService } from '../column/column.service';
import { LabelService } from '../label/label.service';
import { ProjectService } from '../project/project.service';
import { TaskRow } from '../task/task.record';
import { TaskService } from '../task/task.service';
import { ExternalLinkRepository, ExternalLinkRow, LinkScope } from './external-link.repository';
import { GitComment, GitEvent, GitIssue, GitPullRequest, IssueAction } from './git-events';
import { GitIntegrationRow, GitSource } from './git-integration.record';
import { BoardColumn, commentContent, GitTransition, readLabels, taskDescription, taskNumberInBranch, taskTitle, transitionStatus, transitionTarget } from './git-rules';
import { GitWebhookReceiptRepository } from './git-webhook-receipt.repository';
import { WorkflowTargets } from './workflow-rule.record';
import { WorkflowRuleRepository } from './workflow-rule.repository';

/** Everything an event or an import of one integration needs to know about its project. */
export interface GitContext {
  integration: GitIntegrationRow;
  source: GitSource;
  scope: LinkScope;
  project: { id: string; slug: string; workspaceId: string };
  /** The project's columns in board order. */
  columns: BoardColumn[];
  /** The project's workflow rules for this integration's host: event → column slug. */
  rules: WorkflowTargets;
}

/** Posts one comment on an issue of the integration's repository; answers the comment's id. */
export type IssueCommenter = (issueNumber: number, body: string) => Promise<string>;

export type IssueOutcome = 'imported' | 'updated' | 'skipped';

/** What importing one issue did; `commentsLeft`: comments beyond the import's cap wait for the next run. */
export interface IssueImport {
  outcome: IssueOutcome;
  commentsLeft: boolean;
}

/** What an inbound webhook did: `applied` (something changed), `unchanged`, `duplicate` (a replay) or `ignored`. */
export interface WebhookAnswer {
  ok: true;
  outcome: 'applied' | 'unchanged' | 'duplicate' | 'ignored';
  /** Tasks created or changed. */
  taskIds: string[];
  /** Why nothing was done (ignored only). */
  reason?: string;
}

/** What applying changes inside one transaction did. */
interface Applied {
  changed: boolean;
  taskIds: Set<string>;
  /** Issue links whose task may need the task-link comment, with their task. */
  issueLinks: { link: ExternalLinkRow; task: TaskRow }[];
  /** Comments not copied because of the import's cap per issue. */
  commentsLeft: boolean;
}

/**
 * Two transactions made the same link or copied the same comment at once; the loser rolls back
 * and runs again, then finds what the winner made.
 */
class ConcurrentLinkError extends Error {}

const ATTEMPTS = 3;

/**
 * Applies what happens on a git host to a project's tasks (docs/git-hosts.md): issues become
 * tasks, issue comments task comments, pushes and pull requests move tasks. Every task change goes
 * through TaskService's integration methods, i.e. through the one task write path, so each writes
 * its history and its events (and so reaches the project's chat and webhook integrations) like a
 * change made in the API. The host-specific parts (reading payloads, calling the host) are in
 * the selfgit and hostedgit folders.
 */
@Injectable()
export class GitSyncService {
  private readonly logger = new Logger('GitSync');

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly tasks: TaskService,
    private readonly labels: LabelService,
    private readonly projects: ProjectService,
    private readonly columns: ColumnService,
    private readonly links: ExternalLinkRepository,
    private readonly receipts: GitWebhookReceiptRepository,
    private readonly workflowRules: WorkflowRuleRepository,
  ) {}

  /** The context of an integration: its project's key, columns and workflow rules. */
  async context(integration: GitIntegrationRow): Promise<GitContext> {
    const project = await this.projects.get(integration.workspace_id, integration.project_id);
    const columns = await this.columns.list(integration.workspace_id, integration.project_id);
    const rules = await this.workflowRules.targets(integration.workspace_id, integration.project_id, integration.type);
    return {
      integration,
      source: integration.type,
      scope: { workspaceId: integration.workspace_id, projectId: integration.project_id, source: integration.type, repositoryKey: integration.repository_key },
      project: { id: project.id, slug: project.slug, workspaceId: integration.workspace_id },
      columns: columns.map((c) => ({ slug: c.slug, isFinal: c.isFinal })),
      rules,
    };
  }

  /** The text of the task-link comment (docs/git-hosts.md, "The task-link comment"). */
  linkCommentText(ctx: GitContext, task: { id: string; number: number }): string {
    return `Tracked in Tandem as ${ctx.project.slug}-${task.number}: ${this.config.clientUrl}/projects/${ctx.project.id}/tasks/${task.id}`;
  }

  // ---- import ----

  /**
   * Imports one open issue with its comments, in a transaction of its own: creates its task, or
   * updates the linked one. `imported` (a new task), `updated` (something changed: a field, a
   * label, a new comment) or `skipped` (nothing to change). At most `maxComments` comments are
   * copied; the others are left for the next import (`commentsLeft`). Then posts the task-link
   * comment when the integration asks for it and the issue has none yet.
   */
  async importIssue(ctx: GitContext, issue: GitIssue, comments: GitComment[], actorId: string, commenter: IssueCommenter | null, maxComments = Infinity): Promise<IssueImport> {
    const { outcome, applied } = await this.transaction(async (m) => {
      const r = await this.syncIssue(ctx, issue, comments, { actorId, applyStatusLabel: true, maxComments }, m);
      return { outcome: r.created ? ('imported' as const) : r.applied.changed ? ('updated' as const) : ('skipped' as const), applied: r.applied };
    });
    await this.postLinkComments(ctx, applied, commenter);
    return { outcome, commentsLeft: applied.commentsLeft };
  }

  // ---- inbound webhooks ----

  /**
   * Applies one inbound event in one transaction that also records the delivery (by its id and by
   * the SHA-256 of its body): a delivery seen before changes nothing (`duplicate`).
   */
  async receive(
    ctx: GitContext,
    delivery: { receiver: string; deliveryId: string; bodySha256: string },
    event: GitEvent,
    commenter: IssueCommenter | null,
  ): Promise<WebhookAnswer> {
    if (event.kind === 'ignored') return { ok: true, outcome: 'ignored', taskIds: [], reason: event.reason };
    const applied = await this.transaction(async (m) => {
      if (!(await this.receipts.record(delivery.receiver, delivery.deliveryId, delivery.bodySha256, m))) return null;
      return this.applyEvent(ctx, event, m);
    });
    if (!applied) return { ok: true, outcome: 'duplicate', taskIds: [] };
    await this.postLinkComments(ctx, applied, commenter);
    return { ok: true, outcome: applied.changed ? 'applied' : 'unchanged', taskIds: [...applied.taskIds] };
  }

  private async applyEvent(ctx: GitContext, event: Exclude<GitEvent, { kind: 'ignored' }>, m: EntityManager): Promise<Applied> {
    switch (event.kind) {
      case 'issue':
        return (await this.syncIssue(ctx, event.issue, [], { actorId: null, action: event.action, applyStatusLabel: event.action === 'labeled' }, m)).applied;
      case 'issue_comment':
        return (await this.syncIssue(ctx, event.issue, [event.comment], { actorId: null, applyStatusLabel: false }, m)).applied;
      case 'push':
        return this.push(ctx, event.branch, event.url, m);
      case 'pull_request':
        return this.pullRequest(ctx, event.action, event.pullRequest, m);
    }
  }

  // ---- issues ----

  /**
   * The issue's task: created (with the issue's labels and comments) when the issue has none,
   * else updated from it (title, description, `priority:` label; the `status:` label with
   * `applyStatusLabel`; closed/reopened moves; new labels and comments).
   */
  private async syncIssue(
    ctx: GitContext,
    issue: GitIssue,
    comments: GitComment[],
    opts: { actorId: string | null; action?: IssueAction; applyStatusLabel: boolean; maxComments?: number },
    m: EntityManager,
  ): Promise<{ created: boolean; applied: Applied }> {
    const applied: Applied = { changed: false, taskIds: new Set(), issueLinks: [], commentsLeft: false };
    const labels = readLabels(
      issue.labels,
      ctx.columns.map((c) => c.slug),
    );
    const title = taskTitle(issue.title, issue.number);
    const description = taskDescription(issue.body);
    const linkFields = { url: issue.url, title, metadata: { state: issue.state } };
    let link = await this.links.find(ctx.scope, 'issue', String(issue.number), m);
    let created = false;
    let task: TaskRow | undefined;

    if (!link) {
      // A closed issue's task starts where closing would put it; an open one where its `status:`
      // label says, else where opening does.
      const status = issue.state === 'closed' ? this.target(ctx, 'issue_closed') : (labels.status ?? this.target(ctx, 'issue_opened'));
      task = await this.tasks.createFromIntegration(
        {
          workspaceId: ctx.scope.workspaceId,
          projectId: ctx.scope.projectId,
          status,
          userId: null,
          title,
          description,
          priority: labels.priority ?? 'no-priority',
          startDate: null,
          dueDate: null,
        },
        opts.actorId,
        m,
      );
      if (!task) throw new Error('The project of the integration is gone');
      link = await this.links.insertIfAbsent(ctx.scope, { taskId: task.id, integrationId: ctx.integration.id, type: 'issue', externalId: String(issue.number), ...linkFields }, m);
      if (!link) throw new ConcurrentLinkError();
      created = true;
      applied.changed = true;
    } else {
      const cur = await this.tasks.lockForIntegration(ctx.scope.workspaceId, link.task_id, m);
      if (!cur) throw new ConcurrentLinkError(); // deleted meanwhile: its link goes with it
      const patch: { title?: string; description?: string | null; status?: string; priority?: (typeof labels)['priority'] } = { title, description };
      if (labels.priority) patch.priority = labels.priority;
      if (opts.applyStatusLabel && labels.status) patch.status = labels.status;
      if (opts.action === 'closed' || opts.action === 'reopened') {
        const event = opts.action === 'closed' ? 'issue_closed' : 'issue_reopened';
        const moved = transitionStatus(event, cur.status, ctx.columns, ctx.rules[event]);
        if (moved) patch.status = moved;
      }
      const result = await this.tasks.changeFromIntegration(ctx.scope.workspaceId, cur.id, patch, opts.actorId, m);
      if (!result) throw new ConcurrentLinkError();
      task = result.task;
      applied.changed = result.changed;
      await this.links.refresh(ctx.scope.workspaceId, link.id, linkFields, m);
    }
    applied.taskIds.add(task.id);

    if (labels.others.length && (await this.labels.attachByName(ctx.scope.workspaceId, task.id, labels.others, m)) > 0) applied.changed = true;
    const copied = await this.copyComments(ctx, link, task, comments, opts.maxComments ?? Infinity, m);
    if (copied.count > 0) applied.changed = true;
    applied.commentsLeft = copied.left;
    if (!applied.changed) applied.taskIds.delete(task.id);
    applied.issueLinks.push({ link, task });
    return { created, applied };
  }

  /**
   * Copies the comments not copied before (and never the task-link comment itself) as task
   * comments, at most `max` of them; answers how many, and whether some were left for lack of room.
   */
  private async copyComments(
    ctx: GitContext,
    link: ExternalLinkRow,
    task: TaskRow,
    comments: GitComment[],
    max: number,
    m: EntityManager,
  ): Promise<{ count: number; left: boolean }> {
    const done = await this.links.copiedComments(
      ctx.scope,
      comments.map((c) => c.id),
      m,
    );
    const own = this.linkCommentText(ctx, task).trim();
    let copied = 0;
    for (const c of comments) {
      if (done.has(c.id) || c.id === link.link_comment_id || c.body?.trim() === own) continue;
      const content = commentContent(c.body);
      if (!content) continue;
      if (copied >= max) return { count: copied, left: true };
      const author = { userName: c.author.name, userAvatar: c.author.avatar, source: ctx.source, url: c.url };
      const activity = await this.tasks.commentFromIntegration(ctx.scope.workspaceId, task.id, content, null, author, m);
      if (!activity) throw new ConcurrentLinkError();
      if (!(await this.links.recordCopiedComment(ctx.scope, c.id, activity.id, m))) throw new ConcurrentLinkError();
      done.add(c.id);
      copied++;
    }
    return { count: copied, left: false };
  }

  // ---- pushes and pull requests ----

  /** A push to a branch whose name names a task of the project (by the branch pattern) moves it to in-progress. */
  private async push(ctx: GitContext, branch: string, url: string | null, m: EntityManager): Promise<Applied> {
    const applied: Applied = { changed: false, taskIds: new Set(), issueLinks: [], commentsLeft: false };
    const number = taskNumberInBranch(ctx.integration.branch_pattern, ctx.project.slug, branch);
    const task = number === null ? undefined : await this.tasks.findByNumber(ctx.scope.workspaceId, ctx.scope.projectId, number, m);
    if (!task) return applied;
    await this.upsertLink(ctx, task.id, 'branch', branch, { url, title: branch, metadata: {} }, m);
    if (await this.move(ctx, task.id, 'branch_push', m)) {
      applied.changed = true;
      applied.taskIds.add(task.id);
    }
    return applied;
  }

  /**
   * A pull request's task: the one it was linked to before, else the one its head branch names,
   * else the one its title names. Opened (or reopened) → in-review; merged → done, unless another
   * pull request of the task is still open.
   */
  private async pullRequest(ctx: GitContext, action: 'opened' | 'closed' | 'merged' | 'updated', pr: GitPullRequest, m: EntityManager): Promise<Applied> {
    const applied: Applied = { changed: false, taskIds: new Set(), issueLinks: [], commentsLeft: false };
    const externalId = String(pr.number);
    const existing = await this.links.find(ctx.scope, 'pull_request', externalId, m);
    let taskId = existing?.task_id;
    if (!taskId) {
      const pattern = ctx.integration.branch_pattern;
      const number = (pr.branch ? taskNumberInBranch(pattern, ctx.project.slug, pr.branch) : null) ?? taskNumberInBranch(pattern, ctx.project.slug, pr.title);
      taskId = number === null ? undefined : (await this.tasks.findByNumber(ctx.scope.workspaceId, ctx.scope.projectId, number, m))?.id;
    }
    if (!taskId) return applied;
    const state = action === 'opened' ? 'open' : action === 'merged' ? 'merged' : action === 'closed' ? 'closed' : ((existing?.metadata?.state as string | undefined) ?? 'open');
    await this.upsertLink(ctx, taskId, 'pull_request', externalId, { url: pr.url, title: pr.title, metadata: { state, branch: pr.branch } }, m);
    let transition: GitTransition | null = null;
    if (action === 'opened') transition = 'pr_opened';
    if (action === 'merged' && (await this.links.openPullRequestsOfTask(ctx.scope, taskId, externalId, m)) === 0) transition = 'pr_merged';
    if (transition && (await this.move(ctx, taskId, transition, m))) {
      applied.changed = true;
      applied.taskIds.add(taskId);
    }
    return applied;
  }

  private async upsertLink(
    ctx: GitContext,
    taskId: string,
    type: 'branch' | 'pull_request',
    externalId: string,
    fields: { url: string | null; title: string | null; metadata: Record<string, unknown> },
    m: EntityManager,
  ): Promise<void> {
    const existing = await this.links.find(ctx.scope, type, externalId, m);
    if (existing) return this.links.refresh(ctx.scope.workspaceId, existing.id, fields, m);
    if (!(await this.links.insertIfAbsent(ctx.scope, { taskId, integrationId: ctx.integration.id, type, externalId, ...fields }, m))) throw new ConcurrentLinkError();
  }

  /** Moves the task as `event` says (transitionStatus); true when its status changed. */
  private async move(ctx: GitContext, taskId: string, event: GitTransition, m: EntityManager): Promise<boolean> {
    const cur = await this.tasks.lockForIntegration(ctx.scope.workspaceId, taskId, m);
    if (!cur) return false;
    const status = transitionStatus(event, cur.status, ctx.columns, ctx.rules[event]);
    if (!status) return false;
    return (await this.tasks.changeFromIntegration(ctx.scope.workspaceId, taskId, { status }, null, m))?.changed ?? false;
  }

  /** The column `event` moves a task to in this project (transitionTarget); null when it has no column. */
  private target(ctx: GitContext, event: GitTransition): string | null {
    return transitionTarget(event, ctx.columns, ctx.rules[event]);
  }

  // ---- the task-link comment ----

  /**
   * Posts the task-link comment on each issue that has none yet, when the integration asks for it.
   * The link is claimed first, so two concurrent callers never both post; a failed post gives the
   * claim back (logged), and the next import or event of the issue tries again.
   */
  private async postLinkComments(ctx: GitContext, applied: Applied, commenter: IssueCommenter | null): Promise<void> {
    if (!ctx.integration.comment_task_link || !commenter) return;
    for (const { link, task } of applied.issueLinks) {
      if (link.link_comment_claimed_at || link.link_comment_id) continue;
      if (!(await this.links.claimLinkComment(ctx.scope.workspaceId, link.id))) continue;
      try {
        const commentId = await commenter(Number(link.external_id), this.linkCommentText(ctx, task));
        await this.links.setLinkComment(ctx.scope.workspaceId, link.id, commentId);
      } catch (err) {
        this.logger.warn(`The task-link comment on ${ctx.source} issue #${link.external_id} (integration ${ctx.integration.id}) failed: ${(err as Error).message}`);
        await this.links.releaseLinkComment(ctx.scope.workspaceId, link.id);
      }
    }
  }

  /** Runs `fn` in a transaction, again (up to three times in all) when it lost a race for a link. */
  private async transaction<T>(fn: (m: EntityManager) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.ds.transaction(fn);
      } catch (err) {
        if (!(err instanceof ConcurrentLinkError) || attempt >= ATTEMPTS) throw err;
      }
    }
  }
}
