import { useQuery } from '@tanstack/react-query';
import { api, must } from '../api/client';
import type { Column } from '../api/types';
import { ErrorState, Loading } from '../ui/States';
import { priorityName, when } from '../ui/format';
import { useMembers } from '../api/workspace-queries';
import { formatDuration } from './duration';

type Entry = Awaited<ReturnType<typeof history>>[number];
const history = async (taskId: string) => must(await api.GET('/api/activity/{taskId}', { params: { path: { taskId } } }));

/** A date of the API (a task's dates are UTC midnights) as `3 Dec 2026`; null when there is none. */
const day = (iso: unknown) =>
  typeof iso === 'string' && iso && !Number.isNaN(Date.parse(iso))
    ? new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })
    : null;
const seconds = (n: unknown) => (typeof n === 'number' ? formatDuration(n) : 'time');

/** What an entry of the task's history says, after the name of who did it (docs/records.md, "Activity"). */
function sentence(a: Entry, column: (slug: unknown) => string, person: (id: unknown) => string): string {
  const d = a.eventData ?? {};
  switch (a.type) {
    case 'created':
      return 'created the task';
    case 'imported':
      return 'imported the task';
    case 'status_changed':
      return `moved it from ${column(d.oldStatus)} to ${column(d.newStatus)}`;
    case 'priority_changed':
      return `changed the priority from ${priorityName(String(d.oldPriority))} to ${priorityName(String(d.newPriority))}`;
    case 'title_changed':
      return `renamed it from “${String(d.oldTitle)}”`;
    case 'description_changed':
      return 'changed the description';
    case 'assignee_changed':
      return `assigned it to ${person(d.newUserId)}`;
    case 'unassigned':
      return 'unassigned it';
    case 'due_date_changed':
      return day(d.newDueDate) ? `set the due date to ${day(d.newDueDate)}` : 'cleared the due date';
    case 'start_date_changed':
      return day(d.newStartDate) ? `set the start date to ${day(d.newStartDate)}` : 'cleared the start date';
    case 'moved':
      return 'moved it from another project';
    case 'label_added':
      return `added label ${String(d.name)}`;
    case 'label_removed':
      return `removed label ${String(d.name)}`;
    case 'relation_added':
      return `related ${String(d.targetKey)} (${String(d.relationType)})`;
    case 'relation_removed':
      return `removed the relation to ${String(d.targetKey)} (${String(d.relationType)})`;
    case 'comment':
      return 'commented';
    case 'comment_edited':
      return 'edited a comment';
    case 'comment_deleted':
      return 'deleted a comment';
    case 'time_entry_added':
      return d.endTime ? `logged ${seconds(d.duration)}` : 'started the timer';
    case 'time_entry_edited':
      return typeof d.oldDuration === 'number' && d.oldDuration !== d.duration
        ? `changed logged time from ${seconds(d.oldDuration)} to ${seconds(d.duration)}`
        : 'edited logged time';
    case 'time_entry_deleted':
      return `deleted ${seconds(d.duration)} of logged time`;
    default:
      // A type this app does not know yet: its own words from the API, never raw data.
      return a.content ?? 'changed the task';
  }
}

/** The task's history (GET /api/activity/:taskId, newest first): every change in words; a comment is "commented" (its text is in the comments section). */
export function TaskActivity({ workspaceId, taskId, columns }: { workspaceId: string; taskId: string; columns: Column[] }) {
  const activity = useQuery({ queryKey: ['task', taskId, 'activity'], queryFn: () => history(taskId) });
  const members = useMembers(workspaceId);
  const person = (id: unknown) => members.data?.find((m) => m.userId === id)?.user?.name ?? 'a former member';
  const column = (slug: unknown) => columns.find((c) => c.slug === slug)?.name ?? String(slug);
  const entries = activity.data ?? [];
  return (
    <section aria-labelledby="activity-h">
      <h3 id="activity-h">Activity</h3>
      {activity.isPending && <Loading what="the activity" />}
      {activity.error && <ErrorState error={activity.error} />}
      <ol className="activity">
        {entries.map((a) => (
          <li key={a.id}>
            <strong>{a.userId ? person(a.userId) : (a.externalUserName ?? 'Someone')}</strong> {sentence(a, column, person)} <time dateTime={a.createdAt}>{when(a.createdAt)}</time>
          </li>
        ))}
      </ol>
    </section>
  );
}
