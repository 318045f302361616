import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { api, must } from '../api/client';
import { useLabels, useMembers } from '../api/workspace-queries';
import type { Column, Task } from '../api/types';
import { Empty } from '../ui/States';
import { PRIORITIES, priorityName } from '../ui/format';

/** The project's tasks as a table, filtered by text, status, assignee, label, priority and due date. */
export function ListView({
  workspaceId,
  tasks: everyTask,
  columns,
  projectSlug,
  onOpen,
}: {
  workspaceId: string;
  tasks: Task[];
  columns: Column[];
  projectSlug: string;
  onOpen: (t: Task) => void;
}) {
  const members = useMembers(workspaceId);
  // Archived tasks have their own list, on the project's settings page (ArchivedTasks.tsx).
  const tasks = everyTask.filter((t) => t.status !== 'archived');
  const [text, setText] = useState('');
  const [status, setStatus] = useState('');
  const [assignee, setAssignee] = useState('');
  const [priority, setPriority] = useState('');
  const [label, setLabel] = useState('');
  const catalogue = useLabels(workspaceId);
  // The tasks that carry the chosen label (a change of a task's labels refetches it: TaskPanel.tsx).
  const carrying = useQuery({
    queryKey: ['labels', workspaceId, label, 'tasks'],
    queryFn: async () => must(await api.GET('/api/label/{id}/tasks', { params: { path: { id: label } } })),
    enabled: label !== '',
  });
  const labelled = useMemo(() => new Set(carrying.data?.taskIds), [carrying.data]);
  const [dueBefore, setDueBefore] = useState('');
  const nameOf = useMemo(() => new Map(members.data?.map((m) => [m.userId, m.user?.name ?? ''])), [members.data]);
  const shown = tasks.filter(
    (t) =>
      (!text || `${t.title} ${t.description ?? ''}`.toLowerCase().includes(text.toLowerCase())) &&
      (!status || t.status === status) &&
      (!assignee || (assignee === 'none' ? !t.userId : t.userId === assignee)) &&
      (!label || labelled.has(t.id)) &&
      (!priority || t.priority === priority) &&
      (!dueBefore || (t.dueDate !== null && t.dueDate.slice(0, 10) <= dueBefore)),
  );
  return (
    <section aria-label="Task list">
      <div className="filters">
        <label>
          Text
          <input value={text} onChange={(e) => setText(e.target.value)} type="search" />
        </label>
        <label>
          Status
          <select value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">Any</option>
            {columns.map((c) => (
              <option key={c.id} value={c.slug}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Assignee filter
          <select value={assignee} onChange={(e) => setAssignee(e.target.value)}>
            <option value="">Anyone</option>
            <option value="none">Unassigned</option>
            {members.data?.map((m) => (
              <option key={m.userId} value={m.userId}>
                {m.user?.name ?? m.userId}
              </option>
            ))}
          </select>
        </label>
        <label>
          Label filter
          <select value={label} onChange={(e) => setLabel(e.target.value)}>
            <option value="">Any</option>
            {catalogue.data?.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Priority filter
          <select value={priority} onChange={(e) => setPriority(e.target.value)}>
            <option value="">Any</option>
            {[...PRIORITIES].reverse().map((p) => (
              <option key={p} value={p}>
                {priorityName(p)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Due by
          <input type="date" value={dueBefore} onChange={(e) => setDueBefore(e.target.value)} />
        </label>
      </div>
      <p className="state" aria-live="polite">
        {shown.length} of {tasks.length} tasks
      </p>
      {shown.length === 0 ? (
        <Empty>No task matches.</Empty>
      ) : (
        <table className="task-table">
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Title</th>
              <th scope="col">Status</th>
              <th scope="col">Assignee</th>
              <th scope="col">Priority</th>
              <th scope="col">Due</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((t) => (
              <tr key={t.id}>
                <td className="key">
                  {projectSlug}-{t.number}
                </td>
                <td>
                  <button type="button" className="link" onClick={() => onOpen(t)}>
                    {t.title}
                  </button>
                </td>
                <td>{columns.find((c) => c.slug === t.status)?.name ?? t.status}</td>
                <td>{t.userId ? (nameOf.get(t.userId) ?? '') : '—'}</td>
                <td>{priorityName(t.priority)}</td>
                <td>{t.dueDate ? t.dueDate.slice(0, 10) : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
