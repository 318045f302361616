import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, must } from '../api/client';
import { usePermissions } from '../api/permissions';
import { refetchCardDetails, useLabels } from '../api/workspace-queries';
import { LabelName, labelHex } from '../ui/LabelDot';
import { ErrorState, Loading } from '../ui/States';
import { t } from '../i18n';

/** The colour a label created from a task starts with (it can be changed in the project's settings). */
const NEW_COLOR = labelHex('teal');

/**
 * A task's labels: tick them from the workspace's catalogue, or create a catalogue label that the
 * task carries at once (POST /api/label with taskId, which needs label:create and label:update).
 */
export function TaskLabels({ workspaceId, taskId, editable }: { workspaceId: string; taskId: string; editable: boolean }) {
  const queryClient = useQueryClient();
  const can = usePermissions(workspaceId);
  const canCreate = editable && can('label', 'create') && can('label', 'update');
  const catalogue = useLabels(workspaceId);
  const onTask = useQuery({ queryKey: ['task', taskId, 'labels'], queryFn: async () => must(await api.GET('/api/label/task/{taskId}', { params: { path: { taskId } } })) });
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ['task', taskId, 'labels'] });
    await queryClient.invalidateQueries({ queryKey: ['labels', workspaceId] });
    await queryClient.invalidateQueries({ queryKey: ['task', taskId, 'activity'] });
    // The cards show a task's labels (BoardPage.tsx, card details).
    await refetchCardDetails(queryClient);
  };
  // What was asked for, set in the click's own render (a controlled box would otherwise spring back until the request starts).
  const [asked, setAsked] = useState<Record<string, boolean>>({});
  const toggle = useMutation({
    mutationFn: async ({ id, on }: { id: string; on: boolean }) =>
      on
        ? must(await api.PUT('/api/label/{id}/task', { params: { path: { id } }, body: { taskId } }))
        : must(await api.DELETE('/api/label/{id}/task', { params: { path: { id } }, body: { taskId } })),
    onSettled: async (_data, _err, { id }) => {
      await refresh();
      setAsked(({ [id]: _done, ...rest }) => rest);
    },
  });
  const [name, setName] = useState('');
  const create = useMutation({
    // Idempotent per name: an existing label of that name is ticked instead.
    mutationFn: async () => must(await api.POST('/api/label', { body: { name: name.trim(), color: NEW_COLOR, workspaceId, taskId } })),
    onSuccess: async () => {
      setName('');
      await refresh();
    },
  });
  const onCreate = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim()) create.mutate();
  };
  const names = new Set(onTask.data?.map((l) => l.name));
  const catalogueLabels = catalogue.data?.filter((l) => l.taskId === null) ?? [];
  return (
    <section aria-labelledby="labels-h">
      <h3 id="labels-h">{t('task.taskLabels.labels')}</h3>
      {(catalogue.isPending || onTask.isPending) && <Loading what={t('task.taskLabels.labels2')} />}
      {catalogue.data && catalogueLabels.length === 0 && (
        <p className="state">{canCreate ? t('task.taskLabels.theWorkspaceHasNoLabels') : t('task.taskLabels.theWorkspaceHasNoLabels2')}</p>
      )}
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
              <LabelName name={l.name} color={l.color} />
            </label>
          </li>
        ))}
      </ul>
      {toggle.error && <ErrorState error={toggle.error} />}
      {canCreate && (
        <form onSubmit={onCreate} className="inline-form tight">
          <label>
            {t('task.taskLabels.newLabel')}
            <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} placeholder={t('task.taskLabels.needsReview')} />
          </label>
          <button type="submit" className="secondary" disabled={create.isPending || !name.trim()}>
            {t('task.taskLabels.addLabel')}
          </button>
        </form>
      )}
      {create.error && <ErrorState error={create.error} />}
    </section>
  );
}
