import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api, must } from '../api/client';
import { useMembers } from '../api/workspace-queries';
import type { Invitation, InvitationSent, Member } from '../api/types';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { Header } from '../shell/Header';
import { Empty, ErrorState, Loading } from '../ui/States';
import { roleName, when } from '../ui/format';
import { usePermissions } from '../api/permissions';
import { navigate } from '../app/router';
import { useSession } from '../api/session';
import { InviteLink } from './InviteLink';
import { t as tr } from '../i18n';

/** The static roles (docs/decisions-local.md, "Roles and permissions"); a workspace's custom roles come after them. */
const STATIC_ROLES = ['owner', 'admin', 'member', 'viewer'];

/** A workspace's people: members and their roles, invitations, teams and custom roles (docs/decisions-local.md, "Organization management"). */
export function PeoplePage({ workspaceId }: { workspaceId: string }) {
  const can = usePermissions(workspaceId);
  const roles = useQuery({
    queryKey: ['roles', workspaceId],
    queryFn: async () => must(await api.GET('/api/auth/organization/list-roles', { params: { query: { organizationId: workspaceId } } })),
  });
  const roleNames = [...STATIC_ROLES, ...(roles.data?.map((r) => r.role) ?? [])];
  return (
    <>
      <Header workspaceId={workspaceId} />
      <main id="main" tabIndex={-1} className="page people">
        <p>
          <a
            href={`/w/${workspaceId}`}
            onClick={(e) => {
              e.preventDefault();
              navigate(`/w/${workspaceId}`);
            }}
          >
            {tr('people.peoplePage.projects')}
          </a>
        </p>
        <h1>{tr('people.peoplePage.people')}</h1>
        <Members workspaceId={workspaceId} roleNames={roleNames} canUpdate={can('member', 'update')} canDelete={can('member', 'delete')} />
        {(can('invitation', 'create') || can('invitation', 'cancel')) && (
          <Invitations workspaceId={workspaceId} roleNames={roleNames} canCreate={can('invitation', 'create')} canCancel={can('invitation', 'cancel')} />
        )}
        <Teams workspaceId={workspaceId} canCreate={can('team', 'create')} canUpdate={can('team', 'update')} canDelete={can('team', 'delete')} />
        <section className="section" aria-labelledby="roles-h">
          <h2 id="roles-h">{tr('people.peoplePage.customRoles')}</h2>
          {roles.isPending && <Loading what={tr('people.peoplePage.roles')} />}
          {roles.error && <ErrorState error={roles.error} />}
          {roles.data?.length === 0 && <Empty>{tr('people.peoplePage.noCustomRolesTheBuilt')}</Empty>}
          {roles.data && roles.data.length > 0 && (
            <ul className="rows" aria-label={tr('people.peoplePage.customRoles')}>
              {roles.data.map((r) => (
                <li key={r.id} className="row">
                  <div className="row-main">
                    <strong>{roleName(r.role)}</strong>
                    <span className="muted">
                      {Object.entries(r.permission)
                        .flatMap(([resource, actions]) => actions.map((a) => `${resource}:${a}`))
                        .join(', ')}
                    </span>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </section>
      </main>
    </>
  );
}

function Members({ workspaceId, roleNames, canUpdate, canDelete }: { workspaceId: string; roleNames: string[]; canUpdate: boolean; canDelete: boolean }) {
  const queryClient = useQueryClient();
  const session = useSession();
  const members = useMembers(workspaceId);
  const refresh = () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: ['members', workspaceId] }), queryClient.invalidateQueries({ queryKey: ['permissions', workspaceId] })]);
  const setRole = useMutation({
    mutationFn: async ({ memberId, role }: { memberId: string; role: string }) =>
      must(await api.POST('/api/auth/organization/update-member-role', { body: { organizationId: workspaceId, memberId, role } })),
    // Shown at once; back as it was, with the API's message, if refused.
    onMutate: async ({ memberId, role }) => {
      await queryClient.cancelQueries({ queryKey: ['members', workspaceId] });
      const before = queryClient.getQueryData<Member[]>(['members', workspaceId]);
      queryClient.setQueryData<Member[]>(['members', workspaceId], (list) => list?.map((m) => (m.id === memberId ? { ...m, role } : m)));
      return { before };
    },
    onError: (_err, _vars, ctx) => {
      if (ctx?.before) queryClient.setQueryData(['members', workspaceId], ctx.before);
    },
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: async (memberId: string) => must(await api.POST('/api/auth/organization/remove-member', { body: { organizationId: workspaceId, memberIdOrEmail: memberId } })),
    onSettled: refresh,
  });
  const me = session.data?.user.id;
  return (
    <section className="section" aria-labelledby="members-h">
      <h2 id="members-h">{tr('people.peoplePage.members')}</h2>
      {members.isPending && <Loading what={tr('people.peoplePage.members2')} />}
      {members.error && <ErrorState error={members.error} />}
      {members.data?.length === 0 && <Empty>{tr('people.peoplePage.noMembers')}</Empty>}
      {members.data && members.data.length > 0 && (
        <ul className="rows" aria-label={tr('people.peoplePage.members')}>
          {members.data.map((m) => (
            <MemberRow
              key={m.id}
              member={m}
              isMe={m.userId === me}
              roleNames={roleNames}
              canUpdate={canUpdate}
              canDelete={canDelete && m.userId !== me}
              onRole={(role) => setRole.mutate({ memberId: m.id, role })}
              onRemove={() => remove.mutate(m.id)}
              busy={(setRole.isPending && setRole.variables?.memberId === m.id) || remove.isPending}
            />
          ))}
        </ul>
      )}
      {setRole.error && <ErrorState error={setRole.error} />}
      {remove.error && <ErrorState error={remove.error} />}
    </section>
  );
}

function MemberRow(props: {
  member: Member;
  isMe: boolean;
  roleNames: string[];
  canUpdate: boolean;
  canDelete: boolean;
  onRole: (role: string) => void;
  onRemove: () => void;
  busy: boolean;
}) {
  const m = props.member;
  const who = m.user.name || m.user.email;
  // Names are not unique: the controls name the member by name and email.
  const whoFully = `${who} (${m.user.email})`;
  // A member with several roles has them comma-joined (docs/decisions-local.md, "Roles"): offered as they are.
  const options = props.roleNames.includes(m.role) ? props.roleNames : [m.role, ...props.roleNames];
  return (
    <li className="row" data-member-id={m.id}>
      <div className="row-main">
        <strong>
          {who}
          {props.isMe && tr('people.peoplePage.you')}
        </strong>
        <span className="muted">{m.user.email}</span>
      </div>
      {props.canUpdate ? (
        <select aria-label={tr('people.peoplePage.roleOf', { whoFully })} value={m.role} onChange={(e) => props.onRole(e.target.value)} disabled={props.busy} className="compact">
          {options.map((r) => (
            <option key={r} value={r}>
              {roleName(r)}
            </option>
          ))}
        </select>
      ) : (
        <span className="badge">{roleName(m.role)}</span>
      )}
      {props.canDelete && (
        <ConfirmDialog
          label={tr('people.peoplePage.remove')}
          ariaLabel={tr('people.peoplePage.remove2', { whoFully })}
          title={tr('people.peoplePage.remove3', { whoFully })}
          confirmLabel={tr('people.peoplePage.remove')}
          cancelLabel={tr('people.peoplePage.keep')}
          onConfirm={props.onRemove}
          isDisabled={props.busy}
          className="secondary"
        >
          <p>
            {who} {tr('people.peoplePage.losesAccessToTheWorkspace')}
          </p>
        </ConfirmDialog>
      )}
    </li>
  );
}

function Invitations({ workspaceId, roleNames, canCreate, canCancel }: { workspaceId: string; roleNames: string[]; canCreate: boolean; canCancel: boolean }) {
  const queryClient = useQueryClient();
  const invitations = useQuery({
    queryKey: ['invitations', workspaceId],
    queryFn: async () => must(await api.GET('/api/auth/organization/list-invitations', { params: { query: { organizationId: workspaceId } } })),
  });
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('member');
  const roleId = useId();
  const [notice, setNotice] = useState('');
  // The last invitation made or resent, when its email was not sent: its link is shown under the notice.
  const [unsent, setUnsent] = useState<{ id: string; email: string; link: string } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['invitations', workspaceId] });
  const answered = (inv: InvitationSent, again: boolean) => {
    if (inv.emailSent) {
      setUnsent(null);
      setNotice(again ? tr('people.peoplePage.emailedAgain', { email: inv.email }) : tr('people.peoplePage.emailed', { email: inv.email }));
    } else {
      setUnsent({ id: inv.id, email: inv.email, link: inv.link });
      setNotice(tr('people.peoplePage.createdNoEmail', { email: inv.email }));
    }
  };
  const invite = useMutation({
    mutationFn: async () => must(await api.POST('/api/auth/organization/invite-member', { body: { organizationId: workspaceId, email, role } })),
    onSuccess: (inv) => {
      setEmail('');
      answered(inv, false);
    },
    onSettled: refresh,
  });
  // A resend extends the pending invitation by 48 h and emails it again (docs/decisions-local.md, "Invitations").
  const resend = useMutation({
    mutationFn: async (inv: Invitation) =>
      must(await api.POST('/api/auth/organization/invite-member', { body: { organizationId: workspaceId, email: inv.email, role: inv.role, resend: true } })),
    onSuccess: (inv) => answered(inv, true),
    onSettled: refresh,
  });
  const cancel = useMutation({
    mutationFn: async (inv: Invitation) => must(await api.POST('/api/auth/organization/cancel-invitation', { body: { invitationId: inv.id } })),
    onSuccess: (inv) => {
      setUnsent((u) => (u?.id === inv.id ? null : u));
      setNotice(tr('people.peoplePage.canceled', { email: inv.email }));
    },
    onSettled: refresh,
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setNotice('');
    setUnsent(null);
    invite.mutate();
  };
  const pending = invitations.data?.filter((i) => i.status === 'pending');
  const error = invite.error ?? resend.error ?? cancel.error;
  return (
    <section className="section" aria-labelledby="invitations-h">
      <h2 id="invitations-h">{tr('people.peoplePage.invitations')}</h2>
      {canCreate && (
        <form className="inline-form" onSubmit={onSubmit} aria-label={tr('people.peoplePage.inviteSomeone')}>
          <label>
            {tr('people.peoplePage.emailToInvite')}
            <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} required autoComplete="off" placeholder={tr('people.peoplePage.graceExampleCom')} />
          </label>
          {/* Labelled by `for`, not by nesting: a nested select's chosen option would join its name. */}
          <div className="field compact">
            <label htmlFor={roleId}>{tr('people.peoplePage.role')}</label>
            <select id={roleId} value={role} onChange={(e) => setRole(e.target.value)}>
              {roleNames.map((r) => (
                <option key={r} value={r}>
                  {roleName(r)}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" disabled={invite.isPending}>
            {tr('people.peoplePage.invite')}
          </button>
        </form>
      )}
      {error && <ErrorState error={error} />}
      <p className="state" role="status">
        {notice}
      </p>
      {unsent && <InviteLink link={unsent.link} email={unsent.email} />}
      <h3>{tr('people.peoplePage.pending')}</h3>
      {invitations.isPending && <Loading what={tr('people.peoplePage.invitations2')} />}
      {invitations.error && <ErrorState error={invitations.error} />}
      {pending?.length === 0 && <Empty>{tr('people.peoplePage.noPendingInvitations')}</Empty>}
      {pending && pending.length > 0 && (
        <ul className="rows" aria-label={tr('people.peoplePage.pendingInvitations')}>
          {pending.map((inv) => (
            <li key={inv.id} className="row">
              <div className="row-main">
                <strong>{inv.email}</strong>
                <span className="muted">
                  {roleName(inv.role)} {tr('people.peoplePage.expires')} {when(inv.expiresAt)}
                </span>
                {/* Each pending invitation's accept link (list-invitations answers it), to hand over again; the one just made is under the notice. */}
                {inv.id !== unsent?.id && <InviteLink link={inv.link} email={inv.email} />}
              </div>
              {canCreate && (
                <button
                  type="button"
                  className="secondary"
                  onClick={() => resend.mutate(inv)}
                  disabled={resend.isPending}
                  aria-label={tr('people.peoplePage.resendTheInvitationTo', { email: inv.email })}
                >
                  {tr('people.peoplePage.resend')}
                </button>
              )}
              {canCancel && (
                <button
                  type="button"
                  className="secondary"
                  onClick={() => cancel.mutate(inv)}
                  disabled={cancel.isPending}
                  aria-label={tr('people.peoplePage.cancelTheInvitationTo', { email: inv.email })}
                >
                  {tr('people.peoplePage.cancel')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Teams({ workspaceId, canCreate, canUpdate, canDelete }: { workspaceId: string; canCreate: boolean; canUpdate: boolean; canDelete: boolean }) {
  const queryClient = useQueryClient();
  const teams = useQuery({
    queryKey: ['teams', workspaceId],
    queryFn: async () => must(await api.GET('/api/auth/organization/list-teams', { params: { query: { organizationId: workspaceId } } })),
  });
  const [name, setName] = useState('');
  const create = useMutation({
    mutationFn: async () => must(await api.POST('/api/auth/organization/create-team', { body: { organizationId: workspaceId, name } })),
    onSuccess: () => setName(''),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['teams', workspaceId] }),
  });
  const remove = useMutation({
    mutationFn: async (teamId: string) => must(await api.POST('/api/auth/organization/remove-team', { body: { organizationId: workspaceId, teamId } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['teams', workspaceId] }),
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <section className="section" aria-labelledby="teams-h">
      <h2 id="teams-h">{tr('people.peoplePage.teams')}</h2>
      {teams.isPending && <Loading what={tr('people.peoplePage.teams2')} />}
      {teams.error && <ErrorState error={teams.error} />}
      {teams.data?.length === 0 && <Empty>{tr('people.peoplePage.noTeamsYet')}</Empty>}
      {teams.data && teams.data.length > 0 && (
        <ul className="rows" aria-label={tr('people.peoplePage.teams')}>
          {teams.data.map((t) => (
            <li key={t.id} className="row">
              <div className="row-main">
                <strong>{t.name}</strong>
                <span className="muted">
                  {tr('people.peoplePage.since')} {when(t.createdAt)}
                </span>
                <TeamMembers workspaceId={workspaceId} team={t} canUpdate={canUpdate} />
              </div>
              {canDelete && (
                <ConfirmDialog
                  label={tr('people.peoplePage.delete')}
                  title={tr('people.peoplePage.deleteTheTeam', { name: t.name })}
                  confirmLabel={tr('people.peoplePage.yesDelete', { name: t.name })}
                  onConfirm={() => remove.mutate(t.id)}
                  isDisabled={remove.isPending}
                />
              )}
            </li>
          ))}
        </ul>
      )}
      {canCreate && (
        <form className="inline-form" onSubmit={onSubmit}>
          <label>
            {tr('people.peoplePage.newTeam')}
            <input value={name} onChange={(e) => setName(e.target.value)} required placeholder={tr('people.peoplePage.design')} />
          </label>
          <button type="submit" disabled={create.isPending}>
            {tr('people.peoplePage.createTeam')}
          </button>
        </form>
      )}
      {create.error && <ErrorState error={create.error} />}
      {remove.error && <ErrorState error={remove.error} />}
    </section>
  );
}

/** A team's members (list-team-members), named from the workspace's members; added and removed with team:update. */
function TeamMembers({ workspaceId, team, canUpdate }: { workspaceId: string; team: { id: string; name: string }; canUpdate: boolean }) {
  const queryClient = useQueryClient();
  const key = ['team', team.id, 'members'];
  const inTeam = useQuery({
    queryKey: key,
    queryFn: async () => must(await api.GET('/api/auth/organization/list-team-members', { params: { query: { teamId: team.id, organizationId: workspaceId } } })),
  });
  const members = useMembers(workspaceId);
  const nameOf = (userId: string) => {
    const m = members.data?.find((x) => x.userId === userId);
    return m ? m.user.name || m.user.email : 'a former member';
  };
  const [userId, setUserId] = useState('');
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  const add = useMutation({
    mutationFn: async () => must(await api.POST('/api/auth/organization/add-team-member', { body: { teamId: team.id, userId, organizationId: workspaceId } })),
    onSuccess: () => setUserId(''),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: async (who: string) => must(await api.POST('/api/auth/organization/remove-team-member', { body: { teamId: team.id, userId: who, organizationId: workspaceId } })),
    onSettled: refresh,
  });
  const ids = new Set(inTeam.data?.map((r) => r.userId));
  const others = members.data?.filter((m) => !ids.has(m.userId)) ?? [];
  return (
    <div className="team-members">
      {inTeam.error && <ErrorState error={inTeam.error} />}
      {inTeam.data?.length === 0 && <span className="muted">{tr('people.peoplePage.noMembers')}</span>}
      {inTeam.data && inTeam.data.length > 0 && (
        <ul className="chips" aria-label={tr('people.peoplePage.membersOf', { name: team.name })}>
          {inTeam.data.map((r) => (
            <li key={r.id} className="chip">
              {nameOf(r.userId)}
              {canUpdate && (
                <button
                  type="button"
                  className="link"
                  aria-label={tr('people.peoplePage.removeFrom', { nameOf: nameOf(r.userId), name: team.name })}
                  onClick={() => remove.mutate(r.userId)}
                  disabled={remove.isPending}
                >
                  ×
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {canUpdate && others.length > 0 && (
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            add.mutate();
          }}
        >
          <select aria-label={tr('people.peoplePage.addAMemberTo', { name: team.name })} value={userId} onChange={(e) => setUserId(e.target.value)} required>
            <option value="">{tr('people.peoplePage.addAMember')}</option>
            {others.map((m) => (
              <option key={m.userId} value={m.userId}>
                {m.user.name || m.user.email}
              </option>
            ))}
          </select>
          <button type="submit" className="secondary" disabled={add.isPending || !userId}>
            {tr('people.peoplePage.add')}
          </button>
        </form>
      )}
      {[add.error, remove.error].map((e, i) => e && <ErrorState key={i} error={e} />)}
    </div>
  );
}
