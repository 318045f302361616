import { useQuery } from '@tanstack/react-query';
import { api, must } from '../api/client';
import type { Column } from '../api/types';
import { ErrorState, Loading } from '../ui/States';
import { priorityName, when } from '../ui/format';
import { useMembers } from '../api/workspace-queries';
import { formatDuration } from './duration';
import type { ReactNode } from 'react';
import { formatDate, t, tRich, type MessageId } from '../i18n';

type Entry = Awaited<ReturnType<typeof history>>[number];
const history = async (taskId: string) => must(await api.GET('/api/activity/{taskId}', { params: { path: { taskId } } }));

/** A date of the API (a task's dates are UTC midnights) as the reader's locale writes it (`3 Dec 2026`); null when there is none. */
const day = (iso: unknown) =>
  typeof iso === 'string' && iso && !Number.isNaN(Date.parse(iso)) ? formatDate(iso, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }) : null;
const seconds = (n: unknown) => (typeof n === 'number' ? formatDuration(n) : t('task.activity.time'));

/**
 * What an entry of the task's history says, as one sentence with `who` (the name of who did it) in
 * it (docs/records.md, "Activity").
 */
function sentence(a: Entry, who: ReactNode, column: (slug: unknown) => string, person: (id: unknown) => string): ReactNode {
  const d = a.eventData ?? {};
  const say = (id: MessageId, values: Record<string, ReactNode> = {}) => tRich(id, { who, ...values });
  switch (a.type) {
    case 'created':
      return say('task.activity.created');
    case 'imported':
      return say('task.activity.imported');
    case 'status_changed':
      return say('task.activity.statusChanged', { from: column(d.oldStatus), to: column(d.newStatus) });
    case 'priority_changed':
      return say('task.activity.priorityChanged', { from: priorityName(String(d.oldPriority)), to: priorityName(String(d.newPriority)) });
    case 'title_changed':
      return say('task.activity.titleChanged', { title: String(d.oldTitle) });
    case 'description_changed':
      return say('task.activity.descriptionChanged');
    case 'assignee_changed':
      return say('task.activity.assigned', { name: person(d.newUserId) });
    case 'unassigned':
      return say('task.activity.unassigned');
    case 'due_date_changed':
      return day(d.newDueDate) ? say('task.activity.dueSet', { day: day(d.newDueDate) }) : say('task.activity.dueCleared');
    case 'start_date_changed':
      return day(d.newStartDate) ? say('task.activity.startSet', { day: day(d.newStartDate) }) : say('task.activity.startCleared');
    case 'moved':
      return say('task.activity.moved');
    case 'label_added':
      return say('task.activity.labelAdded', { name: String(d.name) });
    case 'label_removed':
      return say('task.activity.labelRemoved', { name: String(d.name) });
    case 'relation_added':
      // `kind` is the API's relation type (subtask, blocks, related), named in the reader's language.
      return say('task.activity.relationAdded', { key: String(d.targetKey), kind: String(d.relationType) });
    case 'relation_removed':
      return say('task.activity.relationRemoved', { key: String(d.targetKey), kind: String(d.relationType) });
    case 'comment':
      return say('task.activity.comment');
    case 'comment_edited':
      return say('task.activity.commentEdited');
    case 'comment_deleted':
      return say('task.activity.commentDeleted');
    case 'time_entry_added':
      return d.endTime ? say('task.activity.logged', { duration: seconds(d.duration) }) : say('task.activity.timerStarted');
    case 'time_entry_edited':
      return typeof d.oldDuration === 'number' && d.oldDuration !== d.duration
        ? say('task.activity.timeChanged', { from: seconds(d.oldDuration), to: seconds(d.duration) })
        : say('task.activity.timeEdited');
    case 'time_entry_deleted':
      return say('task.activity.timeDeleted', { duration: seconds(d.duration) });
    default:
      // A type this app does not know yet: its own words from the API, never raw data.
      return typeof a.content === 'string' ? say('task.activity.other', { content: a.content }) : say('task.activity.changed');
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
            {sentence(a, <strong>{a.userId ? person(a.userId) : (a.externalUserName ?? t('task.taskActivity.someone'))}</strong>, column, person)}{' '}
            <time dateTime={a.createdAt}>{when(a.createdAt)}</time>
          </li>
        ))}
      </ol>
    </section>
  );
}
