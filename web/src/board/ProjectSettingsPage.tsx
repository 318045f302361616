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
import { t } from '../i18n';

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
      <Header
        workspaceId={workspaceId}
        title={project.data ? t('board.projectSettingsPage.settings', { name: project.data.name }) : t('board.projectSettingsPage.projectSettings')}
      />
      <main id="main" tabIndex={-1} className="page settings-page">
        <BackToBoard workspaceId={workspaceId} projectId={projectId} />
        {project.isPending && <Loading what={t('board.projectSettingsPage.theProject')} />}
        {project.error && <ErrorState error={project.error} />}
        {project.data && (
          <>
            {!canUpdate && <p className="muted">{t('board.projectSettingsPage.yourRolesLetYouSee')}</p>}
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
      <h2 id="settings-details-h">{t('board.projectSettingsPage.project')}</h2>
      <form className="stack narrow" onSubmit={onSubmit}>
        <fieldset disabled={!canUpdate} className="settings-fields">
          <legend className="visually-hidden">{t('board.projectSettingsPage.projectDetails')}</legend>
          <label>
            {t('board.projectSettingsPage.projectName')}
            <input value={name} onChange={(e) => setName(e.target.value)} required />
          </label>
          <label>
            {t('board.projectSettingsPage.taskKey')}
            <input value={slug} onChange={(e) => setSlug(e.target.value)} required maxLength={64} aria-describedby="settings-key-hint" />
            <span id="settings-key-hint" className="hint">
              {t('board.projectSettingsPage.tasksAreNumberedWithIt')} {slug || t('board.projectSettingsPage.key')}
              {t('board.projectSettingsPage.12LettersOrDigitsDashes')}
            </span>
          </label>
          <label>
            {t('board.projectSettingsPage.description')}
            <textarea value={description} onChange={(e) => setDescription(e.target.value)} rows={3} />
          </label>
          <label className="check">
            <input type="checkbox" checked={isPublic} onChange={(e) => setPublic(e.target.checked)} />
            {t('board.projectSettingsPage.publicBoardAnyoneWithThe')}
          </label>
        </fieldset>
        {save.error && <ErrorState error={save.error} />}
        {save.isSuccess && (
          <p className="state" role="status">
            {t('board.projectSettingsPage.projectSaved')}
          </p>
        )}
        {canUpdate && (
          <button type="submit" disabled={save.isPending}>
            {t('board.projectSettingsPage.saveProject')}
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
      <h2 id="settings-columns-h">{t('board.projectSettingsPage.columns')}</h2>
      <p className="muted">{t('board.projectSettingsPage.theBoardShowsThemLeft')}</p>
      {columns.isPending && <Loading what={t('board.projectSettingsPage.columns2')} />}
      {columns.error && <ErrorState error={columns.error} />}
      {columns.data?.length === 0 && <Empty>{t('board.projectSettingsPage.noColumns')}</Empty>}
      {list.length > 0 && (
        <ol className="rows settings-columns" aria-label={t('board.projectSettingsPage.columnsInBoardOrder')}>
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
            {t('board.projectSettingsPage.newColumn')}
            <input value={name} onChange={(e) => setName(e.target.value)} required placeholder={t('board.projectSettingsPage.blocked')} />
          </label>
          <button type="submit" disabled={add.isPending || !name.trim()}>
            {t('board.projectSettingsPage.addColumn')}
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
          <span className="visually-hidden">
            {t('board.projectSettingsPage.nameOfColumn')} {c.name}
          </span>
          <input value={name} onChange={(e) => setName(e.target.value)} required />
        </label>
        <button
          type="submit"
          className="secondary"
          disabled={rename.isPending || !name.trim() || name === c.name}
          aria-label={t('board.projectSettingsPage.renameColumn', { name: c.name })}
        >
          {t('board.projectSettingsPage.rename')}
        </button>
      </form>
      <span className="settings-move">
        <button
          type="button"
          id={`settings-move-left-${c.id}`}
          className="secondary"
          aria-label={t('board.projectSettingsPage.moveLeft', { name: c.name })}
          disabled={props.first || props.busy}
          onClick={() => props.onMove('left')}
        >
          ←
        </button>
        <button
          type="button"
          id={`settings-move-right-${c.id}`}
          className="secondary"
          aria-label={t('board.projectSettingsPage.moveRight', { name: c.name })}
          disabled={props.last || props.busy}
          onClick={() => props.onMove('right')}
        >
          →
        </button>
      </span>
      <ConfirmDialog
        label={t('board.projectSettingsPage.delete', { name: c.name })}
        title={t('board.projectSettingsPage.deleteTheColumn', { name: c.name })}
        confirmLabel={t('board.projectSettingsPage.yesDelete')}
        onConfirm={props.onDelete}
        className="secondary"
      />
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
      <h2 id="settings-lifecycle-h">{t('board.projectSettingsPage.archiveOrDelete')}</h2>
      <p className="muted">{archived ? t('board.projectSettingsPage.thisProjectIsArchivedIt') : t('board.projectSettingsPage.anArchivedProjectLeavesThe')}</p>
      <div className="actions">
        {canUpdate && (
          <button type="button" className="secondary" onClick={() => toggle.mutate()} disabled={toggle.isPending}>
            {archived ? t('board.projectSettingsPage.unarchiveProject') : t('board.projectSettingsPage.archiveProject')}
          </button>
        )}
        {canDelete && (
          <ConfirmDialog
            label={t('board.projectSettingsPage.deleteProject')}
            title={t('board.projectSettingsPage.deleteWithItsColumnsAnd', { name: project.name })}
            confirmLabel={t('board.projectSettingsPage.yesDeleteIt')}
            onConfirm={() => remove.mutate()}
            isDisabled={remove.isPending}
          />
        )}
      </div>
      {archived && (
        <p className="state" role="status">
          {t('board.projectSettingsPage.archived')}
        </p>
      )}
      {toggle.error && <ErrorState error={toggle.error} />}
      {remove.error && <ErrorState error={remove.error} />}
    </section>
  );
}
