import { useQuery } from '@tanstack/react-query';
import { api, must } from '../api/client';
import type { Column } from '../api/types';
import { ErrorState, Loading } from '../ui/States';
import { priorityName, when } from '../ui/format';
import { useMembers } from '../api/workspace-queries';

type Entry = Awaited<ReturnType<typeof history>>[number];
const history = async (taskId: string) => must(await api.GET('/api/activity/{taskId}', { params: { path: { taskId } } }));

const day = (iso: unknown) => (typeof iso === 'string' && iso ? iso.slice(0, 10) : null);

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
    case 'moved':
      return 'moved it from another project';
    default:
      return a.type;
  }
}

/** The task's history (GET /api/activity/:taskId, newest first) without its comments, which have their own section. */
export function TaskActivity({ workspaceId, taskId, columns }: { workspaceId: string; taskId: string; columns: Column[] }) {
  const activity = useQuery({ queryKey: ['task', taskId, 'activity'], queryFn: () => history(taskId) });
  const members = useMembers(workspaceId);
  const person = (id: unknown) => members.data?.find((m) => m.userId === id)?.user?.name ?? 'a former member';
  const column = (slug: unknown) => columns.find((c) => c.slug === slug)?.name ?? String(slug);
  const entries = activity.data?.filter((a) => a.type !== 'comment') ?? [];
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
