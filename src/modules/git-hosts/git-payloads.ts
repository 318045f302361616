import { GitComment, GitEvent, GitIssue, GitPullRequest, httpUrl, IssueAction, obj, PayloadRepository, posInt, str } from './git-events';
import { GitSource } from './git-integration.record';

/**
 * Reading the two hosts' JSON (docs/git-hosts.md, "Events"). selfgit's API and webhooks follow
 * the hosted service's shapes closely (`issues`, `issue_comment`, `push`, `pull_request` events;
 * issue, comment and pull request objects with the same members), so one reader serves both; the
 * few differences are marked. Every link taken from them (an issue's, a comment's or a pull
 * request's page, an avatar, a branch's page) goes through httpUrl: only absolute http(s) URLs are
 * kept, anything else is null (docs/git-hosts.md, "Links from the hosts").
 */

/** An issue object of either host (API answer or webhook payload) as a GitIssue; null when it is a pull request or unusable. */
export function readIssue(v: unknown): GitIssue | null {
  const issue = obj(v);
  const number = posInt(issue.number);
  // selfgit: `pull_request` is null on issues; hostedgit: absent on issues.
  if (number === null || Object.keys(obj(issue.pull_request)).length > 0) return null;
  return {
    number,
    title: str(issue.title) ?? '',
    body: str(issue.body),
    state: issue.state === 'closed' ? 'closed' : 'open',
    labels: (Array.isArray(issue.labels) ? issue.labels : []).map(obj).map((l) => ({ name: str(l.name) ?? '', color: l.color })),
    url: httpUrl(issue.html_url),
  };
}

/** A comment object of either host. */
export function readComment(v: unknown): GitComment | null {
  const c = obj(v);
  const id = typeof c.id === 'number' || typeof c.id === 'string' ? String(c.id) : null;
  if (!id) return null;
  const user = obj(c.user);
  return { id, body: str(c.body), author: { name: str(user.login) ?? str(user.username), avatar: httpUrl(user.avatar_url) }, url: httpUrl(c.html_url) };
}

function readPullRequest(v: unknown): GitPullRequest | null {
  const pr = obj(v);
  const number = posInt(pr.number);
  if (number === null) return null;
  return { number, title: str(pr.title) ?? '', body: str(pr.body), branch: str(obj(pr.head).ref), url: httpUrl(pr.html_url) };
}

/** The repository a webhook payload is about, if it names one. */
export function payloadRepository(payload: unknown): PayloadRepository | null {
  const repo = obj(obj(payload).repository);
  const owner = str(obj(repo.owner).login) ?? str(obj(repo.owner).username);
  const name = str(repo.name);
  if (owner && name) return { owner, name };
  const full = str(repo.full_name)?.split('/');
  return full?.length === 2 && full[0] && full[1] ? { owner: full[0], name: full[1] } : null;
}

const ISSUE_ACTIONS: Record<string, IssueAction> = {
  opened: 'opened',
  edited: 'edited',
  closed: 'closed',
  reopened: 'reopened',
  // hostedgit
  labeled: 'labeled',
  unlabeled: 'labeled',
  // selfgit
  label_updated: 'labeled',
  label_cleared: 'labeled',
};

/** A webhook delivery (`event` = the event header) as a GitEvent. */
export function readWebhook(source: GitSource, event: string, payload: unknown): GitEvent {
  const p = obj(payload);
  const action = str(p.action) ?? '';
  switch (event) {
    case 'issues': {
      // A deleted or transferred issue leaves its task as it is (it is not made again).
      if (action === 'deleted' || action === 'transferred') return { kind: 'ignored', reason: `Issue ${action}` };
      const issue = readIssue(p.issue);
      if (!issue) return { kind: 'ignored', reason: 'Not an issue' };
      // Other actions (assigned, milestoned, …) change nothing the task shows but still refresh it.
      return { kind: 'issue', action: ISSUE_ACTIONS[action] ?? 'edited', issue };
    }
    case 'issue_comment': {
      if (action !== 'created') return { kind: 'ignored', reason: `Comment ${action || 'event'} is not copied` };
      // selfgit marks comments on pull requests with is_pull; hostedgit with issue.pull_request.
      if (p.is_pull === true) return { kind: 'ignored', reason: 'A comment on a pull request' };
      const issue = readIssue(p.issue);
      const comment = readComment(p.comment);
      if (!issue || !comment) return { kind: 'ignored', reason: 'A comment on a pull request' };
      return { kind: 'issue_comment', issue, comment };
    }
    case 'push': {
      const ref = str(p.ref) ?? '';
      if (!ref.startsWith('refs/heads/')) return { kind: 'ignored', reason: 'Not a branch push' };
      const deleted = p.deleted === true || /^0+$/.test(str(p.after) ?? '');
      if (deleted) return { kind: 'ignored', reason: 'A deleted branch' };
      const branch = ref.slice('refs/heads/'.length);
      const repoUrl = httpUrl(obj(p.repository).html_url);
      const path = source === 'selfgit' ? `src/branch/${branch}` : `tree/${branch}`;
      return { kind: 'push', branch, url: repoUrl ? httpUrl(`${repoUrl.replace(/\/+$/, '')}/${path}`) : null };
    }
    case 'pull_request': {
      const pullRequest = readPullRequest(p.pull_request);
      if (!pullRequest) return { kind: 'ignored', reason: 'No pull request in the payload' };
      const merged = obj(p.pull_request).merged === true;
      const kind = action === 'opened' || action === 'reopened' || action === 'ready_for_review' ? 'opened' : action === 'closed' ? (merged ? 'merged' : 'closed') : 'updated';
      return { kind: 'pull_request', action: kind, pullRequest };
    }
    default:
      return { kind: 'ignored', reason: `Event ${event || '(none)'} is not used` };
  }
}
