import { randomBytes, randomUUID } from 'node:crypto';
import { startTestApp, TestApp } from '../../support/app';
import {
  Access,
  Actor,
  changedTables,
  expectedOutcome,
  copyOfUser,
  idsOfWorkspaces,
  leakedIds,
  makeActors,
  randomName,
  scopedKeyFor,
  sessionIdOf,
  SignedUp,
  tenantDigest,
} from '../../support/authz-matrix';
import { addMember, sql } from '../../support/fixtures';
import { PNG_BYTES, uploadFile } from '../../support/files';
import { appKeyPair, FakeSelfgit, hmacHex, plantHostedgitLink } from '../../support/git-hosts';
import { insertDelivery } from '../../support/integrations';
import { MAX_PUBLIC_ROUTES, PUBLIC_ROUTES, RouteAccess, routeAccess } from '../../support/routes';
import { createProject, createTask, MISSING_ID } from '../../support/work-items';

/**
 * The authorization matrix: every registered route, called by every kind of caller, answers what
 * its declared access says (docs/decisions-local.md, "Roles and permissions"; "The authorization
 * matrix" there says how to add a recipe). A route without a recipe fails the test, so a new
 * route is covered.
 */

const GIT_TOKEN = 'matrix-git-token-0123456789abcdef';
const HOSTEDGIT_SECRET = 'matrix-hostedgit-webhook-secret';
const git = new FakeSelfgit();
let t: TestApp;

const hex = () => randomBytes(4).toString('hex');
let repos = 0;
/** A repository of its own (one active selfgit integration per repository). */
function newRepo(): string {
  const name = `repo-${++repos}`;
  git.addRepo('acme', name, { access: { [GIT_TOKEN]: 'write' } });
  return name;
}
const selfgitBody = () => ({ baseUrl: git.url, accessToken: GIT_TOKEN, repositoryOwner: 'acme', repositoryName: newRepo() });

function must<T = any>(res: { status: number; text: string; body: T }, what: string): T {
  if (res.status !== 200) throw new Error(`${what} failed: ${res.status} ${res.text}`);
  return res.body;
}

const NOTIFYING = ['messenger', 'teamchat', 'communitychat', 'generic-webhook'] as const;
type Notifying = (typeof NOTIFYING)[number];
const integrationBody = (type: Notifying) =>
  type === 'messenger' ? { botToken: `123456789:${'a'.repeat(35)}`, chatId: '-100123' } : { webhookUrl: `https://hooks.example.com/${type}/${hex()}` };

/** Every kind of object of a workspace, made through the API (git rows with the fake git server). */
async function workspaceObjects(owner: SignedUp, tag: string) {
  const api = t.api;
  const tok = owner.token;
  const ws = await api.createWorkspace(tok, `${tag} workspace`);
  const workspaceId = ws.id;
  const project = await createProject(t, tok, workspaceId, { name: `${tag} project` });
  const project2 = await createProject(t, tok, workspaceId, { name: `${tag} second project` });
  const column = must(await api.post(`/column/${project.id}`, { name: 'Review' }, tok), 'column');
  const task = await createTask(t, tok, project.id, { title: `${tag} task` });
  const task2 = await createTask(t, tok, project.id, { title: `${tag} second task` });
  const label = must(await api.post('/label', { name: `${tag} label`, color: '#123456', workspaceId }, tok), 'label');
  must(await api.put(`/label/${label.id}/task`, { taskId: task.id }, tok), 'attach label');
  const entry = must(await api.post('/time-entry', { taskId: task.id, startTime: '2025-01-01T00:00:00Z', endTime: '2025-01-01T01:00:00Z' }, tok), 'time entry');
  const comment = must(await api.post(`/comment/${task.id}`, { content: `${tag} comment` }, tok), 'comment');
  const relation = must(await api.post('/task-relation', { sourceTaskId: task.id, targetTaskId: task2.id, relationType: 'blocks' }, tok), 'relation');
  const integrations = {} as Record<Notifying, { id: string }>;
  for (const type of NOTIFYING) integrations[type] = must(await api.post(`/${type}-integration/project/${project.id}`, integrationBody(type), tok), type);
  const selfgit = must(await api.post(`/selfgit-integration/project/${project.id}`, selfgitBody(), tok), 'selfgit');
  await plantHostedgitLink(t.databaseUrl, workspaceId, project.id, 'acme', `hosted-${project.id}`);
  const hosted = must(await api.get(`/hostedgit-integration/project/${project.id}`, tok), 'hostedgit');
  const rule = must(await api.put(`/workflow-rule/${project.id}`, { integrationType: 'selfgit', eventType: 'pr_opened', columnId: column.id }, tok), 'workflow rule');
  const delivery = await insertDelivery(t, { workspaceId, projectId: project.id, targetType: 'generic-webhook', targetId: integrations['generic-webhook'].id, status: 'failed' });
  const [{ id: notification }] = await sql(
    t.databaseUrl,
    `INSERT INTO notification (workspace_id, user_id, event_id, type, title, content, task_id, project_id)
     VALUES ($1, $2, gen_random_uuid(), 'task.assigned', $3, $3, $4, $5) RETURNING id`,
    [workspaceId, owner.user.id, `${tag} notification`, task.id, project.id],
  );
  const team = must(await api.post('/auth/organization/create-team', { organizationId: workspaceId, name: `${tag} team` }, tok), 'team');
  const invitation = must(await api.post('/auth/organization/invite-member', { organizationId: workspaceId, email: `inv-${hex()}@example.test`, role: 'viewer' }, tok), 'invite');
  const apiKey = must(await api.post('/auth/api-key/create', { name: `${tag} key` }, tok), 'api key');
  must(await api.post('/auth/organization/create-role', { organizationId: workspaceId, role: `${tag}-role`, permission: { task: ['read'] } }, tok), 'role');
  const [{ id: memberId }] = await sql(t.databaseUrl, `SELECT id FROM member WHERE organization_id = $1 AND user_id = $2`, [workspaceId, owner.user.id]);
  return {
    owner,
    workspaceId,
    project,
    project2,
    column,
    task,
    task2,
    label,
    entry,
    comment,
    relation,
    integrations,
    selfgit,
    hosted,
    rule,
    delivery,
    notification,
    team,
    invitation,
    apiKey,
    memberId,
    sessionId: sessionIdOf(tok),
  };
}
type Objects = Awaited<ReturnType<typeof workspaceObjects>>;

/** The kinds of ids a body or query field can carry, and where B's object of that kind is. */
const KIND = {
  workspace: (o: Objects) => o.workspaceId,
  project: (o: Objects) => o.project.id,
  column: (o: Objects) => o.column.id,
  task: (o: Objects) => o.task.id,
  label: (o: Objects) => o.label.id,
  team: (o: Objects) => o.team.id,
  member: (o: Objects) => o.memberId,
  user: (o: Objects) => o.owner.user.id,
  invitation: (o: Objects) => o.invitation.id,
  delivery: (o: Objects) => o.delivery,
  notification: (o: Objects) => o.notification,
  apiKey: (o: Objects) => o.apiKey.id,
  session: (o: Objects) => o.sessionId,
  comment: (o: Objects) => o.comment.id,
};
type Kind = keyof typeof KIND;

interface Call {
  /** Path without the `/api` prefix, query included. */
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  raw?: string;
  /** Credential to send instead of the actor's shared one (a new session, a copy of the actor). */
  token?: string | null;
}

interface Ctx {
  actor: Actor;
  A: Objects;
  fresh: ReturnType<typeof factories>;
}

interface Recipe {
  call: (c: Ctx) => Call | Promise<Call>;
  /**
   * Body fields (`a.0.b`) and query parameters (`?name`) that carry ids: the cross-tenant sweep
   * sends B's object of that kind there as A's owner and expects a 4xx that changes nothing.
   */
  ids?: Record<string, Kind>;
  /** A check the handler makes beyond the route's declaration (see expectedOutcome). */
  handler?: Access;
  /** The handler answers 404 to callers who are not members of the path's workspace. */
  membersOnly?: true;
}

/** Objects made fresh for one call, in workspace A, by A's owner. */
function factories(A: Objects, familyA: Set<string>) {
  const api = t.api;
  const tok = A.owner.token;
  const project = () => createProject(t, tok, A.workspaceId, { name: randomName('Fresh') });
  const task = () => createTask(t, tok, A.project.id, { title: randomName('Fresh task') });
  const memberId = async () => addMember(t.databaseUrl, A.workspaceId, (await copyOfUser(t, A.owner, 'Fresh viewer')).user.id, 'viewer');
  // Written directly: a workspace holds at most 10 teams made through the API.
  const team = async (): Promise<{ id: string }> =>
    (await sql(t.databaseUrl, `INSERT INTO team (organization_id, name) VALUES ($1, $2) RETURNING id`, [A.workspaceId, randomName('Team')]))[0];
  return {
    project,
    task,
    memberId,
    team,
    async column() {
      return must(await api.post(`/column/${A.project.id}`, { name: randomName('Col') }, tok), 'column');
    },
    async label() {
      return must(await api.post('/label', { name: randomName('Label'), color: '#abcdef', workspaceId: A.workspaceId }, tok), 'label');
    },
    async entry() {
      return must(await api.post('/time-entry', { taskId: A.task.id, startTime: '2025-02-01T00:00:00Z' }, tok), 'entry');
    },
    async comment(token: string) {
      return must(await api.post(`/comment/${A.task.id}`, { content: 'Fresh comment' }, token), 'comment');
    },
    asset: () => uploadFile(t, tok, A.task.id),
    async relation() {
      const target = await task();
      return must(await api.post('/task-relation', { sourceTaskId: A.task.id, targetTaskId: target.id, relationType: 'related' }, tok), 'relation');
    },
    async teamWithOwner() {
      const tm = await team();
      await sql(t.databaseUrl, `INSERT INTO team_member (team_id, user_id) VALUES ($1, $2)`, [tm.id, A.owner.user.id]);
      return tm;
    },
    async invitation() {
      return must(await api.post('/auth/organization/invite-member', { organizationId: A.workspaceId, email: `fresh-${hex()}@example.test`, role: 'viewer' }, tok), 'invite');
    },
    /** An invitation to `email` into a workspace of a new user (so anyone may accept it). */
    async invitationTo(email: string) {
      const inviter = await copyOfUser(t, A.owner, 'Inviter');
      const ws = await api.createWorkspace(inviter.token);
      return must(await api.post('/auth/organization/invite-member', { organizationId: ws.id, email, role: 'viewer' }, inviter.token), 'invite');
    },
    /** A workspace of A's owner with A's members in the same roles (for deleting a workspace). */
    async workspace() {
      const ws = await api.createWorkspace(tok);
      familyA.add(ws.id);
      for (const a of actors) if (a.role && a.role !== 'owner') await addMember(t.databaseUrl, ws.id, a.user.user.id, a.role);
      return ws.id as string;
    },
    async projectWith(type: Notifying | 'selfgit' | 'hostedgit') {
      const p = await project();
      // A hostedgit link is proven on the host (its own tests); here it is stored as a proven one.
      if (type === 'hostedgit') await plantHostedgitLink(t.databaseUrl, A.workspaceId, p.id, 'acme', `hosted-${p.id}`);
      else must(await api.post(`/${type}-integration/project/${p.id}`, type === 'selfgit' ? selfgitBody() : integrationBody(type), tok), `${type} on a fresh project`);
      return p;
    },
    async delivery(type: Notifying) {
      return insertDelivery(t, { workspaceId: A.workspaceId, projectId: A.project.id, targetType: type, targetId: A.integrations[type].id, status: 'failed' });
    },
    async notification(userId: string, workspaceId: string) {
      const [{ id }] = await sql(
        t.databaseUrl,
        `INSERT INTO notification (workspace_id, user_id, event_id, type, title, content) VALUES ($1, $2, gen_random_uuid(), 'task.assigned', 'Fresh', 'Fresh') RETURNING id`,
        [workspaceId, userId],
      );
      return id as string;
    },
  };
}

const ORG = '/auth/organization';
const may = (c: Ctx, need: Access) => c.actor.role !== undefined && expectedOutcome({ permission: need } as RouteAccess, c.actor) === 'pass';

/** Per notifying integration type: its six routes. */
const notifyingRecipes = (type: Notifying): Record<string, Recipe> => ({
  [`GET /api/${type}-integration/project/:projectId`]: { call: (c) => ({ path: `/${type}-integration/project/${c.A.project.id}` }) },
  [`POST /api/${type}-integration/project/:projectId`]: {
    call: async (c) => ({ path: `/${type}-integration/project/${(await c.fresh.project()).id}`, body: integrationBody(type) }),
  },
  [`PATCH /api/${type}-integration/project/:projectId`]: { call: (c) => ({ path: `/${type}-integration/project/${c.A.project.id}`, body: { isActive: true } }) },
  [`DELETE /api/${type}-integration/project/:projectId`]: { call: async (c) => ({ path: `/${type}-integration/project/${(await c.fresh.projectWith(type)).id}` }) },
  [`GET /api/${type}-integration/project/:projectId/deliveries`]: {
    call: (c) => ({ path: `/${type}-integration/project/${c.A.project.id}/deliveries?limit=5${type === 'generic-webhook' ? `&before=${c.A.delivery}` : ''}` }),
    ids: type === 'generic-webhook' ? { '?before': 'delivery' } : undefined,
  },
  [`POST /api/${type}-integration/project/:projectId/deliveries/:deliveryId/redeliver`]: {
    call: async (c) => ({ path: `/${type}-integration/project/${c.A.project.id}/deliveries/${await c.fresh.delivery(type)}/redeliver` }),
  },
});

/** How to make a valid request to each non-public route, against workspace A. */
const RECIPES: Record<string, Recipe> = {
  // ---- account (user-level: every signed-in caller, on its own data)
  'POST /api/auth/sign-out': { call: async (c) => ({ path: '/auth/sign-out', token: await c.actor.newSession() }) },
  'GET /api/auth/get-session': { call: () => ({ path: '/auth/get-session' }) },
  'POST /api/auth/api-key/create': { call: () => ({ path: '/auth/api-key/create', body: { name: 'matrix', permissions: { task: ['read'] } } }) },
  'GET /api/auth/api-key/list': { call: () => ({ path: '/auth/api-key/list' }) },
  'POST /api/auth/api-key/delete': {
    call: async (c) => {
      const session = c.actor.kind === 'user' ? c.actor.token : c.actor.user.token;
      const key = await t.api.post('/auth/api-key/create', { name: 'to delete' }, session);
      return { path: '/auth/api-key/delete', body: { keyId: key.body?.id ?? MISSING_ID } };
    },
    ids: { keyId: 'apiKey' },
  },
  'POST /api/auth/change-password': {
    call: async (c) => ({
      path: '/auth/change-password',
      // The other lanes keep using the actor's sessions.
      body: { currentPassword: c.actor.user.password, newPassword: c.actor.user.password, revokeOtherSessions: false },
      token: await c.actor.newSession(),
    }),
  },
  'GET /api/auth/list-sessions': { call: () => ({ path: '/auth/list-sessions' }) },
  'POST /api/auth/revoke-session': {
    call: async (c) => ({ path: '/auth/revoke-session', body: { id: c.actor.kind === 'user' ? sessionIdOf((await c.actor.newSession())!) : MISSING_ID } }),
    ids: { id: 'session' },
  },
  'POST /api/auth/revoke-other-sessions': { call: () => ({ path: '/auth/revoke-other-sessions' }) },
  'POST /api/auth/update-user': { call: (c) => ({ path: '/auth/update-user', body: { name: c.actor.user.user.name } }) },
  'POST /api/auth/delete-user': {
    call: async (c) => {
      const copy = await c.actor.clone();
      return { path: '/auth/delete-user', body: { password: copy.user.password }, token: copy === c.actor ? undefined : copy.token };
    },
  },
  'GET /api/auth/list-accounts': { call: () => ({ path: '/auth/list-accounts' }) },
  'POST /api/auth/unlink-account': {
    call: async (c) => {
      await sql(t.databaseUrl, `INSERT INTO account (user_id, provider_id, account_id) VALUES ($1, 'custom', $2) ON CONFLICT DO NOTHING`, [c.actor.user.user.id, hex()]);
      return { path: '/auth/unlink-account', body: { providerId: 'custom' } };
    },
  },
  'GET /api/oauth/id-token': { call: () => ({ path: '/oauth/id-token' }) },
  'POST /api/admin/queues/session': { call: () => ({ path: '/admin/queues/session' }) },
  'GET /api/search': {
    call: (c) => ({ path: `/search?q=${encodeURIComponent('A task')}&workspaceId=${c.A.workspaceId}&projectId=${c.A.project.id}` }),
    ids: { '?workspaceId': 'workspace', '?projectId': 'project' },
    membersOnly: true,
  },
  // ---- notifications (user-level)
  'GET /api/notification-preferences': { call: () => ({ path: '/notification-preferences' }) },
  'PUT /api/notification-preferences': { call: () => ({ path: '/notification-preferences', body: { emailEnabled: true } }) },
  'PUT /api/notification-preferences/workspaces/:workspaceId': {
    call: (c) => ({ path: `/notification-preferences/workspaces/${c.A.workspaceId}`, body: { isActive: true, selectedProjectIds: [c.A.project.id] } }),
    ids: { 'selectedProjectIds.0': 'project' },
    membersOnly: true,
  },
  'DELETE /api/notification-preferences/workspaces/:workspaceId': { call: (c) => ({ path: `/notification-preferences/workspaces/${c.A.workspaceId}` }), membersOnly: true },
  'GET /api/notification': { call: (c) => ({ path: c.actor.role === 'owner' ? `/notification?before=${c.A.notification}` : '/notification' }), ids: { '?before': 'notification' } },
  'GET /api/notification/unread-count': { call: () => ({ path: '/notification/unread-count' }) },
  'PATCH /api/notification/read-all': { call: () => ({ path: '/notification/read-all' }) },
  'DELETE /api/notification/clear-all': { call: () => ({ path: '/notification/clear-all' }) },
  'PATCH /api/notification/:id/read': { call: async (c) => ({ path: `/notification/${await c.fresh.notification(c.actor.user.user.id, c.actor.home)}/read` }) },
  // ---- workspaces, members, teams, invitations, roles
  'POST /api/auth/organization/create': { call: () => ({ path: `${ORG}/create`, body: { name: randomName('Own workspace') } }) },
  'GET /api/auth/organization/list': { call: () => ({ path: `${ORG}/list` }) },
  'GET /api/auth/organization/get-full-organization': { call: (c) => ({ path: `${ORG}/get-full-organization?organizationId=${c.A.workspaceId}` }) },
  'POST /api/auth/organization/update': { call: (c) => ({ path: `${ORG}/update`, body: { organizationId: c.A.workspaceId, data: { description: randomName('About') } } }) },
  'POST /api/auth/organization/delete': { call: async (c) => ({ path: `${ORG}/delete`, body: { organizationId: await c.fresh.workspace() } }) },
  'POST /api/auth/organization/set-active': { call: (c) => ({ path: `${ORG}/set-active`, body: { organizationId: c.A.workspaceId } }), ids: { organizationId: 'workspace' } },
  'GET /api/auth/organization/my-permissions': { call: (c) => ({ path: `${ORG}/my-permissions?organizationId=${c.A.workspaceId}` }) },
  'GET /api/auth/organization/list-members': { call: (c) => ({ path: `${ORG}/list-members?organizationId=${c.A.workspaceId}` }) },
  'GET /api/workspace/:workspaceId/members': { call: (c) => ({ path: `/workspace/${c.A.workspaceId}/members` }) },
  // Pending invitations: only members who manage invitations (access rule 1).
  'GET /api/auth/organization/list-invitations': {
    call: (c) => ({ path: `${ORG}/list-invitations?organizationId=${c.A.workspaceId}` }),
    handler: { resource: 'invitation', action: 'create' },
  },
  'GET /api/auth/organization/list-teams': { call: (c) => ({ path: `${ORG}/list-teams?organizationId=${c.A.workspaceId}` }) },
  'GET /api/auth/organization/list-team-members': { call: (c) => ({ path: `${ORG}/list-team-members?teamId=${c.A.team.id}` }) },
  'GET /api/auth/organization/list-roles': { call: (c) => ({ path: `${ORG}/list-roles?organizationId=${c.A.workspaceId}` }) },
  // In a copy of A (same members, same roles): A itself would reach the limit of 10 teams.
  'POST /api/auth/organization/create-team': { call: async (c) => ({ path: `${ORG}/create-team`, body: { organizationId: await c.fresh.workspace(), name: randomName('Team') } }) },
  'POST /api/auth/organization/update-team': { call: (c) => ({ path: `${ORG}/update-team`, body: { teamId: c.A.team.id, data: { name: randomName('Team') } } }) },
  'POST /api/auth/organization/remove-team': { call: async (c) => ({ path: `${ORG}/remove-team`, body: { teamId: (await c.fresh.team()).id } }) },
  'POST /api/auth/organization/add-team-member': {
    call: async (c) => ({ path: `${ORG}/add-team-member`, body: { teamId: (await c.fresh.team()).id, userId: c.A.owner.user.id } }),
    ids: { userId: 'user' },
  },
  'POST /api/auth/organization/remove-team-member': {
    call: async (c) => ({ path: `${ORG}/remove-team-member`, body: { teamId: (await c.fresh.teamWithOwner()).id, userId: c.A.owner.user.id } }),
    ids: { userId: 'user' },
  },
  'POST /api/auth/organization/invite-member': {
    call: (c) => ({ path: `${ORG}/invite-member`, body: { organizationId: c.A.workspaceId, email: `new-${hex()}@example.test`, role: 'viewer', teamId: c.A.team.id } }),
    ids: { teamId: 'team' },
  },
  'GET /api/auth/organization/list-user-invitations': { call: () => ({ path: `${ORG}/list-user-invitations` }) },
  'POST /api/auth/organization/cancel-invitation': { call: async (c) => ({ path: `${ORG}/cancel-invitation`, body: { invitationId: (await c.fresh.invitation()).id } }) },
  'POST /api/auth/organization/accept-invitation': {
    call: async (c) => ({ path: `${ORG}/accept-invitation`, body: { invitationId: (await c.fresh.invitationTo(c.actor.user.user.email)).id } }),
    ids: { invitationId: 'invitation' },
  },
  'POST /api/auth/organization/reject-invitation': {
    call: async (c) => ({ path: `${ORG}/reject-invitation`, body: { invitationId: (await c.fresh.invitationTo(c.actor.user.user.email)).id } }),
    ids: { invitationId: 'invitation' },
  },
  'POST /api/auth/organization/update-member-role': {
    call: async (c) => ({ path: `${ORG}/update-member-role`, body: { organizationId: c.A.workspaceId, memberId: await c.fresh.memberId(), role: 'viewer' } }),
    ids: { memberId: 'member' },
  },
  'POST /api/auth/organization/remove-member': {
    call: async (c) => ({ path: `${ORG}/remove-member`, body: { organizationId: c.A.workspaceId, memberIdOrEmail: await c.fresh.memberId() } }),
    ids: { memberIdOrEmail: 'member' },
  },
  'POST /api/auth/organization/create-role': {
    call: (c) => ({ path: `${ORG}/create-role`, body: { organizationId: c.A.workspaceId, role: `role-${hex()}`, permission: { task: ['read'] } } }),
  },
  // ---- projects and columns
  'GET /api/project': { call: (c) => ({ path: `/project?workspaceId=${c.A.workspaceId}` }) },
  'GET /api/events': { call: (c) => ({ path: `/events?workspaceId=${c.A.workspaceId}` }) },
  'POST /api/project': { call: (c) => ({ path: '/project', body: { name: randomName('Project'), workspaceId: c.A.workspaceId } }) },
  'PUT /api/project/reorder': {
    call: (c) => ({ path: `/project/reorder?workspaceId=${c.A.workspaceId}`, body: { projects: [{ id: c.A.project2.id, position: 7 }] } }),
    ids: { 'projects.0.id': 'project' },
  },
  'GET /api/project/:id': { call: (c) => ({ path: `/project/${c.A.project.id}` }) },
  'PUT /api/project/:id/archive': { call: (c) => ({ path: `/project/${c.A.project2.id}/archive` }) },
  'PUT /api/project/:id/unarchive': { call: (c) => ({ path: `/project/${c.A.project2.id}/unarchive` }) },
  'PUT /api/project/:id': { call: (c) => ({ path: `/project/${c.A.project2.id}`, body: { description: randomName('About') } }) },
  'DELETE /api/project/:id': { call: async (c) => ({ path: `/project/${(await c.fresh.project()).id}` }) },
  'PUT /api/column/reorder/:projectId': {
    call: (c) => ({ path: `/column/reorder/${c.A.project.id}`, body: { columns: [{ id: c.A.column.id, position: 9 }] } }),
    ids: { 'columns.0.id': 'column' },
  },
  'GET /api/column/:projectId': { call: (c) => ({ path: `/column/${c.A.project.id}` }) },
  'POST /api/column/:projectId': { call: (c) => ({ path: `/column/${c.A.project.id}`, body: { name: randomName('Column') } }) },
  'PUT /api/column/:id': { call: (c) => ({ path: `/column/${c.A.column.id}`, body: { color: '#00ff00' } }) },
  'DELETE /api/column/:id': { call: async (c) => ({ path: `/column/${(await c.fresh.column()).id}` }) },
  // ---- tasks
  'POST /api/task/:projectId': { call: (c) => ({ path: `/task/${c.A.project.id}`, body: { title: randomName('Task') } }) },
  'GET /api/task/tasks/:projectId': { call: (c) => ({ path: `/task/tasks/${c.A.project.id}?assigneeId=none&dueBefore=2030-01-01` }) },
  'GET /api/task/mine': { call: (c) => ({ path: `/task/mine?workspaceId=${c.A.workspaceId}` }), ids: { '?workspaceId': 'workspace' }, membersOnly: true },
  'GET /api/task/card-details/:projectId': { call: (c) => ({ path: `/task/card-details/${c.A.project.id}` }) },
  'PUT /api/task/reorder/:projectId': {
    call: async (c) => {
      const fresh = await c.fresh.task();
      return { path: `/task/reorder/${c.A.project.id}`, body: { status: fresh.status, taskIds: [fresh.id] } };
    },
    ids: { 'taskIds.0': 'task' },
  },
  'PUT /api/task/move/:id': {
    call: async (c) => ({ path: `/task/move/${(await c.fresh.task()).id}`, body: { destinationProjectId: c.A.project2.id } }),
    ids: { destinationProjectId: 'project' },
  },
  'PUT /api/task/status/:id': { call: (c) => ({ path: `/task/status/${c.A.task2.id}`, body: { status: 'in-progress' } }) },
  'PUT /api/task/priority/:id': { call: (c) => ({ path: `/task/priority/${c.A.task2.id}`, body: { priority: 'high' } }) },
  'PUT /api/task/title/:id': { call: (c) => ({ path: `/task/title/${c.A.task2.id}`, body: { title: 'A second task' } }) },
  'PUT /api/task/description/:id': { call: (c) => ({ path: `/task/description/${c.A.task2.id}`, body: { description: randomName('About') } }) },
  'PUT /api/task/assignee/:id': { call: (c) => ({ path: `/task/assignee/${c.A.task2.id}`, body: { userId: c.A.owner.user.id } }), ids: { userId: 'user' } },
  'PUT /api/task/due-date/:id': { call: (c) => ({ path: `/task/due-date/${c.A.task2.id}`, body: { dueDate: '2030-01-01T00:00:00.000Z' } }) },
  'GET /api/task/:id': { call: (c) => ({ path: `/task/${c.A.task.id}` }) },
  'PUT /api/task/:id': { call: (c) => ({ path: `/task/${c.A.task2.id}`, body: { priority: 'low' } }) },
  'DELETE /api/task/:id': { call: async (c) => ({ path: `/task/${(await c.fresh.task()).id}` }) },
  // Watching is the caller's own choice about a task they may read.
  'GET /api/task/:id/watchers': { call: (c) => ({ path: `/task/${c.A.task.id}/watchers` }) },
  'POST /api/task/:id/watch': { call: (c) => ({ path: `/task/${c.A.task.id}/watch`, body: {} }) },
  'DELETE /api/task/:id/watch': { call: (c) => ({ path: `/task/${c.A.task.id}/watch` }) },
  'POST /api/task-relation': {
    call: async (c) => ({ path: '/task-relation', body: { sourceTaskId: c.A.task.id, targetTaskId: (await c.fresh.task()).id, relationType: 'related' } }),
    ids: { targetTaskId: 'task' },
  },
  'GET /api/task-relation/:taskId': { call: (c) => ({ path: `/task-relation/${c.A.task.id}` }) },
  'GET /api/task-relation/project/:projectId': { call: (c) => ({ path: `/task-relation/project/${c.A.project.id}` }) },
  'PUT /api/task/image-upload/:taskId': {
    call: (c) => ({ path: `/task/image-upload/${c.A.task.id}`, body: { filename: 'a.png', contentType: 'image/png', size: 64, surface: 'description' } }),
  },
  'POST /api/task/image-upload/:taskId/finalize': {
    // The caller's own upload, sent but not finalized (callers who may not upload get the owner's).
    call: async (c) => {
      const body = { filename: 'a.png', contentType: 'image/png', size: PNG_BYTES.length, surface: 'attachment' };
      const ticket = must(await t.api.put(`/task/image-upload/${c.A.task.id}`, body, authorToken(c)), 'upload request');
      await fetch(ticket.uploadUrl, { method: 'PUT', headers: ticket.headers, body: PNG_BYTES });
      return { path: `/task/image-upload/${c.A.task.id}/finalize`, body: { ...body, key: ticket.key } };
    },
  },
  'GET /api/asset/task/:taskId': { call: (c) => ({ path: `/asset/task/${c.A.task.id}` }) },
  'GET /api/asset/:id': { call: async (c) => ({ path: `/asset/${(await c.fresh.asset()).id}` }), membersOnly: true },
  // Its uploader (here A's owner) or task:update.
  'DELETE /api/asset/:id': { call: async (c) => ({ path: `/asset/${(await c.fresh.asset()).id}` }), handler: { resource: 'task', action: 'update' } },
  'DELETE /api/task-relation/:id': { call: async (c) => ({ path: `/task-relation/${(await c.fresh.relation()).id}` }) },
  'GET /api/task/export/:projectId': { call: (c) => ({ path: `/task/export/${c.A.project.id}` }) },
  'POST /api/task/import/:projectId': {
    call: (c) => ({ path: `/task/import/${c.A.project2.id}`, body: { tasks: [{ title: randomName('Imported'), status: 'to-do', userId: c.A.owner.user.id }] } }),
  },
  'PATCH /api/task/bulk': {
    call: (c) => ({ path: '/task/bulk', body: { taskIds: [c.A.task2.id], operation: 'updatePriority', value: 'medium' } }),
    ids: { 'taskIds.0': 'task' },
    handler: { resource: 'task', action: 'update' },
  },
  // ---- labels, time, comments, activity
  'POST /api/label': {
    call: (c) => ({ path: '/label', body: { name: randomName('Label'), color: '#00aa00', workspaceId: c.A.workspaceId, taskId: c.A.task2.id } }),
    ids: { taskId: 'task' },
  },
  'GET /api/label/workspace/:workspaceId': { call: (c) => ({ path: `/label/workspace/${c.A.workspaceId}` }) },
  'GET /api/label/task/:taskId': { call: (c) => ({ path: `/label/task/${c.A.task.id}` }) },
  'PUT /api/label/:id/task': { call: async (c) => ({ path: `/label/${c.A.label.id}/task`, body: { taskId: (await c.fresh.task()).id } }), ids: { taskId: 'task' } },
  'DELETE /api/label/:id/task': {
    call: async (c) => {
      const task = await c.fresh.task();
      must(await t.api.put(`/label/${c.A.label.id}/task`, { taskId: task.id }, c.A.owner.token), 'attach');
      return { path: `/label/${c.A.label.id}/task`, body: { taskId: task.id } };
    },
    ids: { taskId: 'task' },
  },
  'GET /api/label/:id/tasks': { call: (c) => ({ path: `/label/${c.A.label.id}/tasks` }) },
  'GET /api/label/:id': { call: (c) => ({ path: `/label/${c.A.label.id}` }) },
  'PUT /api/label/:id': { call: (c) => ({ path: `/label/${c.A.label.id}`, body: { color: '#654321' } }) },
  'DELETE /api/label/:id': { call: async (c) => ({ path: `/label/${(await c.fresh.label()).id}` }) },
  'POST /api/time-entry': { call: (c) => ({ path: '/time-entry', body: { taskId: c.A.task.id, startTime: '2025-03-01T00:00:00Z', endTime: '2025-03-01T00:30:00Z' } }) },
  'GET /api/time-entry/task/:taskId': { call: (c) => ({ path: `/time-entry/task/${c.A.task.id}` }) },
  'GET /api/time-entry/:id': { call: (c) => ({ path: `/time-entry/${c.A.entry.id}` }) },
  'PUT /api/time-entry/:id': { call: (c) => ({ path: `/time-entry/${c.A.entry.id}`, body: { description: randomName('Work') } }) },
  'DELETE /api/time-entry/:id': { call: async (c) => ({ path: `/time-entry/${(await c.fresh.entry()).id}` }) },
  'GET /api/comment/:taskId': { call: (c) => ({ path: `/comment/${c.A.task.id}` }) },
  'POST /api/comment/:taskId': { call: (c) => ({ path: `/comment/${c.A.task.id}`, body: { content: 'A comment' } }) },
  // Comments are edited and deleted by their author only (docs/decisions-local.md, "Work items"):
  // the comment is the caller's own when it may comment, else A's owner's.
  'PUT /api/comment/:id': {
    call: async (c) => ({ path: `/comment/${(await c.fresh.comment(authorToken(c))).id}`, body: { content: 'Edited' } }),
  },
  'DELETE /api/comment/:id': { call: async (c) => ({ path: `/comment/${(await c.fresh.comment(authorToken(c))).id}` }) },
  // The original's older comment routes: the ids in the body, the text as `comment`.
  'POST /api/activity/comment': { call: (c) => ({ path: '/activity/comment', body: { taskId: c.A.task.id, comment: 'A comment' } }), ids: { taskId: 'task' } },
  'PUT /api/activity/comment': {
    call: async (c) => ({ path: '/activity/comment', body: { activityId: (await c.fresh.comment(authorToken(c))).id, comment: 'Edited' } }),
    ids: { activityId: 'comment' },
  },
  'DELETE /api/activity/comment': {
    call: async (c) => ({ path: '/activity/comment', body: { activityId: (await c.fresh.comment(authorToken(c))).id } }),
    ids: { activityId: 'comment' },
  },
  'GET /api/activity/:taskId': { call: (c) => ({ path: `/activity/${c.A.task.id}` }) },
  // ---- integrations
  ...Object.assign({}, ...NOTIFYING.map(notifyingRecipes)),
  'GET /api/selfgit-integration/project/:projectId': { call: (c) => ({ path: `/selfgit-integration/project/${c.A.project.id}` }) },
  'POST /api/selfgit-integration/project/:projectId': { call: async (c) => ({ path: `/selfgit-integration/project/${(await c.fresh.project()).id}`, body: selfgitBody() }) },
  'PATCH /api/selfgit-integration/project/:projectId': { call: (c) => ({ path: `/selfgit-integration/project/${c.A.project.id}`, body: { isActive: true } }) },
  'DELETE /api/selfgit-integration/project/:projectId': { call: async (c) => ({ path: `/selfgit-integration/project/${(await c.fresh.projectWith('selfgit')).id}` }) },
  // A fresh integration each time: rotating A's own would retire the secret the webhook recipe signs with.
  'POST /api/selfgit-integration/project/:projectId/rotate-webhook-secret': {
    call: async (c) => ({ path: `/selfgit-integration/project/${(await c.fresh.projectWith('selfgit')).id}/rotate-webhook-secret` }),
  },
  // Without projectId any signed-in user may check a token; with one, the handler asks for
  // workspace:manage_settings in its workspace.
  'POST /api/selfgit-integration/verify': {
    call: (c) => ({ path: '/selfgit-integration/verify', body: { ...selfgitBody(), projectId: c.A.project.id } }),
    ids: { projectId: 'project' },
    handler: { resource: 'workspace', action: 'manage_settings' },
  },
  'POST /api/selfgit-integration/import-issues': {
    call: async (c) => ({ path: '/selfgit-integration/import-issues', body: { projectId: (await c.fresh.projectWith('selfgit')).id } }),
  },
  'GET /api/hostedgit-integration/project/:projectId': { call: (c) => ({ path: `/hostedgit-integration/project/${c.A.project.id}` }) },
  'POST /api/hostedgit-integration/project/:projectId': {
    call: async (c) => {
      const p = await c.fresh.projectWith('hostedgit');
      return { path: `/hostedgit-integration/project/${p.id}`, body: { repositoryOwner: 'acme', repositoryName: `hosted-${p.id}`, branchPattern: 'hg-{number}' } };
    },
  },
  'POST /api/hostedgit-integration/project/:projectId/authorize': {
    call: (c) => ({ path: `/hostedgit-integration/project/${c.A.project.id}/authorize`, body: { repositoryOwner: 'acme', repositoryName: `hosted-${hex()}` } }),
  },
  'PATCH /api/hostedgit-integration/project/:projectId': { call: (c) => ({ path: `/hostedgit-integration/project/${c.A.project.id}`, body: { isActive: true } }) },
  'DELETE /api/hostedgit-integration/project/:projectId': { call: async (c) => ({ path: `/hostedgit-integration/project/${(await c.fresh.projectWith('hostedgit')).id}` }) },
  'GET /api/workflow-rule/:projectId': { call: (c) => ({ path: `/workflow-rule/${c.A.project.id}` }) },
  'PUT /api/workflow-rule/:projectId': {
    call: (c) => ({ path: `/workflow-rule/${c.A.project.id}`, body: { integrationType: 'hostedgit', eventType: 'pr_merged', columnId: c.A.column.id } }),
    ids: { columnId: 'column' },
  },
  'DELETE /api/workflow-rule/:id': {
    call: async (c) => {
      const p = await c.fresh.project();
      const [col] = must(await t.api.get(`/column/${p.id}`, c.A.owner.token), 'columns');
      const rule = must(await t.api.put(`/workflow-rule/${p.id}`, { integrationType: 'selfgit', eventType: 'pr_opened', columnId: col.id }, c.A.owner.token), 'rule');
      return { path: `/workflow-rule/${rule.id}` };
    },
  },
  'GET /api/external-link/task/:taskId': { call: (c) => ({ path: `/external-link/task/${c.A.task.id}` }) },
};

const authorToken = (c: Ctx) => (may(c, { resource: 'task', action: 'update' }) ? c.actor.token! : c.A.owner.token);

/** A valid request to each public route (called without credentials: must not be 401). */
const PUBLIC_RECIPES: Record<string, (c: Ctx) => Call> = {
  'GET /api/health': () => ({ path: '/health' }),
  'GET /api/hostedgit-integration/callback': () => ({ path: `/hostedgit-integration/callback?code=x&state=${hex()}${hex()}${hex()}${hex()}` }),
  'POST /api/auth/sign-up/email': () => ({ path: '/auth/sign-up/email', body: { name: 'New', email: `new-${hex()}@example.test`, password: 'correct horse battery' } }),
  'POST /api/auth/sign-in/email': (c) => ({ path: '/auth/sign-in/email', body: { email: c.actor.user.user.email, password: c.actor.user.password } }),
  'GET /api/auth/oauth2/authorize/custom': () => ({ path: '/auth/oauth2/authorize/custom' }),
  'GET /api/auth/oauth2/callback/custom': () => ({ path: '/auth/oauth2/callback/custom?code=x&state=y' }),
  'POST /api/auth/send-verification-email': (c) => ({ path: '/auth/send-verification-email', body: { email: c.actor.user.user.email } }),
  'GET /api/auth/verify-email': () => ({ path: '/auth/verify-email?token=not-a-token' }),
  'POST /api/auth/request-password-reset': (c) => ({ path: '/auth/request-password-reset', body: { email: c.actor.user.user.email } }),
  'POST /api/auth/reset-password': () => ({ path: '/auth/reset-password', body: { token: 'not-a-token', newPassword: 'another horse battery' } }),
  'POST /api/selfgit-integration/webhook/:integrationId': (c) => {
    const raw = JSON.stringify({ zen: 'ping' });
    return {
      path: `/selfgit-integration/webhook/${c.A.selfgit.id}`,
      raw,
      headers: { 'x-gitea-event': 'ping', 'x-gitea-delivery': randomUUID(), 'x-gitea-signature': hmacHex(c.A.selfgit.webhookSecret, raw) },
    };
  },
  'POST /api/hostedgit-integration/webhook': () => {
    const raw = JSON.stringify({ zen: 'ping' });
    return { path: '/hostedgit-integration/webhook', raw, headers: { 'x-github-event': 'ping', 'x-hub-signature-256': `sha256=${hmacHex(HOSTEDGIT_SECRET, raw)}` } };
  },
  'GET /api/config': () => ({ path: '/config' }),
  'GET /api/public-project/:id': (c) => ({ path: `/public-project/${c.A.project.id}` }),
  'PUT /api/asset/upload/:id': () => ({ path: `/asset/upload/${randomUUID()}?token=${hex()}`, raw: 'bytes', headers: { 'content-type': 'image/png' } }),
};

const methodOf = (key: string) => key.split(' ')[0];

let A: Objects;
let B: Objects;
let actors: Actor[];
let routes: RouteAccess[];
const familyA = new Set<string>();

beforeAll(async () => {
  await git.start();
  git.addUser(GIT_TOKEN, 'matrix');
  // The hostedgit App with its OAuth client, so that starting a link answers (the host is never called).
  const appKeys = appKeyPair();
  t = await startTestApp({
    APP_ROLES: 'api',
    HOSTEDGIT_WEBHOOK_SECRET: HOSTEDGIT_SECRET,
    HOSTEDGIT_APP_ID: '1',
    HOSTEDGIT_APP_PRIVATE_KEY: appKeys.privateKey,
    HOSTEDGIT_APP_CLIENT_ID: 'Iv1.matrix',
    HOSTEDGIT_APP_CLIENT_SECRET: 'matrix-client-secret',
  });
  const [ownerA, ownerB] = [await t.api.signUp({ name: 'Owner of A' }), await t.api.signUp({ name: 'Owner of B' })];
  [A, B] = await Promise.all([workspaceObjects(ownerA, 'Quokka'), workspaceObjects(ownerB, 'Narwhal')]);
  familyA.add(A.workspaceId);
  actors = await makeActors(t, A, B);
  routes = routeAccess(t);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await git.stop();
});

async function send(key: string, call: Call, token: string | undefined) {
  const res = await t.api.request(methodOf(key), call.path, call.body, { token, headers: call.headers, raw: call.raw });
  return { res, requestText: `${call.path} ${JSON.stringify(call.body ?? '')} ${call.raw ?? ''}` };
}

describe('the authorization matrix', () => {
  it('has a recipe for every registered route and none for a route that does not exist; the public routes are the listed few', () => {
    const keys = routes.map((r) => r.key);
    const declaredPublic = routes.filter((r) => r.isPublic).map((r) => r.key);
    expect(declaredPublic.sort()).toEqual([...PUBLIC_ROUTES].sort());
    expect(PUBLIC_ROUTES.length).toBeLessThanOrEqual(MAX_PUBLIC_ROUTES);
    expect(Object.keys(PUBLIC_RECIPES).sort()).toEqual([...PUBLIC_ROUTES].sort());
    const missing = keys.filter((k) => !PUBLIC_ROUTES.includes(k) && !RECIPES[k]).map((k) => `no recipe for ${k}`);
    const stale = Object.keys(RECIPES)
      .filter((k) => !keys.includes(k) || PUBLIC_ROUTES.includes(k))
      .map((k) => `recipe for ${k}, which is not a registered non-public route`);
    expect([...missing, ...stale]).toEqual([]);
  });

  it("ids of B in A's bodies and query strings are refused (4xx) and change nothing (before the matrix: B's objects are all there)", async () => {
    const owner = actors.find((a) => a.role === 'owner')!;
    const fresh = factories(A, familyA);
    const cases: { key: string; field: string; kind: Kind }[] = Object.entries(RECIPES).flatMap(([key, r]) =>
      Object.entries(r.ids ?? {}).map(([field, kind]) => ({ key, field, kind })),
    );
    expect(cases.length).toBeGreaterThanOrEqual(20);
    const failures: string[] = [];
    for (const { key, field, kind } of cases) {
      const call = withField(await RECIPES[key].call({ actor: owner, A, fresh }), field, KIND[kind](B));
      const before = await tenantDigest(t);
      const { res } = await send(key, call, call.token ?? owner.token);
      const changed = changedTables(before, await tenantDigest(t));
      if (res.status < 400 || res.status >= 500 || changed.length) {
        failures.push(`${key} with B's ${kind} in ${field}: ${res.status} ${res.text.slice(0, 200)}${changed.length ? `; changed ${changed.join(', ')}` : ''}`);
      }
    }
    expect(failures).toEqual([]);

    // An import is tolerant by design (docs/compatibility.md, "Export and import"): a user who is
    // not a member leaves the task unassigned, with a warning.
    const imported = await t.api.post(`/task/import/${A.project2.id}`, { tasks: [{ title: 'Imported for B', status: 'to-do', userId: B.owner.user.id }] }, A.owner.token);
    expect(imported.status).toBe(200);
    expect(imported.body.results.tasks[0].warnings).toEqual([`Imported unassigned: user ${B.owner.user.id} is not a member of this workspace`]);
    const [row] = await sql(t.databaseUrl, `SELECT user_id FROM task WHERE project_id = $1 AND title = 'Imported for B'`, [A.project2.id]);
    expect(row).toEqual({ user_id: null });
  }, 60_000);

  it('every caller gets what the route declares, never a 5xx, and never an id of a workspace it is not in', async () => {
    const failures: string[] = [];
    const seen: { actor: Actor; key: string; res: Awaited<ReturnType<typeof send>>['res']; requestText: string }[] = [];
    const anonymous = actors.find((a) => a.kind === 'anonymous')!;
    const fresh = factories(A, familyA);

    // Public routes: never 401, never 5xx.
    for (const key of PUBLIC_ROUTES) {
      const { res, requestText } = await send(key, PUBLIC_RECIPES[key]({ actor: anonymous, A, fresh }), undefined);
      seen.push({ actor: anonymous, key, res, requestText });
      if (res.status === 401 || res.status >= 500) failures.push(`${key} (public) answered ${res.status} ${res.text}`);
    }

    const guarded = routes.filter((r) => !r.isPublic);
    // One lane per actor: an actor's calls run in order (sign-out, revoke-other-sessions), actors side by side.
    await Promise.all(
      actors.map(async (actor) => {
        for (const route of guarded) {
          const recipe = RECIPES[route.key];
          if (!recipe) continue;
          const call = await recipe.call({ actor, A, fresh });
          const token = call.token === null ? undefined : actor.kind === 'scopedKey' ? scopedKeyFor(actors, route) : (call.token ?? actor.token);
          const { res, requestText } = await send(route.key, call, token);
          seen.push({ actor, key: route.key, res, requestText });
          const want = expectedOutcome(route, actor, recipe);
          const errorKey = route.errorBodyKey ?? 'message';
          const message = res.body?.[errorKey];
          const ok =
            want === 'pass'
              ? res.status >= 200 && res.status < 300
              : res.status === want &&
                (want !== 401 || message === 'Unauthorized') &&
                (want !== 404 || /not found$/.test(message)) &&
                (want !== 403 || actor.kind !== 'scopedKey' || message === 'Insufficient API key scope');
          if (!ok) failures.push(`${route.key} as ${actor.name}: expected ${want}, got ${res.status} ${res.text.slice(0, 200)}`);
        }
      }),
    );

    // Ids of the other tenant in any answer (ids the request itself carried are left out).
    const idsA = await idsOfWorkspaces(t, [...familyA]);
    const idsB = await idsOfWorkspaces(t, [B.workspaceId]);
    const both = new Set([...idsA, ...idsB]);
    for (const { actor, key, res, requestText } of seen) {
      const forbidden = actor.role ? idsB : actor.name === 'owner of B' ? idsA : both;
      const leaked = leakedIds(res, requestText, forbidden);
      if (leaked.length) failures.push(`${key} as ${actor.name} answered ids of another workspace: ${leaked.join(', ')} in ${res.text.slice(0, 300)}`);
    }
    expect(failures).toEqual([]);
    expect(seen.length).toBe(PUBLIC_ROUTES.length + guarded.length * actors.length);
    // The leak check can fire: A's own answers name A's ids, which the owner of B must never see.
    const own = seen.find((s) => s.actor.role === 'owner' && s.key === 'GET /api/task/:id')!;
    expect(leakedIds(own.res, '', idsA)).toContain(A.task.id);
    const samples = {
      workspace: B.workspaceId,
      project: B.project.id,
      task: B.task.id,
      label: B.label.id,
      team: B.team.id,
      invitation: B.invitation.id,
      delivery: B.delivery,
      user: B.owner.user.id,
    };
    expect(Object.entries(samples).filter(([, id]) => !idsB.has(id))).toEqual([]);
  }, 120_000);

  it("search: the owner of B finds none of A's words; A's members find them", async () => {
    for (const q of ['Quokka', 'quokka task', 'Quokka comment', 'Quokka project']) {
      const mine = await t.api.get(`/search?q=${encodeURIComponent(q)}`, A.owner.token);
      expect([q, mine.status]).toEqual([q, 200]);
      const theirs = await t.api.get(`/search?q=${encodeURIComponent(q)}`, B.owner.token);
      expect([q, theirs.status]).toEqual([q, 200]);
      for (const section of ['tasks', 'projects', 'workspaces', 'comments', 'activities']) expect([q, section, theirs.body[section] ?? []]).toEqual([q, section, []]);
      expect(theirs.text).not.toContain('Quokka');
    }
    const found = await t.api.get('/search?q=Quokka', A.owner.token);
    expect(found.body.tasks.map((x: any) => x.id)).toContain(A.task.id);
    expect(found.body.comments.length).toBeGreaterThan(0);
  });
});

/** The call with `value` at a body path (`a.0.b`) or in a query parameter (`?name`). */
function withField(call: Call, field: string, value: string): Call {
  if (field.startsWith('?')) {
    const url = new URL(call.path, 'http://x');
    url.searchParams.set(field.slice(1), value);
    return { ...call, path: url.pathname + url.search };
  }
  const body = structuredClone(call.body ?? {}) as any;
  const steps = field.split('.');
  let at = body;
  for (const step of steps.slice(0, -1)) at = at[step];
  at[steps[steps.length - 1]] = value;
  return { ...call, body };
}
