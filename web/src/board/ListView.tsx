import { useMemo } from 'react';
import { useMembers } from '../api/workspace-queries';
import type { Column, Task } from '../api/types';
import { Empty } from '../ui/States';
import { priorityName } from '../ui/format';
import type { SelectHow } from './board-keys';
import { t as tr } from '../i18n';

/** The project's tasks (filtered and sorted by the filter bar) as a table. */
export function ListView({
  workspaceId,
  shown,
  columns,
  projectSlug,
  onOpen,
  isSelected,
  onSelect,
  onSelectAll,
}: {
  workspaceId: string;
  shown: Task[];
  columns: Column[];
  projectSlug: string;
  onOpen: (t: Task) => void;
  isSelected: (id: string) => boolean;
  onSelect: (id: string, how: SelectHow) => void;
  onSelectAll: (all: boolean) => void;
}) {
  const members = useMembers(workspaceId);
  const nameOf = useMemo(() => new Map(members.data?.map((m) => [m.userId, m.user?.name ?? ''])), [members.data]);
  const count = shown.filter((t) => isSelected(t.id)).length;
  return (
    <section aria-label={tr('board.listView.taskList')}>
      {shown.length === 0 ? (
        <Empty>{tr('board.listView.noTaskMatches')}</Empty>
      ) : (
        <table className="task-table">
          <thead>
            <tr>
              <th scope="col" className="select-col">
                <input
                  type="checkbox"
                  className="select-task"
                  aria-label={tr('board.listView.selectEveryTaskShown')}
                  checked={count > 0 && count === shown.length}
                  ref={(el) => {
                    if (el) el.indeterminate = count > 0 && count < shown.length;
                  }}
                  onChange={(e) => onSelectAll(e.target.checked)}
                />
              </th>
              <th scope="col">{tr('board.listView.key')}</th>
              <th scope="col">{tr('board.listView.title')}</th>
              <th scope="col">{tr('board.listView.status')}</th>
              <th scope="col">{tr('board.listView.assignee')}</th>
              <th scope="col">{tr('board.listView.priority')}</th>
              <th scope="col">{tr('board.listView.due')}</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((t) => (
              <tr key={t.id} data-task={t.id} className={isSelected(t.id) ? 'selected' : undefined}>
                <td className="select-col">
                  <input
                    type="checkbox"
                    className="select-task"
                    checked={isSelected(t.id)}
                    aria-label={tr('board.listView.select', { projectSlug, number: t.number })}
                    onClick={(e) => onSelect(t.id, e.shiftKey ? 'range' : 'toggle')}
                    onChange={() => undefined}
                  />
                </td>
                <td className="key">
                  {projectSlug}-{t.number}
                </td>
                <td>
                  <button
                    type="button"
                    className="link"
                    data-task-open
                    onClick={(e) => (e.shiftKey ? onSelect(t.id, 'range') : e.ctrlKey || e.metaKey ? onSelect(t.id, 'toggle') : onOpen(t))}
                  >
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
