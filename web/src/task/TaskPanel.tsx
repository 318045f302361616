import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api, must } from '../api/client';
import { useMembers, useProjects } from '../api/workspace-queries';
import type { Column, Task } from '../api/types';
import { ErrorState, Loading } from '../ui/States';
import { usePermissions } from '../api/permissions';
import { navigate } from '../app/router';
import { PRIORITIES, priorityName, type Priority } from '../ui/format';
import { TaskActivity } from './TaskActivity';
import { TaskRelations } from './TaskRelations';
import { TaskLabels } from './TaskLabels';
import { TaskActions } from './TaskActions';
import { TaskTime } from './TaskTime';
import { TaskComments } from './TaskComments';
import { TaskDescription } from './TaskDescription';
import { TaskAttachments } from './TaskAttachments';
import { TaskWatch } from './TaskWatch';
import { takeTitleEdit, watchTitleEdit } from './edit-request';
import { toast } from '../ui/toast';
import { t as tr } from '../i18n';

/** `2026-11-27T00:00:00.000Z` → `2026-11-27` for a date input, and back. */
const toDateInput = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : '');
const fromDateInput = (value: string) => (value ? new Date(`${value}T00:00:00.000Z`).toISOString() : null);

/** An open task: its fields, labels, time, comments; move it to another project. */
export function TaskPanel(props: { workspaceId: string; projectId: string; taskId: string; projectSlug: string; columns: Column[]; onClose: () => void }) {
  const { workspaceId, projectId, taskId, projectSlug, columns, onClose } = props;
  const queryClient = useQueryClient();
  const can = usePermissions(workspaceId);
  const task = useQuery({ queryKey: ['task', taskId], queryFn: async () => must(await api.GET('/api/task/{id}', { params: { path: { id: taskId } } })) });
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => closeRef.current?.focus(), [taskId]);
  // A task of another project (moved since the address was made): its own board, in place of this one.
  const movedTo = task.data && task.data.projectId !== projectId ? task.data.projectId : null;
  useEffect(() => {
    if (movedTo) navigate(`/w/${workspaceId}/p/${movedTo}/t/${taskId}`, true);
  }, [movedTo, workspaceId, taskId]);
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
      <button type="button" ref={closeRef} className="close" onClick={onClose} aria-label={tr('task.taskPanel.closeTask')}>
        ×
      </button>
      {task.isPending && <Loading what={tr('task.taskPanel.theTask')} />}
      {task.error && <ErrorState error={task.error} />}
      {task.data && (
        <>
          <div className="panel-head">
            <p className="key">
              {projectSlug}-{task.data.number}
            </p>
            <div className="panel-tools">
              <TaskWatch taskId={taskId} />
              <TaskActions workspaceId={workspaceId} task={task.data} taskKey={`${projectSlug}-${task.data.number}`} onClose={onClose} />
            </div>
          </div>
          <TitleField task={task.data} editable={editable} onSave={(title) => update.mutate({ title })} />
          {update.error && <ErrorState error={update.error} />}
          <div className="fields">
            <label>
              {tr('task.taskPanel.status')}
              <select value={task.data.status} onChange={(e) => update.mutate({ status: e.target.value })} disabled={!editable || update.isPending}>
                {columns.map((c) => (
                  <option key={c.id} value={c.slug}>
                    {c.name}
                  </option>
                ))}
              </select>
            </label>
            <label>
              {tr('task.taskPanel.priority')}
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
              {tr('task.taskPanel.startDate')}
              <input type="date" value={toDateInput(task.data.startDate)} onChange={(e) => update.mutate({ startDate: fromDateInput(e.target.value) })} disabled={!editable} />
            </label>
            <label>
              {tr('task.taskPanel.dueDate')}
              <input type="date" value={toDateInput(task.data.dueDate)} onChange={(e) => update.mutate({ dueDate: fromDateInput(e.target.value) })} disabled={!editable} />
            </label>
          </div>
          <TaskDescription workspaceId={workspaceId} task={task.data} editable={editable} saving={update.isPending} onSave={(description) => update.mutate({ description })} />
          <TaskAttachments taskId={taskId} editable={editable} />
          <TaskLabels workspaceId={workspaceId} taskId={taskId} editable={editable} />
          <TaskRelations workspaceId={workspaceId} taskId={taskId} editable={editable} />
          <TaskTime workspaceId={workspaceId} taskId={taskId} editable={can('task', 'update')} />
          <TaskComments workspaceId={workspaceId} taskId={taskId} canComment={editable} />
          <TaskActivity workspaceId={workspaceId} taskId={taskId} columns={columns} />
          {editable && <MoveTask workspaceId={workspaceId} task={task.data} taskKey={`${projectSlug}-${task.data.number}`} />}
        </>
      )}
    </aside>
  );
}

function TitleField({ task, editable, onSave }: { task: Task; editable: boolean; onSave: (title: string) => void }) {
  // Opened for editing by the `e` shortcut (edit-request.ts), before or while the panel shows the task.
  const [editing, setEditing] = useState(() => editable && takeTitleEdit(task.id));
  const [title, setTitle] = useState(task.title);
  useEffect(() => setTitle(task.title), [task.title]);
  useEffect(() => (editable ? watchTitleEdit(task.id, () => setEditing(true)) : undefined), [task.id, editable]);
  if (!editing)
    return (
      <h2 id="task-title" className="task-title">
        {task.title}{' '}
        {editable && (
          <button type="button" className="link" onClick={() => setEditing(true)} aria-label={tr('task.taskPanel.editTitle')}>
            {tr('task.taskPanel.edit')}
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
        <span id="task-title">{tr('task.taskPanel.title')}</span>
        <input value={title} onChange={(e) => setTitle(e.target.value)} required autoFocus />
      </label>
      <button type="submit">{tr('task.taskPanel.saveTitle')}</button>
    </form>
  );
}

function AssigneeField({ workspaceId, value, disabled, onChange }: { workspaceId: string; value: string | null; disabled: boolean; onChange: (userId: string | null) => void }) {
  const members = useMembers(workspaceId);
  return (
    <label>
      {tr('task.taskPanel.assignee')}
      <select value={value ?? ''} onChange={(e) => onChange(e.target.value || null)} disabled={disabled || !members.data}>
        <option value="">{tr('task.taskPanel.unassigned')}</option>
        {members.data?.map((m) => (
          <option key={m.userId} value={m.userId}>
            {m.user?.name ?? m.userId}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * Moves the task to another project of the workspace: the panel then shows it on that project's
 * board, with its new key (the old one still finds it: search, and links made before the move).
 */
function MoveTask({ workspaceId, task, taskKey }: { workspaceId: string; task: Task; taskKey: string }) {
  const queryClient = useQueryClient();
  const projects = useProjects(workspaceId);
  const [to, setTo] = useState('');
  const move = useMutation({
    mutationFn: async () => must(await api.PUT('/api/task/move/{id}', { params: { path: { id: task.id } }, body: { destinationProjectId: to } })),
    onSuccess: async (r) => {
      // The panel shows the moved task at once (its project, number and status are new), not the one before.
      queryClient.setQueryData(['task', r.task.id], r.task);
      const destination = projects.data?.find((p) => p.id === r.destinationProjectId);
      navigate(`/w/${workspaceId}/p/${r.destinationProjectId}/t/${r.task.id}`);
      toast.show({
        title: destination ? tr('task.taskPanel.movedTo', { taskKey, project: destination.name }) : tr('task.taskPanel.movedToAnotherProject', { taskKey }),
        description: destination ? tr('task.taskPanel.itIsNowStillFinds', { slug: destination.slug, number: r.task.number, taskKey }) : undefined,
      });
      // Both boards (and their cards' details, kept under the same key) and the task's own views.
      await Promise.all([queryClient.invalidateQueries({ queryKey: ['tasks'] }), queryClient.invalidateQueries({ queryKey: ['task', r.task.id] })]);
    },
  });
  const others = projects.data?.filter((p) => p.id !== task.projectId) ?? [];
  if (!others.length) return null;
  return (
    <section aria-labelledby="move-h">
      <h3 id="move-h">{tr('task.taskPanel.moveToAnotherProject')}</h3>
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (to) move.mutate();
        }}
      >
        <label>
          {tr('task.taskPanel.destinationProject')}
          <select value={to} onChange={(e) => setTo(e.target.value)}>
            <option value="">{tr('task.taskPanel.choose')}</option>
            {others.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={!to || move.isPending}>
          {tr('task.taskPanel.moveTask')}
        </button>
      </form>
      {move.error && <ErrorState error={move.error} />}
    </section>
  );
}
