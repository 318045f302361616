import { useMemo } from 'react';
import { useMembers } from '../api/workspace-queries';
import type { Column, Task } from '../api/types';
import { Empty } from '../ui/States';
import { priorityName } from '../ui/format';

/** The project's tasks (filtered and sorted by the filter bar) as a table. */
export function ListView({
  workspaceId,
  shown,
  columns,
  projectSlug,
  onOpen,
}: {
  workspaceId: string;
  shown: Task[];
  columns: Column[];
  projectSlug: string;
  onOpen: (t: Task) => void;
}) {
  const members = useMembers(workspaceId);
  const nameOf = useMemo(() => new Map(members.data?.map((m) => [m.userId, m.user?.name ?? ''])), [members.data]);
  return (
    <section aria-label="Task list">
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
