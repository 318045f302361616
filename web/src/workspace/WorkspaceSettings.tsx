import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, must } from '../api/client';
import { navigate } from '../app/router';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { ErrorState } from '../ui/States';
import { toast } from '../ui/toast';
import { t } from '../i18n';

/**
 * A workspace's settings: rename (organization:update) and delete (organization:delete, after typing
 * its name). Shown only with one of those permissions.
 */
export function WorkspaceSettings({ workspaceId, canRename, canDelete }: { workspaceId: string; canRename: boolean; canDelete: boolean }) {
  const queryClient = useQueryClient();
  const workspaces = useQuery({ queryKey: ['workspaces'], queryFn: async () => must(await api.GET('/api/auth/organization/list')) });
  const workspace = workspaces.data?.find((w) => w.id === workspaceId);
  const [name, setName] = useState<string | null>(null);
  const [typed, setTyped] = useState('');
  const rename = useMutation({
    mutationFn: async (newName: string) => must(await api.POST('/api/auth/organization/update', { body: { organizationId: workspaceId, data: { name: newName } } })),
    onSuccess: async (ws) => {
      setName(null);
      await queryClient.invalidateQueries({ queryKey: ['workspaces'] });
      toast.show({ title: t('people.workspaceSettings.workspaceRenamedTo', { name: ws.name }) });
    },
  });
  const remove = useMutation({
    mutationFn: async () => must(await api.POST('/api/auth/organization/delete', { body: { organizationId: workspaceId } })),
    onSuccess: async (ws) => {
      await queryClient.invalidateQueries({ queryKey: ['workspaces'] });
      toast.show({ title: t('people.workspaceSettings.workspaceDeleted', { name: ws.name }) });
      navigate('/');
    },
  });
  if (!workspace || (!canRename && !canDelete)) return null;
  const onRename = (e: FormEvent) => {
    e.preventDefault();
    if (name !== null) rename.mutate(name);
  };
  return (
    <section className="section" aria-labelledby="workspace-settings-h">
      <h2 id="workspace-settings-h">{t('people.workspaceSettings.workspaceSettings')}</h2>
      {canRename && (
        <form className="inline-form" onSubmit={onRename} aria-label={t('people.workspaceSettings.renameTheWorkspace')}>
          <label>
            {t('people.workspaceSettings.workspaceName')}
            <input value={name ?? workspace.name} onChange={(e) => setName(e.target.value)} required maxLength={100} />
          </label>
          <button type="submit" disabled={rename.isPending || name === null || name.trim() === workspace.name}>
            {t('people.workspaceSettings.rename')}
          </button>
        </form>
      )}
      {rename.error && <ErrorState error={rename.error} />}
      {canDelete && (
        <div className="actions">
          <ConfirmDialog
            label={t('people.workspaceSettings.deleteWorkspace')}
            title={t('people.workspaceSettings.delete', { name: workspace.name })}
            confirmLabel={t('people.workspaceSettings.deleteForGood')}
            isConfirmDisabled={typed.trim() !== workspace.name}
            onConfirm={() => remove.mutate()}
            isDisabled={remove.isPending}
          >
            <p>{t('people.workspaceSettings.itsProjectsTasksAndMembers')}</p>
            <label>
              {t('people.workspaceSettings.typeTheWorkspaceNameTo')}
              <input value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" />
            </label>
          </ConfirmDialog>
        </div>
      )}
      {remove.error && <ErrorState error={remove.error} />}
    </section>
  );
}
