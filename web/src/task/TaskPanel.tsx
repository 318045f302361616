import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api, must } from '../api/client';
import { useLabels, useMembers, useProjects } from '../api/workspace-queries';
import type { Column, Task } from '../api/types';
import { ErrorState, Loading } from '../ui/States';
import { usePermissions } from '../api/permissions';
import { navigate } from '../app/router';
import { PRIORITIES, priorityName, type Priority } from '../ui/format';
import { useSession } from '../api/session';
import { TaskActivity } from './TaskActivity';
import { TaskRelations } from './TaskRelations';
import { TaskComments } from './TaskComments';
import { TaskDescription } from './TaskDescription';

/** `2026-11-27T00:00:00.000Z` → `2026-11-27` for a date input, and back. */
const toDateInput = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : '');
const fromDateInput = (value: string) => (value ? new Date(`${value}T00:00:00.000Z`).toISOString() : null);

/** A duration in seconds as `1 h 05 min` / `4 min 10 s`. */
function duration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return h ? `${h} h ${String(m).padStart(2, '0')} min` : `${m} min ${String(s).padStart(2, '0')} s`;
}

/** An open task: its fields, labels, time, comments; move it to another project. */
export function TaskPanel(props: { workspaceId: string; taskId: string; projectSlug: string; columns: Column[]; onClose: () => void }) {
  const { workspaceId, taskId, projectSlug, columns, onClose } = props;
  const queryClient = useQueryClient();
  const can = usePermissions(workspaceId);
  const task = useQuery({ queryKey: ['task', taskId], queryFn: async () => must(await api.GET('/api/task/{id}', { params: { path: { id: taskId } } })) });
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => closeRef.current?.focus(), [taskId]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  const update = useMutation({
    mutationFn: async (body: {
      title?: string;
      description?: string;
      status?: string;
      priority?: Priority;
      startDate?: string | null;
      dueDate?: string | null;
      userId?: string | null;
    }) => must(await api.PUT('/api/task/{id}', { params: { path: { id: taskId } }, body })),
    onSuccess: async (t) => {
      queryClient.setQueryData(['task', taskId], t);
      await queryClient.invalidateQueries({ queryKey: ['tasks', t.projectId] });
      await queryClient.invalidateQueries({ queryKey: ['task', taskId, 'activity'] });
    },
  });
  const editable = can('task', 'update');

  return (
    <aside className="panel" role="dialog" aria-modal="false" aria-labelledby="task-title">
      <button type="button" ref={closeRef} className="close" onClick={onClose} aria-label="Close task">
        ×
      </button>
      {task.isPending && <Loading what="the task" />}
      {task.error && <ErrorState error={task.error} />}
      {task.data && (
        <>
          <p className="key">
            {projectSlug}-{task.data.number}
          </p>
          <TitleField task={task.data} editable={editable} onSave={(title) => update.mutate({ title })} />
          {update.error && <ErrorState error={update.error} />}
          <div className="fields">
            <label>
              Status
              <select value={task.data.status} onChange={(e) => update.mutate({ status: e.target.value })} disabled={!editable || update.isPending}>
                {columns.map((c) => (
                  <option key={c.id} value={c.slug}>
                    {c.name}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Priority
              <select value={task.data.priority} onChange={(e) => update.mutate({ priority: e.target.value as Priority })} disabled={!editable || update.isPending}>
                {PRIORITIES.map((p) => (
                  <option key={p} value={p}>
                    {priorityName(p)}
                  </option>
                ))}
              </select>
            </label>
            <AssigneeField
              workspaceId={workspaceId}
              value={task.data.userId}
              disabled={!can('task', 'assign') || update.isPending}
              onChange={(userId) => update.mutate({ userId })}
            />
            <label>
              Start date
              <input type="date" value={toDateInput(task.data.startDate)} onChange={(e) => update.mutate({ startDate: fromDateInput(e.target.value) })} disabled={!editable} />
            </label>
            <label>
              Due date
              <input type="date" value={toDateInput(task.data.dueDate)} onChange={(e) => update.mutate({ dueDate: fromDateInput(e.target.value) })} disabled={!editable} />
            </label>
          </div>
          <TaskDescription task={task.data} editable={editable} saving={update.isPending} onSave={(description) => update.mutate({ description })} />
          <Labels workspaceId={workspaceId} taskId={taskId} editable={editable} />
          <TaskRelations workspaceId={workspaceId} taskId={taskId} editable={editable} />
          <TimeEntries taskId={taskId} editable={can('task', 'update')} />
          <TaskComments workspaceId={workspaceId} taskId={taskId} canComment={editable} />
          <TaskActivity workspaceId={workspaceId} taskId={taskId} columns={columns} />
          {editable && <MoveTask workspaceId={workspaceId} task={task.data} />}
        </>
      )}
    </aside>
  );
}

function TitleField({ task, editable, onSave }: { task: Task; editable: boolean; onSave: (title: string) => void }) {
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(task.title);
  useEffect(() => setTitle(task.title), [task.title]);
  if (!editing)
    return (
      <h2 id="task-title" className="task-title">
        {task.title}{' '}
        {editable && (
          <button type="button" className="link" onClick={() => setEditing(true)} aria-label="Edit title">
            Edit
          </button>
        )}
      </h2>
    );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (title.trim() && title !== task.title) onSave(title.trim());
    setEditing(false);
  };
  return (
    <form onSubmit={submit} className="inline-form">
      <label>
        <span id="task-title">Title</span>
        <input value={title} onChange={(e) => setTitle(e.target.value)} required autoFocus />
      </label>
      <button type="submit">Save title</button>
    </form>
  );
}

function AssigneeField({ workspaceId, value, disabled, onChange }: { workspaceId: string; value: string | null; disabled: boolean; onChange: (userId: string | null) => void }) {
  const members = useMembers(workspaceId);
  return (
    <label>
      Assignee
      <select value={value ?? ''} onChange={(e) => onChange(e.target.value || null)} disabled={disabled || !members.data}>
        <option value="">Unassigned</option>
        {members.data?.map((m) => (
          <option key={m.userId} value={m.userId}>
            {m.user?.name ?? m.userId}
          </option>
        ))}
      </select>
    </label>
  );
}

function Labels({ workspaceId, taskId, editable }: { workspaceId: string; taskId: string; editable: boolean }) {
  const queryClient = useQueryClient();
  const catalogue = useLabels(workspaceId);
  const onTask = useQuery({ queryKey: ['task', taskId, 'labels'], queryFn: async () => must(await api.GET('/api/label/task/{taskId}', { params: { path: { taskId } } })) });
  // What was asked for, set in the click's own render (a controlled box would otherwise spring back until the request starts).
  const [asked, setAsked] = useState<Record<string, boolean>>({});
  const toggle = useMutation({
    mutationFn: async ({ id, on }: { id: string; on: boolean }) =>
      on
        ? must(await api.PUT('/api/label/{id}/task', { params: { path: { id } }, body: { taskId } }))
        : must(await api.DELETE('/api/label/{id}/task', { params: { path: { id } }, body: { taskId } })),
    onSettled: async (_data, _err, { id }) => {
      await queryClient.invalidateQueries({ queryKey: ['task', taskId, 'labels'] });
      // The list view's label filter reads which tasks carry which label from the workspace's list.
      await queryClient.invalidateQueries({ queryKey: ['labels', workspaceId] });
      setAsked(({ [id]: _done, ...rest }) => rest);
    },
  });
  const names = new Set(onTask.data?.map((l) => l.name));
  const catalogueLabels = catalogue.data?.filter((l) => l.taskId === null) ?? [];
  return (
    <section aria-labelledby="labels-h">
      <h3 id="labels-h">Labels</h3>
      {(catalogue.isPending || onTask.isPending) && <Loading what="labels" />}
      {catalogue.data && catalogueLabels.length === 0 && <p className="state">The workspace has no labels.</p>}
      <ul className="chips">
        {catalogueLabels.map((l) => (
          <li key={l.id}>
            <label className="chip">
              <input
                type="checkbox"
                // While the change is on its way, the box shows what was asked for.
                checked={asked[l.id] ?? names.has(l.name)}
                disabled={!editable || l.id in asked}
                onChange={(e) => {
                  const on = e.target.checked;
                  setAsked((a) => ({ ...a, [l.id]: on }));
                  toggle.mutate({ id: l.id, on });
                }}
              />
              <span style={{ borderColor: l.color }}>{l.name}</span>
            </label>
          </li>
        ))}
      </ul>
      {toggle.error && <ErrorState error={toggle.error} />}
    </section>
  );
}

function TimeEntries({ taskId, editable }: { taskId: string; editable: boolean }) {
  const queryClient = useQueryClient();
  const me = useSession().data?.user.id;
  const entries = useQuery({ queryKey: ['task', taskId, 'time'], queryFn: async () => must(await api.GET('/api/time-entry/task/{taskId}', { params: { path: { taskId } } })) });
  const running = entries.data?.find((e) => e.endTime === null && e.userId === me);
  const [, tick] = useState(0);
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, [running]);
  const start = useMutation({
    mutationFn: async () => must(await api.POST('/api/time-entry', { body: { taskId, startTime: new Date().toISOString() } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['task', taskId, 'time'] }),
  });
  const stop = useMutation({
    mutationFn: async (id: string) => must(await api.PUT('/api/time-entry/{id}', { params: { path: { id } }, body: { endTime: new Date().toISOString() } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['task', taskId, 'time'] }),
  });
  const total = entries.data?.reduce((n, e) => n + (e.endTime ? e.duration : 0), 0) ?? 0;
  return (
    <section aria-labelledby="time-h">
      <h3 id="time-h">Time</h3>
      {entries.isPending && <Loading what="time entries" />}
      {entries.error && <ErrorState error={entries.error} />}
      {entries.data && <p>Logged: {duration(total)}</p>}
      {running ? (
        <p>
          <span role="timer" aria-live="off">
            Running: {duration(Math.max(0, Math.floor((Date.now() - Date.parse(running.startTime)) / 1000)))}
          </span>{' '}
          <button type="button" onClick={() => stop.mutate(running.id)} disabled={stop.isPending}>
            Stop timer
          </button>
        </p>
      ) : (
        editable && (
          <button type="button" onClick={() => start.mutate()} disabled={start.isPending}>
            Start timer
          </button>
        )
      )}
      {(start.error ?? stop.error) && <ErrorState error={start.error ?? stop.error} />}
      <ul className="entries">
        {entries.data
          ?.filter((e) => e.endTime)
          .map((e) => (
            <li key={e.id}>
              {new Date(e.startTime).toLocaleString()} — {duration(e.duration)}
              {e.description ? `: ${e.description}` : ''}
            </li>
          ))}
      </ul>
    </section>
  );
}

function MoveTask({ workspaceId, task }: { workspaceId: string; task: Task }) {
  const queryClient = useQueryClient();
  const projects = useProjects(workspaceId);
  const [to, setTo] = useState('');
  const move = useMutation({
    mutationFn: async () => must(await api.PUT('/api/task/move/{id}', { params: { path: { id: task.id } }, body: { destinationProjectId: to } })),
    onSuccess: async (r) => {
      await queryClient.invalidateQueries({ queryKey: ['tasks'] });
      navigate(`/w/${workspaceId}/p/${r.destinationProjectId}/t/${r.task.id}`);
    },
  });
  const others = projects.data?.filter((p) => p.id !== task.projectId) ?? [];
  if (!others.length) return null;
  return (
    <section aria-labelledby="move-h">
      <h3 id="move-h">Move to another project</h3>
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (to) move.mutate();
        }}
      >
        <label>
          Destination project
          <select value={to} onChange={(e) => setTo(e.target.value)}>
            <option value="">Choose…</option>
            {others.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={!to || move.isPending}>
          Move task
        </button>
      </form>
      {move.error && <ErrorState error={move.error} />}
    </section>
  );
}
