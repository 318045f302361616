import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { allPages, api, must } from '../api/client';
import type { Task } from '../api/types';
import { useColumns } from '../api/workspace-queries';
import { Empty, ErrorState, Loading } from '../ui/States';
import { unarchive } from '../task/TaskActions';
import { t as tr } from '../i18n';

/** Every archived task of a project, a page of 100 at a time (the API's largest). */
function archivedTasks(projectId: string): Promise<Task[]> {
  return allPages(async (page) =>
    must(await api.GET('/api/task/tasks/{projectId}', { params: { path: { projectId }, query: { status: 'archived', page, limit: 100, sortBy: 'number', sortOrder: 'asc' } } })),
  );
}

/**
 * The project's archived tasks (on the settings page): archived from the task panel, they leave
 * the board and the list; "Restore" (with task:update) puts one back at the end of the first column.
 */
export function ArchivedTasks({ projectId, projectSlug, canRestore }: { projectId: string; projectSlug: string; canRestore: boolean }) {
  const queryClient = useQueryClient();
  const columns = useColumns(projectId);
  // Under ['tasks', projectId], so that whatever refreshes the board (an archive, an undo) refreshes this too.
  const tasks = useQuery({ queryKey: ['tasks', projectId, 'archived'], queryFn: () => archivedTasks(projectId) });
  const [restoring, setRestoring] = useState<string | null>(null);
  const first = columns.data?.[0];
  return (
    <section className="section" aria-labelledby="settings-archived-h">
      <h2 id="settings-archived-h">{tr('board.archivedTasks.archivedTasks')}</h2>
      <p className="muted">
        {tr('board.archivedTasks.archivedTasksAreKeptBut')}
        {first && canRestore ? tr('board.archivedTasks.restoringOnePutsItAt', { name: first.name }) : ''}
      </p>
      {tasks.isPending && <Loading what={tr('board.archivedTasks.archivedTasks2')} />}
      {tasks.error && <ErrorState error={tasks.error} />}
      {tasks.data?.length === 0 && <Empty>{tr('board.archivedTasks.noArchivedTasks')}</Empty>}
      {tasks.data && tasks.data.length > 0 && (
        <ul className="rows" aria-label={tr('board.archivedTasks.archivedTasks')}>
          {tasks.data.map((t) => {
            const key = `${projectSlug}-${t.number}`;
            return (
              <li key={t.id} className="row">
                <span className="row-main">
                  <span className="key">{key}</span> {t.title}
                </span>
                {canRestore && first && (
                  <button
                    type="button"
                    className="secondary"
                    aria-label={tr('board.archivedTasks.restore2', { key })}
                    disabled={restoring !== null}
                    onClick={() => {
                      setRestoring(t.id);
                      void unarchive(queryClient, t, first.slug, key).finally(() => setRestoring(null));
                    }}
                  >
                    {tr('board.archivedTasks.restore')}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
