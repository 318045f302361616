import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, must } from '../api/client';
import type { Label } from '../api/types';
import { usePermissions } from '../api/permissions';
import { useLabels } from '../api/workspace-queries';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { LabelDot, LabelName, labelHex } from '../ui/LabelDot';
import { Empty, ErrorState, Loading } from '../ui/States';
import { t } from '../i18n';

/** The colour a new label starts with. */
const NEW_COLOR = labelHex('teal');

/**
 * The workspace's label catalogue (docs/api.md, "label"), shown in a project's settings: every
 * project of the workspace picks from it. Create, rename, recolour and delete are offered with
 * label:create, label:update and label:delete, as the routes require.
 */
export function LabelManager({ workspaceId }: { workspaceId: string }) {
  const can = usePermissions(workspaceId);
  const canCreate = can('label', 'create');
  const canUpdate = can('label', 'update');
  const canDelete = can('label', 'delete');
  const queryClient = useQueryClient();
  const catalogue = useLabels(workspaceId);
  // A rename or recolour reaches the tasks' copies too: open task panels read them again.
  const refresh = () =>
    queryClient.invalidateQueries({ predicate: (q) => (q.queryKey[0] === 'labels' && q.queryKey[1] === workspaceId) || (q.queryKey[0] === 'task' && q.queryKey[2] === 'labels') });
  const [name, setName] = useState('');
  const [color, setColor] = useState(NEW_COLOR);
  const create = useMutation({
    mutationFn: async () => must(await api.POST('/api/label', { body: { name: name.trim(), color, workspaceId } })),
    onSuccess: async () => {
      setName('');
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: async (id: string) => must(await api.DELETE('/api/label/{id}', { params: { path: { id } } })),
    onSettled: refresh,
  });
  const onCreate = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim()) create.mutate();
  };
  const labels = catalogue.data?.filter((l) => l.taskId === null) ?? [];
  return (
    <section className="section label-manager" aria-labelledby="settings-labels-h">
      <h2 id="settings-labels-h">{t('board.labelManager.labels')}</h2>
      <p className="muted">{t('board.labelManager.labelsBelongToTheWorkspace')}</p>
      {catalogue.isPending && <Loading what={t('board.labelManager.labels2')} />}
      {catalogue.error && <ErrorState error={catalogue.error} />}
      {catalogue.data && labels.length === 0 && <Empty>{t('board.labelManager.theWorkspaceHasNoLabels')}</Empty>}
      {labels.length > 0 && (
        <ul className="rows" aria-label={t('board.labelManager.workspaceLabels')}>
          {labels.map((l) => (
            <LabelRow
              // Keyed by name and colour too: a saved change starts the row's fields again from it.
              key={`${l.id}:${l.name}:${l.color}`}
              label={l}
              canUpdate={canUpdate}
              canDelete={canDelete}
              deleting={remove.isPending && remove.variables === l.id}
              onDelete={() => remove.mutate(l.id)}
              onSaved={refresh}
            />
          ))}
        </ul>
      )}
      {remove.error && <ErrorState error={remove.error} />}
      {canCreate && (
        <form onSubmit={onCreate} className="inline-form">
          <label>
            {t('board.labelManager.newLabel')}
            <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} placeholder={t('board.labelManager.needsDesign')} />
          </label>
          <label className="compact">
            {t('board.labelManager.colour')}
            <input type="color" className="label-color" value={color} onChange={(e) => setColor(e.target.value)} />
          </label>
          <button type="submit" disabled={create.isPending || !name.trim()}>
            {t('board.labelManager.createLabel')}
          </button>
        </form>
      )}
      {create.error && <ErrorState error={create.error} />}
    </section>
  );
}

function LabelRow(props: { label: Label; canUpdate: boolean; canDelete: boolean; deleting: boolean; onDelete: () => void; onSaved: () => Promise<unknown> }) {
  const l = props.label;
  const [name, setName] = useState(l.name);
  const [color, setColor] = useState(labelHex(l.color));
  const changed = name.trim() !== l.name || color !== labelHex(l.color);
  const save = useMutation({
    mutationFn: async () =>
      must(
        await api.PUT('/api/label/{id}', {
          params: { path: { id: l.id } },
          body: { ...(name.trim() !== l.name ? { name: name.trim() } : {}), ...(color !== labelHex(l.color) ? { color } : {}) },
        }),
      ),
    onSuccess: props.onSaved,
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim() && changed) save.mutate();
  };
  return (
    <li className="row" data-label-id={l.id}>
      {props.canUpdate ? (
        <form onSubmit={onSubmit}>
          <LabelDot color={color} />
          <label>
            <span className="visually-hidden">
              {t('board.labelManager.nameOfLabel')} {l.name}
            </span>
            <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} />
          </label>
          <label className="compact">
            <span className="visually-hidden">
              {t('board.labelManager.colourOfLabel')} {l.name}
            </span>
            <input type="color" className="label-color" value={color} onChange={(e) => setColor(e.target.value)} />
          </label>
          <button type="submit" className="secondary" disabled={save.isPending || !name.trim() || !changed} aria-label={t('board.labelManager.saveLabel', { name: l.name })}>
            {t('board.labelManager.save')}
          </button>
        </form>
      ) : (
        <span className="row-main">
          <LabelName name={l.name} color={l.color} />
        </span>
      )}
      {props.canDelete && (
        <ConfirmDialog
          label={t('board.labelManager.delete', { name: l.name })}
          title={t('board.labelManager.deleteTheLabel', { name: l.name })}
          confirmLabel={t('board.labelManager.yesDelete')}
          onConfirm={props.onDelete}
          isDisabled={props.deleting}
          className="secondary"
        >
          <p>{t('board.labelManager.itComesOffEveryTask')}</p>
        </ConfirmDialog>
      )}
      {save.error && <ErrorState error={save.error} />}
    </li>
  );
}
