import { VIRTUAL_STATUSES } from '../column/board-statuses';
import { PRIORITIES, Priority } from '../task/task.record';
import { WorkflowEvent } from './workflow-rule.record';

/**
 * The rules of the git-host integrations that need no database (docs/git-hosts.md): the branch
 * pattern, which column a git event moves a task to, and what an issue's labels mean.
 */

// ---- branch pattern ----

export const BRANCH_PATTERN_MAX = 100;
export const BRANCH_PATTERN_MESSAGE = 'branchPattern must contain {number} once, may contain {slug} once, and at most 100 characters';

/** A pattern: `{number}` exactly once, `{slug}` at most once, no other `{…}` placeholder. */
export function isValidBranchPattern(p: unknown): boolean {
  if (typeof p !== 'string' || !p.length || p.length > BRANCH_PATTERN_MAX) return false;
  const placeholders = p.match(/\{[^}]*\}/g) ?? [];
  const count = (name: string) => placeholders.filter((x) => x === name).length;
  return count('{number}') === 1 && count('{slug}') <= 1 && placeholders.every((x) => x === '{number}' || x === '{slug}');
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The task number a branch name names, by `pattern` with `{slug}` = the project key: matched
 * case-insensitively anywhere in the name, but not inside a longer word or number (`API-12` is in
 * `feature/api-12-login`, not in `xapi-12` nor `api-123`). null when it names none.
 */
export function taskNumberInBranch(pattern: string, slug: string, branch: string): number | null {
  const body = pattern
    .split(/(\{slug\}|\{number\})/)
    .map((part) => (part === '{slug}' ? escapeRegExp(slug) : part === '{number}' ? '(\\d{1,9})' : escapeRegExp(part)))
    .join('');
  const m = new RegExp(`(?:^|[^\\p{L}\\p{N}])${body}(?!\\p{N})`, 'iu').exec(branch);
  if (!m) return null;
  const n = Number(m[1]);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

// ---- transitions ----

/** Events that move a task (docs/git-hosts.md, "What moves a task"); a workflow rule can name any of them. */
export type GitTransition = WorkflowEvent;

/**
 * The column each event moves a task to without a workflow rule (when the project has it; else its
 * first column). A task made from an opened issue starts in the first column.
 */
export const TRANSITION_TARGET: Record<GitTransition, string | null> = {
  branch_push: 'in-progress',
  pr_opened: 'in-review',
  pr_merged: 'done',
  issue_opened: null,
  issue_closed: 'done',
  issue_reopened: 'to-do',
};

export interface BoardColumn {
  slug: string;
  isFinal: boolean;
}

/**
 * The column `event` moves a task to in a project with `columns` (board order): the column of the
 * project's workflow rule for it (`ruled`, its slug) when it has one, else the event's default,
 * else the first column. null when the project has no column.
 */
export function transitionTarget(event: GitTransition, columns: readonly BoardColumn[], ruled?: string): string | null {
  const has = (slug: string | null | undefined): slug is string => !!slug && columns.some((c) => c.slug === slug);
  if (has(ruled)) return ruled;
  const wanted = TRANSITION_TARGET[event];
  return has(wanted) ? wanted : (columns[0]?.slug ?? null);
}

/**
 * The status `event` gives a task now in `current`, or null for no move; `ruled` as for
 * transitionTarget. A push or an opened pull request never moves a task out of a final column (it
 * is done already), whatever the rules say; nor does a closed issue without a rule. An archived
 * task is not moved at all.
 */
export function transitionStatus(event: GitTransition, current: string, columns: readonly BoardColumn[], ruled?: string): string | null {
  if (!columns.length || current === 'archived') return null;
  const isFinal = columns.some((c) => c.slug === current && c.isFinal);
  if (isFinal && (event === 'branch_push' || event === 'pr_opened' || (event === 'issue_closed' && !ruled))) return null;
  const target = transitionTarget(event, columns, ruled);
  return target === current ? null : target;
}

// ---- labels ----

export interface IssueLabel {
  name: string;
  /** `#rrggbb` (normalised), or a default when the host gave none usable. */
  color: string;
}

export const DEFAULT_LABEL_COLOR = '#6b7280';
const LABEL_NAME_MAX = 100;

/** A host's label colour (`ee0701`, `#ee0701`) as `#rrggbb`. */
export function labelColor(raw: unknown): string {
  const m = typeof raw === 'string' ? /^#?([0-9a-f]{6})$/i.exec(raw.trim()) : null;
  return m ? `#${m[1].toLowerCase()}` : DEFAULT_LABEL_COLOR;
}

/**
 * What an issue's labels say: `status:<slug>` (a column of the project, or a virtual status) and
 * `priority:<p>` set those fields (prefix and value case-insensitive, spaces around the colon
 * allowed; an unknown value is ignored); every other label is a label to attach.
 */
export function readLabels(labels: readonly { name: string; color?: unknown }[], columnSlugs: readonly string[]): { status?: string; priority?: Priority; others: IssueLabel[] } {
  const out: { status?: string; priority?: Priority; others: IssueLabel[] } = { others: [] };
  const statuses = new Set([...columnSlugs, ...VIRTUAL_STATUSES]);
  for (const label of labels) {
    const name = String(label.name ?? '').trim();
    if (!name) continue;
    const m = /^(status|priority)\s*:\s*(.+)$/i.exec(name);
    if (m) {
      const value = m[2].trim().toLowerCase();
      if (m[1].toLowerCase() === 'status') {
        if (statuses.has(value)) out.status ??= value;
      } else if ((PRIORITIES as readonly string[]).includes(value)) {
        out.priority ??= value as Priority;
      }
      continue;
    }
    out.others.push({ name: name.slice(0, LABEL_NAME_MAX), color: labelColor(label.color) });
  }
  return out;
}

// ---- text limits of tasks and comments ----

const cut = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}\u2026` : s);

/** An issue title as a task title (1–500 characters). */
export const taskTitle = (title: unknown, number: number): string => cut(typeof title === 'string' && title.trim() ? title.trim() : `Issue #${number}`, 500);
/** An issue body as a task description (null when empty; at most 100,000 characters). */
export const taskDescription = (body: unknown): string | null => (typeof body === 'string' && body.trim() ? cut(body, 100_000) : null);
/** An issue comment as a task comment (1–20,000 characters; null when empty). */
export const commentContent = (body: unknown): string | null => (typeof body === 'string' && body.trim() ? cut(body, 20_000) : null);
