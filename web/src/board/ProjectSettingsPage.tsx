import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { api, must } from '../api/client';
import type { Column, Project } from '../api/types';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { BackToBoard } from '../ui/BackToBoard';
import { Header } from '../shell/Header';
import { Empty, ErrorState, Loading } from '../ui/States';
import { usePermissions } from '../api/permissions';
import { navigate } from '../app/router';
import { useColumns, useProject } from '../api/workspace-queries';
import { LabelManager } from './LabelManager';
import { ArchivedTasks } from './ArchivedTasks';

/**
 * A project's settings (docs/api.md, "project" and "column"): its name, key, description and
 * public board, its columns, the workspace's labels (LabelManager.tsx), its archived tasks, archiving and deleting. The controls are offered only with the
 * permissions the routes declare: project:update, and project:delete to delete.
 */
export function ProjectSettingsPage({ workspaceId, projectId }: { workspaceId: string; projectId: string }) {
  const can = usePermissions(workspaceId);
  const project = useProject(projectId);
  const canUpdate = can('project', 'update');
  return (
    <>
      <Header workspaceId={workspaceId} title={project.data ? `${project.data.name}: settings` : 'Project settings'} />
      <main id="main" tabIndex={-1} className="page settings-page">
        <BackToBoard workspaceId={workspaceId} projectId={projectId} />
        {project.isPending && <Loading what="the project" />}
        {project.error && <ErrorState error={project.error} />}
        {project.data && (
          <>
            {!canUpdate && <p className="muted">Your roles let you see these settings, not change them.</p>}
            <Details project={project.data} canUpdate={canUpdate} />
            <Columns projectId={projectId} canUpdate={canUpdate} />
            <LabelManager workspaceId={workspaceId} />
            <ArchivedTasks projectId={projectId} projectSlug={project.data.slug} canRestore={can('task', 'update')} />
            <Lifecycle project={project.data} workspaceId={workspaceId} canUpdate={canUpdate} canDelete={can('project', 'delete')} />
          </>
        )}
      </main>
    </>
  );
}

function Details({ project, canUpdate }: { project: Project; canUpdate: boolean }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(project.name);
  const [slug, setSlug] = useState(project.slug);
  const [description, setDescription] = useState(project.description ?? '');
  const [isPublic, setPublic] = useState(project.isPublic);
  const save = useMutation({
    mutationFn: async () =>
      must(await api.PUT('/api/project/{id}', { params: { path: { id: project.id } }, body: { name, slug, description: description.trim() ? description : null, isPublic } })),
    onSuccess: async (p) => {
      queryClient.setQueryData(['project', project.id], p);
      await queryClient.invalidateQueries({ queryKey: ['projects', project.workspaceId] });
    },
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <section className="section" aria-labelledby="settings-details-h">
      <h2 id="settings-details-h">Project</h2>
      <form className="stack narrow" onSubmit={onSubmit}>
        <fieldset disabled={!canUpdate} className="settings-fields">
          <legend className="visually-hidden">Project details</legend>
          <label>
            Project name
            <input value={name} onChange={(e) => setName(e.target.value)} required />
          </label>
          <label>
            Task key
            <input value={slug} onChange={(e) => setSlug(e.target.value)} required maxLength={64} aria-describedby="settings-key-hint" />
            <span id="settings-key-hint" className="hint">
              Tasks are numbered with it, like {slug || 'KEY'}-12: letters or digits, dashes and underscores inside.
            </span>
          </label>
          <label>
            Description
            <textarea value={description} onChange={(e) => setDescription(e.target.value)} rows={3} />
          </label>
          <label className="check">
            <input type="checkbox" checked={isPublic} onChange={(e) => setPublic(e.target.checked)} />
            Public board (anyone with the link can read it)
          </label>
        </fieldset>
        {save.error && <ErrorState error={save.error} />}
        {save.isSuccess && (
          <p className="state" role="status">
            Project saved.
          </p>
        )}
        {canUpdate && (
          <button type="submit" disabled={save.isPending}>
            Save project
          </button>
        )}
      </form>
    </section>
  );
}

/** The board's columns: add, rename, move left or right (PUT /api/column/reorder), delete an empty one. */
function Columns({ projectId, canUpdate }: { projectId: string; canUpdate: boolean }) {
  const queryClient = useQueryClient();
  const columns = useColumns(projectId);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['columns', projectId] });
  const [name, setName] = useState('');
  const [focus, setFocus] = useState<{ id: string; dir: 'left' | 'right' } | null>(null);

  const add = useMutation({
    mutationFn: async () => must(await api.POST('/api/column/{projectId}', { params: { path: { projectId } }, body: { name } })),
    onSuccess: async () => {
      setName('');
      await refresh();
    },
  });
  const reorder = useMutation({
    mutationFn: async (order: Column[]) =>
      must(await api.PUT('/api/column/reorder/{projectId}', { params: { path: { projectId } }, body: { columns: order.map((c, position) => ({ id: c.id, position })) } })),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: async (id: string) => must(await api.DELETE('/api/column/{id}', { params: { path: { id } } })),
    onSettled: refresh,
  });

  // A moved column's button keeps the focus (or its other button, at either end of the board).
  useEffect(() => {
    if (!focus || reorder.isPending) return;
    const el = document.getElementById(`settings-move-${focus.dir}-${focus.id}`) as HTMLButtonElement | null;
    const other = document.getElementById(`settings-move-${focus.dir === 'left' ? 'right' : 'left'}-${focus.id}`) as HTMLButtonElement | null;
    (el && !el.disabled ? el : other)?.focus();
  }, [focus, reorder.isPending, columns.data]);

  const move = (index: number, dir: 'left' | 'right') => {
    const list = [...(columns.data ?? [])];
    const to = dir === 'left' ? index - 1 : index + 1;
    const [c] = list.splice(index, 1);
    list.splice(to, 0, c!);
    remove.reset();
    setFocus({ id: c!.id, dir });
    reorder.mutate(list);
  };

  const onAdd = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim()) add.mutate();
  };
  const list = columns.data ?? [];
  return (
    <section className="section" aria-labelledby="settings-columns-h">
      <h2 id="settings-columns-h">Columns</h2>
      <p className="muted">The board shows them left to right in this order. A column can be deleted once it holds no tasks.</p>
      {columns.isPending && <Loading what="columns" />}
      {columns.error && <ErrorState error={columns.error} />}
      {columns.data?.length === 0 && <Empty>No columns.</Empty>}
      {list.length > 0 && (
        <ol className="rows settings-columns" aria-label="Columns in board order">
          {list.map((c, i) => (
            <ColumnRow
              // Keyed by the name too: a rename starts the row's field again from the saved name.
              key={`${c.id}:${c.name}`}
              column={c}
              canUpdate={canUpdate}
              first={i === 0}
              last={i === list.length - 1}
              busy={reorder.isPending}
              onMove={(dir) => move(i, dir)}
              onDelete={() => remove.mutate(c.id)}
              onRenamed={refresh}
            />
          ))}
        </ol>
      )}
      {reorder.error && <ErrorState error={reorder.error} />}
      {remove.error && <ErrorState error={remove.error} />}
      {canUpdate && (
        <form onSubmit={onAdd} className="inline-form">
          <label>
            New column
            <input value={name} onChange={(e) => setName(e.target.value)} required placeholder="Blocked" />
          </label>
          <button type="submit" disabled={add.isPending || !name.trim()}>
            Add column
          </button>
        </form>
      )}
      {add.error && <ErrorState error={add.error} />}
    </section>
  );
}

function ColumnRow(props: {
  column: Column;
  canUpdate: boolean;
  first: boolean;
  last: boolean;
  busy: boolean;
  onMove: (dir: 'left' | 'right') => void;
  onDelete: () => void;
  onRenamed: () => Promise<unknown>;
}) {
  const c = props.column;
  const [name, setName] = useState(c.name);
  const rename = useMutation({
    mutationFn: async () => must(await api.PUT('/api/column/{id}', { params: { path: { id: c.id } }, body: { name } })),
    onSuccess: props.onRenamed,
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim() && name !== c.name) rename.mutate();
  };
  if (!props.canUpdate)
    return (
      <li className="row" data-column-id={c.id}>
        <span className="row-main">
          {c.name} <span className="muted">({c.slug})</span>
        </span>
      </li>
    );
  return (
    <li className="row settings-column" data-column-id={c.id}>
      <form className="settings-rename" onSubmit={onSubmit}>
        <label>
          <span className="visually-hidden">Name of column {c.name}</span>
          <input value={name} onChange={(e) => setName(e.target.value)} required />
        </label>
        <button type="submit" className="secondary" disabled={rename.isPending || !name.trim() || name === c.name} aria-label={`Rename column ${c.name}`}>
          Rename
        </button>
      </form>
      <span className="settings-move">
        <button
          type="button"
          id={`settings-move-left-${c.id}`}
          className="secondary"
          aria-label={`Move ${c.name} left`}
          disabled={props.first || props.busy}
          onClick={() => props.onMove('left')}
        >
          ←
        </button>
        <button
          type="button"
          id={`settings-move-right-${c.id}`}
          className="secondary"
          aria-label={`Move ${c.name} right`}
          disabled={props.last || props.busy}
          onClick={() => props.onMove('right')}
        >
          →
        </button>
      </span>
      <ConfirmDialog label={`Delete ${c.name}`} title={`Delete the column ${c.name}?`} confirmLabel="Yes, delete" onConfirm={props.onDelete} className="secondary" />
      {rename.error && <ErrorState error={rename.error} />}
    </li>
  );
}

function Lifecycle({ project, workspaceId, canUpdate, canDelete }: { project: Project; workspaceId: string; canUpdate: boolean; canDelete: boolean }) {
  const queryClient = useQueryClient();
  const archived = project.archivedAt !== null;
  const toggle = useMutation({
    mutationFn: async () =>
      must(
        archived
          ? await api.PUT('/api/project/{id}/unarchive', { params: { path: { id: project.id } } })
          : await api.PUT('/api/project/{id}/archive', { params: { path: { id: project.id } } }),
      ),
    onSuccess: async (p) => {
      queryClient.setQueryData(['project', project.id], p);
      await queryClient.invalidateQueries({ queryKey: ['projects', workspaceId] });
    },
  });
  const remove = useMutation({
    mutationFn: async () => must(await api.DELETE('/api/project/{id}', { params: { path: { id: project.id } } })),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: ['project', project.id] });
      await queryClient.invalidateQueries({ queryKey: ['projects', workspaceId] });
      navigate(`/w/${workspaceId}`);
    },
  });
  if (!canUpdate && !canDelete) return null;
  return (
    <section className="section" aria-labelledby="settings-lifecycle-h">
      <h2 id="settings-lifecycle-h">Archive or delete</h2>
      <p className="muted">
        {archived
          ? 'This project is archived: it is not in the workspace’s project list. Unarchive it to list it again.'
          : 'An archived project leaves the workspace’s project list and keeps its tasks; it can be unarchived.'}
      </p>
      <div className="actions">
        {canUpdate && (
          <button type="button" className="secondary" onClick={() => toggle.mutate()} disabled={toggle.isPending}>
            {archived ? 'Unarchive project' : 'Archive project'}
          </button>
        )}
        {canDelete && (
          <ConfirmDialog
            label="Delete project"
            title={`Delete ${project.name} with its columns and tasks? This cannot be undone.`}
            confirmLabel="Yes, delete it"
            onConfirm={() => remove.mutate()}
            isDisabled={remove.isPending}
          />
        )}
      </div>
      {archived && (
        <p className="state" role="status">
          Archived.
        </p>
      )}
      {toggle.error && <ErrorState error={toggle.error} />}
      {remove.error && <ErrorState error={remove.error} />}
    </section>
  );
}
