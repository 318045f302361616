import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { allPages, api, must } from '../api/client';
import { useLiveEvents } from '../api/live';
import type { Column, Project, Task } from '../api/types';
import { useProjects } from '../api/workspace-queries';
import { dayOf } from '../board/filters';
import { PriorityAndDue } from '../board/TaskChips';
import { Header } from '../shell/Header';
import { AppLink } from '../ui/AppLink';
import { Empty, ErrorState, Loading } from '../ui/States';
import { toast } from '../ui/toast';
import { formatNumber, t as tr } from '../i18n';

/** At most this many of the caller's tasks are shown (five pages of the API's largest). */
const MAX_TASKS = 500;

/** The caller's tasks in the workspace (GET /api/task/mine), soonest due first, a page of 100 at a time. */
function myTasks(workspaceId: string): Promise<Task[]> {
  return allPages(async (page) => must(await api.GET('/api/task/mine', { params: { query: { workspaceId, page, limit: 100, sortBy: 'dueDate', sortOrder: 'asc' } } })), MAX_TASKS);
}

type Group = 'overdue' | 'today' | 'week' | 'later' | 'none';
const GROUPS: { id: Group }[] = [{ id: 'overdue' }, { id: 'today' }, { id: 'week' }, { id: 'later' }, { id: 'none' }];

/** The last day (Sunday) of the week of `now`, weeks starting on Monday. */
function endOfWeek(now: Date): string {
  const d = new Date(now);
  d.setDate(d.getDate() + ((7 - d.getDay()) % 7));
  return dayOf(d);
}

/** Which group a task's due date puts it in: before today, today, by Sunday, after, none. */
function groupOf(t: Task, today: string, weekEnd: string): Group {
  const due = t.dueDate?.slice(0, 10);
  if (!due) return 'none';
  if (due < today) return 'overdue';
  if (due === today) return 'today';
  return due <= weekEnd ? 'week' : 'later';
}

/**
 * My work (docs/web.md, "My work"): the tasks assigned to you across the workspace's projects,
 * grouped by when they are due, each with its project, priority and due date, its status to change
 * in place, and a link that opens it on its board. Done and archived tasks are left out unless asked
 * for. Follows the workspace's live events.
 */
export function MyWorkPage({ workspaceId }: { workspaceId: string }) {
  useLiveEvents(workspaceId);
  const projects = useProjects(workspaceId);
  const tasks = useQuery({ queryKey: ['my-work', workspaceId], queryFn: () => myTasks(workspaceId) });
  const [showDone, setShowDone] = useState(false);
  const projectIds = useMemo(() => [...new Set(tasks.data?.map((t) => t.projectId))], [tasks.data]);
  const columnQueries = useQueries({
    queries: projectIds.map((projectId) => ({
      queryKey: ['columns', projectId],
      queryFn: async () => must(await api.GET('/api/column/{projectId}', { params: { path: { projectId } } })),
    })),
  });
  const columnsOf = new Map<string, Column[]>(projectIds.map((id, i) => [id, columnQueries[i]?.data ?? []]));
  const projectOf = new Map<string, Project>(projects.data?.map((p) => [p.id, p]));
  const isDone = (t: Task) => t.status === 'archived' || !!columnsOf.get(t.projectId)?.find((c) => c.slug === t.status)?.isFinal;

  const now = new Date();
  const today = dayOf(now);
  const weekEnd = endOfWeek(now);
  const shown = (tasks.data ?? []).filter((t) => t.status !== 'archived' && (showDone || !isDone(t)));
  const hidden = (tasks.data?.length ?? 0) - shown.length;
  const loading = tasks.isPending || projects.isPending;
  return (
    <>
      <Header workspaceId={workspaceId} />
      <main id="main" tabIndex={-1} className="page my-work">
        <div className="page-head">
          <h1>{tr('views.myWorkPage.myWork')}</h1>
          <label className="check">
            <input type="checkbox" checked={showDone} onChange={(e) => setShowDone(e.target.checked)} />
            {tr('views.myWorkPage.showDoneTasks')}
          </label>
        </div>
        <p className="muted">{tr('views.myWorkPage.tasksAssignedToYouIn')}</p>
        {loading && <Loading what={tr('views.myWorkPage.yourTasks')} />}
        {tasks.error && <ErrorState error={tasks.error} />}
        {!loading && tasks.data && shown.length === 0 && (
          <Empty>{hidden > 0 ? tr('views.myWorkPage.nothingOpenIsAssignedTo') : tr('views.myWorkPage.nothingIsAssignedToYou')}</Empty>
        )}
        {!loading &&
          GROUPS.map((g) => {
            const inGroup = shown.filter((t) => groupOf(t, today, weekEnd) === g.id);
            if (!inGroup.length) return null;
            return (
              <section key={g.id} className="my-work-group" aria-labelledby={`mw-${g.id}`}>
                <h2 id={`mw-${g.id}`}>
                  {tr(`views.myWork.group.${g.id}`)} <span className="count">{formatNumber(inGroup.length)}</span>
                </h2>
                <ul className="rows" aria-label={tr(`views.myWork.group.${g.id}`)}>
                  {inGroup.map((t) => (
                    <MyTask key={t.id} workspaceId={workspaceId} task={t} project={projectOf.get(t.projectId)} columns={columnsOf.get(t.projectId) ?? []} />
                  ))}
                </ul>
              </section>
            );
          })}
        {tasks.data && tasks.data.length >= MAX_TASKS && <p className="muted">{tr('views.myWorkPage.firstTasks', { max: MAX_TASKS })}</p>}
      </main>
    </>
  );
}

/** One task of My work: key and title (opens it on its board), its project, chips, and its status to change. */
function MyTask({ workspaceId, task, project, columns }: { workspaceId: string; task: Task; project: Project | undefined; columns: Column[] }) {
  const queryClient = useQueryClient();
  const key = project ? `${project.slug}-${task.number}` : `#${task.number}`;
  const setStatus = useMutation({
    mutationFn: async (status: string) => must(await api.PUT('/api/task/status/{id}', { params: { path: { id: task.id } }, body: { status } })),
    // Shown at once; back as it was, with the service's message, if refused.
    onMutate: async (status) => {
      await queryClient.cancelQueries({ queryKey: ['my-work', workspaceId] });
      const before = queryClient.getQueryData<Task[]>(['my-work', workspaceId]);
      queryClient.setQueryData<Task[]>(['my-work', workspaceId], (list) => list?.map((t) => (t.id === task.id ? { ...t, status } : t)));
      return { before };
    },
    onError: (err, _status, ctx) => {
      if (ctx?.before) queryClient.setQueryData(['my-work', workspaceId], ctx.before);
      toast.show({ title: tr('views.myWorkPage.couldNotChange', { key }), description: err instanceof Error ? err.message : String(err), tone: 'error' });
    },
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: ['my-work', workspaceId] }), queryClient.invalidateQueries({ queryKey: ['tasks', task.projectId] })]),
  });
  return (
    <li className="row my-work-task" data-task={task.id}>
      <div className="row-main">
        <AppLink to={`/w/${workspaceId}/p/${task.projectId}/t/${task.id}`} className="my-work-open" data-task-open>
          <span className="key">{key}</span> <span className="card-title">{task.title}</span>
        </AppLink>
        <span className="card-meta">
          <span className="muted">{project?.name ?? tr('views.myWorkPage.aProject')}</span>
          <PriorityAndDue task={task} />
        </span>
      </div>
      {columns.length > 0 && (
        <select
          className="compact"
          aria-label={tr('views.myWorkPage.statusOf', { key })}
          value={task.status}
          onChange={(e) => setStatus.mutate(e.target.value)}
          disabled={setStatus.isPending}
        >
          {columns.map((c) => (
            <option key={c.id} value={c.slug}>
              {c.name}
            </option>
          ))}
          {!columns.some((c) => c.slug === task.status) && <option value={task.status}>{task.status}</option>}
        </select>
      )}
    </li>
  );
}
