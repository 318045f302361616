import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { api, must } from '../api/client';
import type { UserInvitation } from '../api/types';
import { Header } from '../shell/Header';
import { ErrorState, Loading } from '../ui/States';
import { navigate } from '../app/router';
import { toast } from '../ui/toast';
import { useUserInvitations } from './user-invitations';
import { t } from '../i18n';
import { roleName } from '../ui/format';

/**
 * Whether the home page already opened the only workspace in this visit: it does so once, on
 * arrival; coming back to it (the brand link) shows the list, pending invitations and "New workspace".
 */
let openedTheOnlyWorkspace = false;

/** The first page: the user's workspaces (opens the only one on arrival), pending invitations, and making a workspace. */
export function HomePage() {
  const queryClient = useQueryClient();
  const workspaces = useQuery({ queryKey: ['workspaces'], queryFn: async () => must(await api.GET('/api/auth/organization/list')) });
  const invitations = useUserInvitations();
  const [name, setName] = useState('');
  const create = useMutation({
    mutationFn: async () => must(await api.POST('/api/auth/organization/create', { body: { name } })),
    onSuccess: async (ws) => {
      await queryClient.invalidateQueries({ queryKey: ['workspaces'] });
      navigate(`/w/${ws.id}`);
    },
  });
  const pending = invitations.data ?? [];
  useEffect(() => {
    if (openedTheOnlyWorkspace || !invitations.settled || workspaces.data?.length !== 1) return;
    openedTheOnlyWorkspace = true;
    if (pending.length === 0) navigate(`/w/${workspaces.data[0]!.id}`, true);
  }, [workspaces.data, invitations.settled, pending.length]);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <>
      <Header workspaceId={null} />
      <main id="main" tabIndex={-1} className="page">
        <h1>{t('people.homePage.workspaces')}</h1>
        {pending.length > 0 && <PendingInvitations invitations={pending} />}
        {invitations.error && <ErrorState error={invitations.error} />}
        {workspaces.isPending && <Loading what={t('people.homePage.workspaces2')} />}
        {workspaces.error && <ErrorState error={workspaces.error} />}
        {workspaces.data && workspaces.data.length > 0 && (
          <ul className="cards" aria-label={t('people.homePage.yourWorkspaces')}>
            {workspaces.data.map((w) => (
              <li key={w.id}>
                <a
                  href={`/w/${w.id}`}
                  onClick={(e) => {
                    e.preventDefault();
                    navigate(`/w/${w.id}`);
                  }}
                >
                  {w.name}
                </a>
              </li>
            ))}
          </ul>
        )}
        <form onSubmit={onSubmit} className="inline-form">
          <label>
            {t('people.homePage.newWorkspace')}
            <input value={name} onChange={(e) => setName(e.target.value)} required placeholder={t('people.homePage.acme')} />
          </label>
          <button type="submit" disabled={create.isPending}>
            {t('people.homePage.createWorkspace')}
          </button>
        </form>
        {create.error && <ErrorState error={create.error} />}
      </main>
    </>
  );
}

/** Invitations to the user's address: accept (opens the workspace) or decline. */
function PendingInvitations({ invitations }: { invitations: UserInvitation[] }) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['user-invitations'] });
  const accept = useMutation({
    mutationFn: async (inv: UserInvitation) => must(await api.POST('/api/auth/organization/accept-invitation', { body: { invitationId: inv.id } })),
    onSuccess: async (answer) => {
      await queryClient.invalidateQueries({ queryKey: ['workspaces'] });
      await refresh();
      navigate(`/w/${answer.member.organizationId}`);
    },
  });
  const decline = useMutation({
    mutationFn: async (inv: UserInvitation) => must(await api.POST('/api/auth/organization/reject-invitation', { body: { invitationId: inv.id } })),
    onSuccess: async (_answer, inv) => {
      toast.show({ title: t('people.homePage.invitationToDeclined', { organizationName: inv.organizationName }) });
      await refresh();
    },
  });
  const busy = accept.isPending || decline.isPending;
  return (
    <section className="section" aria-labelledby="invitations-h">
      <h2 id="invitations-h">{t('people.homePage.invitations')}</h2>
      <ul className="rows" aria-label={t('people.homePage.pendingInvitations')}>
        {invitations.map((inv) => (
          <li key={inv.id} className="row">
            <div className="row-main">
              <strong>{inv.organizationName}</strong>
              <span className="muted">
                {inv.inviterName ? t('people.homePage.invitedYou', { inviterName: inv.inviterName }) : t('people.homePage.youWereInvited')} {t('people.homePage.as')}{' '}
                {roleName(inv.role)}
              </span>
            </div>
            <button
              type="button"
              onClick={() => accept.mutate(inv)}
              disabled={busy}
              aria-label={t('people.homePage.acceptTheInvitationTo', { organizationName: inv.organizationName })}
            >
              {t('people.homePage.accept')}
            </button>
            <button
              type="button"
              className="secondary"
              onClick={() => decline.mutate(inv)}
              disabled={busy}
              aria-label={t('people.homePage.declineTheInvitationTo', { organizationName: inv.organizationName })}
            >
              {t('people.homePage.decline')}
            </button>
          </li>
        ))}
      </ul>
      {(accept.error ?? decline.error) && <ErrorState error={accept.error ?? decline.error} />}
    </section>
  );
}
