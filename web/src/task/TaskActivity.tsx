import { useQuery } from '@tanstack/react-query';
import { api, must } from '../api/client';
import type { Column } from '../api/types';
import { ErrorState, Loading } from '../ui/States';
import { priorityName, when } from '../ui/format';
import { useMembers } from '../api/workspace-queries';
import { formatDuration } from './duration';
import { formatDate, t } from '../i18n';

type Entry = Awaited<ReturnType<typeof history>>[number];
const history = async (taskId: string) => must(await api.GET('/api/activity/{taskId}', { params: { path: { taskId } } }));

/** A date of the API (a task's dates are UTC midnights) as the reader's locale writes it (`3 Dec 2026`); null when there is none. */
const day = (iso: unknown) =>
  typeof iso === 'string' && iso && !Number.isNaN(Date.parse(iso)) ? formatDate(iso, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }) : null;
const seconds = (n: unknown) => (typeof n === 'number' ? formatDuration(n) : t('task.activity.time'));

/** What an entry of the task's history says, after the name of who did it (docs/records.md, "Activity"). */
function sentence(a: Entry, column: (slug: unknown) => string, person: (id: unknown) => string): string {
  const d = a.eventData ?? {};
  switch (a.type) {
    case 'created':
      return t('task.activity.created');
    case 'imported':
      return t('task.activity.imported');
    case 'status_changed':
      return t('task.activity.statusChanged', { from: column(d.oldStatus), to: column(d.newStatus) });
    case 'priority_changed':
      return t('task.activity.priorityChanged', { from: priorityName(String(d.oldPriority)), to: priorityName(String(d.newPriority)) });
    case 'title_changed':
      return t('task.activity.titleChanged', { title: String(d.oldTitle) });
    case 'description_changed':
      return t('task.activity.descriptionChanged');
    case 'assignee_changed':
      return t('task.activity.assigned', { name: person(d.newUserId) });
    case 'unassigned':
      return t('task.activity.unassigned');
    case 'due_date_changed':
      return day(d.newDueDate) ? t('task.activity.dueSet', { day: day(d.newDueDate) }) : t('task.activity.dueCleared');
    case 'start_date_changed':
      return day(d.newStartDate) ? t('task.activity.startSet', { day: day(d.newStartDate) }) : t('task.activity.startCleared');
    case 'moved':
      return t('task.activity.moved');
    case 'label_added':
      return t('task.activity.labelAdded', { name: String(d.name) });
    case 'label_removed':
      return t('task.activity.labelRemoved', { name: String(d.name) });
    case 'relation_added':
      return t('task.activity.relationAdded', { key: String(d.targetKey), kind: String(d.relationType) });
    case 'relation_removed':
      return t('task.activity.relationRemoved', { key: String(d.targetKey), kind: String(d.relationType) });
    case 'comment':
      return t('task.activity.comment');
    case 'comment_edited':
      return t('task.activity.commentEdited');
    case 'comment_deleted':
      return t('task.activity.commentDeleted');
    case 'time_entry_added':
      return d.endTime ? t('task.activity.logged', { duration: seconds(d.duration) }) : t('task.activity.timerStarted');
    case 'time_entry_edited':
      return typeof d.oldDuration === 'number' && d.oldDuration !== d.duration
        ? t('task.activity.timeChanged', { from: seconds(d.oldDuration), to: seconds(d.duration) })
        : t('task.activity.timeEdited');
    case 'time_entry_deleted':
      return t('task.activity.timeDeleted', { duration: seconds(d.duration) });
    default:
      // A type this app does not know yet: its own words from the API, never raw data.
      return a.content ?? t('task.activity.changed');
  }
}

/** The task's history (GET /api/activity/:taskId, newest first): every change in words; a comment is "commented" (its text is in the comments section). */
export function TaskActivity({ workspaceId, taskId, columns }: { workspaceId: string; taskId: string; columns: Column[] }) {
  const activity = useQuery({ queryKey: ['task', taskId, 'activity'], queryFn: () => history(taskId) });
  const members = useMembers(workspaceId);
  const person = (id: unknown) => members.data?.find((m) => m.userId === id)?.user?.name ?? t('task.activity.formerMember');
  const column = (slug: unknown) => columns.find((c) => c.slug === slug)?.name ?? String(slug);
  const entries = activity.data ?? [];
  return (
    <section aria-labelledby="activity-h">
      <h3 id="activity-h">{t('task.taskActivity.activity')}</h3>
      {activity.isPending && <Loading what={t('task.taskActivity.theActivity')} />}
      {activity.error && <ErrorState error={activity.error} />}
      <ol className="activity">
        {entries.map((a) => (
          <li key={a.id}>
            <strong>{a.userId ? person(a.userId) : (a.externalUserName ?? t('task.taskActivity.someone'))}</strong> {sentence(a, column, person)}{' '}
            <time dateTime={a.createdAt}>{when(a.createdAt)}</time>
          </li>
        ))}
      </ol>
    </section>
  );
}
