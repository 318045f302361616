import fc from 'fast-check';
import { uploadFile } from '../../support/files';
import { startTestApp, TestApp } from '../../support/app';
import { databaseSnapshots } from '../../support/db-snapshot';
import { addMember } from '../../support/fixtures';
import { bodyPaths, bodyWith, carriesIllFormedText, encode, fuzzId, fuzzQuery, fuzzValue, rawBodies } from '../../support/fuzz';
import { BOT_TOKEN } from '../../support/integrations';
import { registeredRoutes, routeAccess } from '../../support/routes';
import { appKeyPair, plantHostedgitLink } from '../../support/git-hosts';
import { createProject, createTask, MISSING_ID, ownerWithWorkspace } from '../../support/work-items';

/**
 * Every registered route with a path parameter, a query parameter or a body gets generated hostile
 * input (test/support/fuzz.ts) with the workspace owner's credentials and real objects in the
 * other parameters, so requests reach validation and the services. House rules
 * (docs/decisions-local.md, "Errors and conventions"): never a 500; a 4xx body is exactly
 * `{message}` (`{error}` on the routes that declare it); a refused request writes nothing; a
 * request carrying text that is not well-formed Unicode (a lone surrogate in a body value or key,
 * percent escapes that are not UTF-8 in the path or query) is refused, whatever route it is sent to.
 * Fixed seed: a failure replays.
 */

/** Base inputs of a route: real ids for its path parameters, a body and a query that would pass. */
interface Fixture {
  params?: Record<string, string>;
  body?: Record<string, unknown>;
  query?: Record<string, string>;
}

/** Routes with inputs that are not fuzzed, and why. */
const NOT_FUZZED: Record<string, string> = {};

/** Generated requests per kind of input (body field, whole body, path, query) of each route; FUZZ_RUNS overrides. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);

/**
 * Sent in every body field of every route, before the generated values: a NUL character (Postgres
 * text cannot hold one), a lone surrogate as a value and as a key, each JSON type where another is
 * expected, an empty string, -0 and a number past the double range.
 */
const FIELD_EXAMPLES = ['"a\\u0000b"', '"a\\ud800b"', '{"\\udc00":1}', 'null', '[]', '{}', 'true', '""', '-0', '1e400'];

/** Sent in every path parameter and query parameter of every route: a lone surrogate (`%ED%A0%80` once encoded) and `%FF`, neither UTF-8. */
const LONE_SURROGATE = '\uD800';
const NOT_UTF8 = ['%ED%A0%80', '%FF'];

let t: TestApp;
beforeAll(async () => {
  // The API alone: no worker drains the outbox or writes notifications while snapshots are compared.
  // A hostedgit webhook secret, so that route checks signatures instead of answering 503.
  // The hostedgit App with its OAuth client, so that starting a link answers (the host is never called).
  t = await startTestApp({
    APP_ROLES: 'api',
    HOSTEDGIT_WEBHOOK_SECRET: 'fuzz-webhook-secret-0123456789abcdef',
    HOSTEDGIT_APP_ID: '1',
    HOSTEDGIT_APP_PRIVATE_KEY: appKeyPair().privateKey,
    HOSTEDGIT_APP_CLIENT_ID: 'Iv1.fuzz',
    HOSTEDGIT_APP_CLIENT_SECRET: 'fuzz-client-secret',
  });
});
afterAll(() => t?.close());

async function buildFixtures(): Promise<{ token: string; fixtures: Record<string, Fixture> }> {
  const A = await ownerWithWorkspace(t);
  const ws = A.workspaceId;
  const tok = A.owner.token;
  const ok = <T = any>(res: { status: number; body: T; text: string }, what: string): T => {
    if (res.status !== 200) throw new Error(`fixture ${what}: ${res.status} ${res.text}`);
    return res.body;
  };
  const p = await createProject(t, tok, ws);
  const p2 = await createProject(t, tok, ws);
  const task = await createTask(t, tok, p.id);
  const task2 = await createTask(t, tok, p.id);
  const label = ok(await t.api.post('/label', { name: 'L', color: '#000000', workspaceId: ws, taskId: task.id }, tok), 'label');
  const te = ok(await t.api.post('/time-entry', { taskId: task.id, startTime: '2024-01-01T00:00:00Z' }, tok), 'time entry');
  const cm = ok(await t.api.post(`/comment/${task.id}`, { content: 'hi' }, tok), 'comment');
  const cols = ok(await t.api.get(`/column/${p.id}`, tok), 'columns');
  const relation = ok(await t.api.post('/task-relation', { sourceTaskId: task.id, targetTaskId: task2.id, relationType: 'related' }, tok), 'relation');
  // Files (docs/files.md): a finished one to read, one to delete, and an upload waiting for its bytes.
  const fileRead = await uploadFile(t, tok, task.id);
  const fileGone = await uploadFile(t, tok, task.id);
  const waiting = ok(await t.api.put(`/task/image-upload/${task.id}`, { filename: 'w.png', contentType: 'image/png', size: 10, surface: 'attachment' }, tok), 'upload');
  const teams = ok(await t.api.get(`/auth/organization/list-teams?organizationId=${ws}`, tok), 'teams');
  const spareTeam = ok(await t.api.post('/auth/organization/create-team', { name: 'spare', organizationId: ws }, tok), 'team');
  const u2 = await t.api.signUp();
  const memberId = await addMember(t.databaseUrl, ws, u2.user.id, 'member');
  const spareWs = await t.api.createWorkspace(tok);
  const key = ok(await t.api.post('/auth/api-key/create', { name: 'spare' }, tok), 'api key');
  // A second session of the owner, for revoke-session.
  ok(await t.api.post('/auth/sign-in/email', { email: A.owner.user.email, password: 'correct horse battery' }), 'sign-in');
  const sessions = ok(await t.api.get('/auth/list-sessions', tok), 'sessions');
  const spareSession = sessions.find((s: any) => !s.current)?.id ?? MISSING_ID;
  const invitation = ok(await t.api.post('/auth/organization/invite-member', { email: 'fuzz-invitee@example.test', role: 'member', organizationId: ws }, tok), 'invitation');
  const hook = 'https://hooks.example.com/services/T0/B0/secretpart';
  const events = { taskCreated: true, taskTitleChanged: false };
  for (const [type, body] of [
    ['messenger', { botToken: BOT_TOKEN, chatId: '1' }],
    ['generic-webhook', { webhookUrl: hook }],
    ['communitychat', { webhookUrl: hook }],
    ['teamchat', { webhookUrl: hook }],
  ] as const) {
    ok(await t.api.post(`/${type}-integration/project/${p.id}`, body, tok), type);
  }
  await plantHostedgitLink(t.databaseUrl, ws, p.id, 'fuzz', 'fuzz');
  await plantHostedgitLink(t.databaseUrl, ws, p2.id, 'o', 'r', 5);
  const rule = ok(await t.api.put(`/workflow-rule/${p.id}`, { integrationType: 'selfgit', eventType: 'pr_opened', columnId: cols[0].id }, tok), 'workflow rule');
  const git = { baseUrl: 'http://127.0.0.1:1', accessToken: 'token', repositoryOwner: 'o', repositoryName: 'r' };

  const pp = { projectId: p.id };
  const integration = (type: string, create: Record<string, unknown>, patch: Record<string, unknown>): Record<string, Fixture> => ({
    [`GET /api/${type}-integration/project/:projectId`]: { params: pp },
    [`POST /api/${type}-integration/project/:projectId`]: { params: { projectId: p2.id }, body: create },
    [`PATCH /api/${type}-integration/project/:projectId`]: { params: pp, body: patch },
    [`DELETE /api/${type}-integration/project/:projectId`]: { params: pp },
    [`GET /api/${type}-integration/project/:projectId/deliveries`]: { params: pp, query: { limit: '10' } },
    [`POST /api/${type}-integration/project/:projectId/deliveries/:deliveryId/redeliver`]: { params: { ...pp, deliveryId: MISSING_ID } },
  });
  const wsQuery = { query: { organizationId: ws } };
  const fixtures: Record<string, Fixture> = {
    'POST /api/auth/sign-up/email': { body: { name: 'n', email: 'fz@example.test', password: 'password1', image: 'http://x.io/a.png' } },
    'POST /api/auth/sign-in/email': { body: { email: 'x@example.test', password: 'password1' } },
    'POST /api/auth/api-key/create': { body: { name: 'k', expiresIn: 3600, permissions: { task: ['read'] } } },
    'POST /api/auth/api-key/delete': { body: { keyId: key.id } },
    'POST /api/auth/send-verification-email': { body: { email: 'fz@example.test', callbackURL: '/done' } },
    'GET /api/auth/verify-email': { query: { token: 'abc', callbackURL: '/done' } },
    'POST /api/auth/request-password-reset': { body: { email: 'fz@example.test', redirectTo: '/reset' } },
    'POST /api/auth/reset-password': { body: { newPassword: 'password2', token: 'abc' } },
    // A wrong current password: the owner's password and sessions stay.
    'POST /api/auth/change-password': { body: { currentPassword: 'not the password', newPassword: 'password2', revokeOtherSessions: true } },
    'POST /api/auth/revoke-session': { body: { id: spareSession } },
    'POST /api/auth/update-user': { body: { name: 'n', image: 'https://x.io/a.png' } },
    // A wrong password: the owner stays.
    'POST /api/auth/delete-user': { body: { password: 'not the password' } },
    'POST /api/auth/unlink-account': { body: { providerId: 'custom' } },
    'GET /api/auth/oauth2/authorize/custom': { query: { callbackURL: '/done' } },
    'GET /api/auth/oauth2/callback/custom': { query: { code: 'c', state: 's' } },
    'POST /api/auth/organization/create': { body: { name: 'n', slug: 'fuzz-slug', logo: 'https://x.io/l.png', metadata: 'm', description: 'd' } },
    'GET /api/auth/organization/get-full-organization': wsQuery,
    'GET /api/auth/organization/my-permissions': wsQuery,
    'GET /api/auth/organization/list-members': wsQuery,
    'GET /api/workspace/:workspaceId/members': { params: { workspaceId: ws } },
    'GET /api/auth/organization/list-invitations': wsQuery,
    'GET /api/auth/organization/list-teams': wsQuery,
    'GET /api/auth/organization/list-team-members': { query: { teamId: teams[0].id, organizationId: ws } },
    'GET /api/auth/organization/list-roles': wsQuery,
    'POST /api/auth/organization/update': { body: { organizationId: ws, data: { name: 'n', slug: 'fuzz-ws', logo: 'https://x.io/l.png', metadata: 'm', description: 'd' } } },
    // A spare workspace: should a generated body pass, the fixtures the other routes use stay.
    'POST /api/auth/organization/delete': { body: { organizationId: spareWs.id } },
    'POST /api/auth/organization/set-active': { body: { organizationId: ws } },
    'POST /api/auth/organization/create-team': { body: { name: 'n', organizationId: ws } },
    'POST /api/auth/organization/update-team': { body: { teamId: teams[0].id, data: { name: 'x', id: 'a', organizationId: 'b', createdAt: 'c', updatedAt: 'd' } } },
    'POST /api/auth/organization/remove-team': { body: { teamId: spareTeam.id, organizationId: ws } },
    'POST /api/auth/organization/add-team-member': { body: { teamId: teams[0].id, userId: u2.user.id, organizationId: ws } },
    'POST /api/auth/organization/remove-team-member': { body: { teamId: teams[0].id, userId: u2.user.id, organizationId: ws } },
    'POST /api/auth/organization/invite-member': { body: { email: 'f@example.test', role: 'member', teamId: teams[0].id, organizationId: ws, resend: true } },
    'POST /api/auth/organization/cancel-invitation': { body: { invitationId: invitation.id } },
    'POST /api/auth/organization/accept-invitation': { body: { invitationId: invitation.id } },
    'POST /api/auth/organization/reject-invitation': { body: { invitationId: invitation.id } },
    'POST /api/auth/organization/update-member-role': { body: { role: 'member', memberId, organizationId: ws } },
    'POST /api/auth/organization/remove-member': { body: { memberIdOrEmail: 'nobody@example.test', organizationId: ws } },
    'POST /api/auth/organization/create-role': { body: { role: 'rr', permission: { task: ['read'] }, organizationId: ws, additionalFields: { a: 1 } } },
    'GET /api/project': { query: { workspaceId: ws, includeArchived: 'true' } },
    'GET /api/events': { query: { workspaceId: ws } },
    'POST /api/project': { body: { name: 'n', workspaceId: ws, slug: 'ABC', icon: 'i', description: 'd', isPublic: true } },
    'PUT /api/project/reorder': { query: { workspaceId: ws }, body: { projects: [{ id: p.id, position: 0 }] } },
    'GET /api/project/:id': { params: { id: p.id } },
    'PUT /api/project/:id': { params: { id: p.id }, body: { name: 'n', slug: 'ABD', icon: 'i', description: 'd', isPublic: true } },
    'DELETE /api/project/:id': { params: { id: p2.id } },
    'PUT /api/project/:id/archive': { params: { id: p2.id } },
    'PUT /api/project/:id/unarchive': { params: { id: p2.id } },
    'GET /api/public-project/:id': { params: { id: p.id } },
    'PUT /api/column/reorder/:projectId': { params: pp, body: { columns: [{ id: cols[0].id, position: 0 }] } },
    'GET /api/column/:projectId': { params: pp },
    'POST /api/column/:projectId': { params: pp, body: { name: 'c', icon: 'i', color: '#fff', isFinal: true } },
    'PUT /api/column/:id': { params: { id: cols[0].id }, body: { name: 'c', icon: 'i', color: '#fff', isFinal: false } },
    'DELETE /api/column/:id': { params: { id: cols[cols.length - 1].id } },
    'POST /api/task/:projectId': {
      params: pp,
      body: { title: 't', description: 'd', status: 'to-do', priority: 'low', startDate: '2024-01-01', dueDate: '2024-01-02', userId: A.owner.user.id },
    },
    'GET /api/task/tasks/:projectId': {
      params: pp,
      query: {
        status: 'to-do',
        priority: 'low',
        userId: A.owner.user.id,
        assigneeId: A.owner.user.id,
        dueAfter: '2024-01-01',
        dueBefore: '2024-02-01',
        startAfter: '2024-01-01',
        startBefore: '2024-02-01',
        labelId: label.id,
        q: 'a',
        page: '1',
        limit: '10',
        sortBy: 'title',
        sortOrder: 'asc',
      },
    },
    'GET /api/task/mine': {
      query: {
        workspaceId: ws,
        status: 'to-do',
        priority: 'low',
        dueAfter: '2024-01-01',
        dueBefore: '2024-02-01',
        startAfter: '2024-01-01',
        startBefore: '2024-02-01',
        q: 'a',
        page: '1',
        limit: '10',
        sortBy: 'title',
        sortOrder: 'asc',
      },
    },
    'GET /api/task/card-details/:projectId': { params: pp },
    'PUT /api/task/reorder/:projectId': { params: pp, body: { status: task2.status, taskIds: [task2.id] } },
    'PUT /api/task/move/:id': { params: { id: task2.id }, body: { destinationProjectId: p.id, destinationStatus: 'to-do' } },
    'PUT /api/task/status/:id': { params: { id: task.id }, body: { status: 'to-do' } },
    'PUT /api/task/priority/:id': { params: { id: task.id }, body: { priority: 'low' } },
    'PUT /api/task/title/:id': { params: { id: task.id }, body: { title: 't' } },
    'PUT /api/task/description/:id': { params: { id: task.id }, body: { description: 'd' } },
    'PUT /api/task/assignee/:id': { params: { id: task.id }, body: { userId: A.owner.user.id } },
    'PUT /api/task/due-date/:id': { params: { id: task.id }, body: { dueDate: '2024-01-01' } },
    'GET /api/task/:id': { params: { id: task.id } },
    'GET /api/task/:id/watchers': { params: { id: task.id } },
    'POST /api/task/:id/watch': { params: { id: task.id }, body: {} },
    'DELETE /api/task/:id/watch': { params: { id: task.id } },
    'PUT /api/task/:id': {
      params: { id: task.id },
      body: {
        title: 't',
        description: 'd',
        status: 'to-do',
        priority: 'low',
        position: 1,
        startDate: '2024-01-01',
        dueDate: '2024-01-02',
        userId: A.owner.user.id,
        projectId: p.id,
      },
    },
    'DELETE /api/task/:id': { params: { id: task2.id } },
    'POST /api/task-relation': { body: { sourceTaskId: task.id, targetTaskId: task2.id, relationType: 'blocks' } },
    'GET /api/task-relation/:taskId': { params: { taskId: task.id } },
    'GET /api/task-relation/project/:projectId': { params: pp },
    'DELETE /api/task-relation/:id': { params: { id: relation.id } },
    'PUT /api/task/image-upload/:taskId': { params: { taskId: task.id }, body: { filename: 'a.png', contentType: 'image/png', size: 64, surface: 'description' } },
    // A finished upload's key: finalizing it again answers its record and changes nothing.
    'POST /api/task/image-upload/:taskId/finalize': {
      params: { taskId: task.id },
      body: { key: `assets/${ws}/${fileRead.id}`, filename: 'shot.png', contentType: 'image/png', size: fileRead.size, surface: 'attachment' },
    },
    // A wrong token: every attempt is refused before the one-use URL is used up.
    'PUT /api/asset/upload/:id': { params: { id: new URL(waiting.uploadUrl).pathname.split('/').pop()! }, query: { token: 'not-the-token' } },
    'GET /api/asset/task/:taskId': { params: { taskId: task.id } },
    'GET /api/asset/:id': { params: { id: fileRead.id } },
    'DELETE /api/asset/:id': { params: { id: fileGone.id } },
    'GET /api/task/export/:projectId': { params: pp },
    'POST /api/task/import/:projectId': { params: { projectId: p2.id }, body: { tasks: [{ title: 't', status: 'to-do', labels: [{ name: 'n', color: 'red' }] }] } },
    'PATCH /api/task/bulk': { body: { taskIds: [task.id], operation: 'updatePriority', value: 'high' } },
    'POST /api/label': { body: { name: 'n', color: '#111111', workspaceId: ws, taskId: task.id } },
    'GET /api/label/workspace/:workspaceId': { params: { workspaceId: ws } },
    'GET /api/label/task/:taskId': { params: { taskId: task.id } },
    'PUT /api/label/:id/task': { params: { id: label.id }, body: { taskId: task2.id } },
    'DELETE /api/label/:id/task': { params: { id: label.id }, body: { taskId: task2.id } },
    'GET /api/label/:id/tasks': { params: { id: label.id } },
    'GET /api/label/:id': { params: { id: label.id } },
    'PUT /api/label/:id': { params: { id: label.id }, body: { name: 'n2', color: '#111111' } },
    'DELETE /api/label/:id': { params: { id: label.id } },
    'POST /api/time-entry': { body: { taskId: task.id, startTime: '2024-01-01T00:00:00Z', endTime: '2024-01-01T01:00:00Z', description: 'd' } },
    'GET /api/time-entry/task/:taskId': { params: { taskId: task.id } },
    'GET /api/time-entry/:id': { params: { id: te.id } },
    'PUT /api/time-entry/:id': { params: { id: te.id }, body: { startTime: '2024-01-01T00:00:00Z', endTime: '2024-01-01T01:00:00Z', description: 'd' } },
    'DELETE /api/time-entry/:id': { params: { id: te.id } },
    'GET /api/comment/:taskId': { params: { taskId: task.id } },
    'POST /api/comment/:taskId': { params: { taskId: task.id }, body: { content: 'c' } },
    'PUT /api/comment/:id': { params: { id: cm.id }, body: { content: 'c' } },
    'DELETE /api/comment/:id': { params: { id: cm.id } },
    'POST /api/activity/comment': { body: { taskId: task.id, comment: 'c' } },
    'PUT /api/activity/comment': { body: { activityId: cm.id, comment: 'c' } },
    'DELETE /api/activity/comment': { body: { activityId: cm.id } },
    'GET /api/activity/:taskId': { params: { taskId: task.id } },
    'GET /api/search': { query: { q: 'a', type: 'all', limit: '10', workspaceId: ws, projectId: p.id } },
    ...integration(
      'messenger',
      { botToken: BOT_TOKEN, chatId: '1', threadId: 2, chatLabel: 'l', events },
      { botToken: BOT_TOKEN, chatId: '1', threadId: 2, chatLabel: 'l', isActive: true, events },
    ),
    ...integration('generic-webhook', { webhookUrl: hook, secret: 's', events }, { webhookUrl: hook, secret: 's', isActive: true, events }),
    ...integration('teamchat', { webhookUrl: hook, channelName: 'c', events }, { webhookUrl: hook, channelName: 'c', isActive: true, events }),
    ...integration('communitychat', { webhookUrl: hook, channelName: 'c', events }, { webhookUrl: hook, channelName: 'c', isActive: true, events }),
    // Git hosts: nothing listens at the base URL, so a body that passes validation ends in a 400 from the connection.
    'GET /api/selfgit-integration/project/:projectId': { params: pp },
    'POST /api/selfgit-integration/project/:projectId': { params: { projectId: p2.id }, body: { ...git, branchPattern: '{slug}-{number}', commentTaskLinkOnSelfgitIssue: true } },
    'PATCH /api/selfgit-integration/project/:projectId': { params: pp, body: { isActive: true, commentTaskLinkOnSelfgitIssue: true, branchPattern: 'x-{number}' } },
    'DELETE /api/selfgit-integration/project/:projectId': { params: pp },
    'POST /api/selfgit-integration/project/:projectId/rotate-webhook-secret': { params: pp },
    'POST /api/selfgit-integration/verify': { body: { ...git, projectId: p.id } },
    'POST /api/selfgit-integration/import-issues': { body: { projectId: p.id } },
    // Signed by nobody: every body is refused at the signature check, never a 500.
    'POST /api/selfgit-integration/webhook/:integrationId': { params: { integrationId: MISSING_ID }, body: { action: 'opened' } },
    'POST /api/hostedgit-integration/webhook': { body: { action: 'opened' } },
    'GET /api/hostedgit-integration/project/:projectId': { params: pp },
    'POST /api/hostedgit-integration/project/:projectId': {
      params: { projectId: p2.id },
      body: { repositoryOwner: 'o', repositoryName: 'r', installationId: 5, branchPattern: '{number}', commentTaskLinkOnHostedgitIssue: true },
    },
    'POST /api/hostedgit-integration/project/:projectId/authorize': {
      params: pp,
      body: { repositoryOwner: 'o', repositoryName: 'r', installationId: 5, branchPattern: '{number}', commentTaskLinkOnHostedgitIssue: true, callbackURL: '/settings' },
    },
    // No flow was started: every state is unknown (400), whatever the query.
    'GET /api/hostedgit-integration/callback': { query: { code: 'code', state: 'state-that-was-never-issued' } },
    'PATCH /api/hostedgit-integration/project/:projectId': { params: pp, body: { isActive: true, commentTaskLinkOnHostedgitIssue: true, branchPattern: 'x-{number}' } },
    'DELETE /api/hostedgit-integration/project/:projectId': { params: pp },
    'GET /api/workflow-rule/:projectId': { params: pp },
    'PUT /api/workflow-rule/:projectId': { params: pp, body: { integrationType: 'selfgit', eventType: 'pr_merged', columnId: cols[0].id } },
    'DELETE /api/workflow-rule/:id': { params: { id: rule.id ?? MISSING_ID } },
    'GET /api/external-link/task/:taskId': { params: { taskId: task.id } },
    'PUT /api/notification-preferences': {
      body: {
        emailEnabled: true,
        topicpushEnabled: true,
        topicpushServerUrl: 'https://ntfy.example.com',
        topicpushTopic: 't',
        topicpushToken: 'tk',
        serverpushEnabled: true,
        serverpushServerUrl: 'https://push.example.com',
        serverpushToken: 'st',
        webhookEnabled: true,
        webhookUrl: 'https://hooks.example.com/me',
        webhookSecret: 's',
      },
    },
    'PUT /api/notification-preferences/workspaces/:workspaceId': {
      params: { workspaceId: ws },
      body: { isActive: true, emailEnabled: false, topicpushEnabled: false, serverpushEnabled: false, webhookEnabled: false, projectMode: 'selected', selectedProjectIds: [p.id] },
    },
    'DELETE /api/notification-preferences/workspaces/:workspaceId': { params: { workspaceId: ws } },
    'GET /api/notification': { query: { limit: '10', before: MISSING_ID } },
    'PATCH /api/notification/:id/read': { params: { id: MISSING_ID } },
  };
  return { token: tok, fixtures };
}

/** What the OpenAPI document says a route takes: path and query parameter names, body field names. */
interface Inputs {
  path: string[];
  query: string[];
  body: string[];
  hasBody: boolean;
}

function inputsOf(doc: any): Map<string, Inputs> {
  const out = new Map<string, Inputs>();
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      const params: any[] = op.parameters ?? [];
      const schema = op.requestBody?.content?.['application/json']?.schema;
      const resolved = schema?.$ref ? doc.components.schemas[String(schema.$ref).split('/').pop()!] : schema;
      out.set(`${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`, {
        path: params.filter((p) => p.in === 'path').map((p) => p.name),
        query: params.filter((p) => p.in === 'query').map((p) => p.name),
        body: Object.keys(resolved?.properties ?? {}),
        hasBody: !!op.requestBody,
      });
    }
  }
  return out;
}

/** One request of the fuzz: which part was changed and how (for the failure report). */
interface Attempt {
  what: string;
  params: Record<string, string>;
  query: string;
  raw?: string;
}

it('no route answers 500, a 4xx is exactly {message} (or {error}) and a refused request writes nothing', async () => {
  const { token, fixtures } = await buildFixtures();
  const doc = (await t.api.get('/openapi.json')).body;
  const inputs = inputsOf(doc);
  const errorKey = new Map(routeAccess(t).map((r) => [r.key, r.errorBodyKey ?? 'message']));

  const routes = registeredRoutes(t).filter((r) => inputs.has(r.key));
  const withInputs = routes.filter((r) => {
    const i = inputs.get(r.key)!;
    return i.path.length || i.query.length || i.hasBody || fixtures[r.key];
  });
  const missing = withInputs.filter((r) => !fixtures[r.key] && !NOT_FUZZED[r.key]).map((r) => r.key);
  if (missing.length) throw new Error(`Routes with inputs but no fixture in route-fuzz.e2e-spec.ts (add real ids and a base body): ${missing.join(', ')}`);

  const snapshots = await databaseSnapshots(t.databaseUrl);
  let current = await snapshots.take();
  const failures: string[] = [];

  // FUZZ_ROUTE=<part of a route key> replays one route.
  for (const route of withInputs.filter((r) => fixtures[r.key] && r.key.includes(process.env.FUZZ_ROUTE ?? ''))) {
    const fx = fixtures[route.key];
    const declared = inputs.get(route.key)!;
    const body = fx.body ?? (declared.hasBody ? {} : undefined);
    const queryNames = [...new Set([...declared.query, ...Object.keys(fx.query ?? {})])];
    const baseQuery = Object.entries(fx.query ?? {})
      .map(([k, v]) => `${k}=${encode(v)}`)
      .join('&');
    const key = errorKey.get(route.key) ?? 'message';

    const send = async (a: Attempt): Promise<string | null> => {
      const path = route.path.replace(/^\/api/, '').replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => encode(a.params[name] ?? fx.params?.[name] ?? MISSING_ID));
      const url = a.query ? `${path}?${a.query}` : path;
      const res = await t.api.request(route.method, url, undefined, { token, raw: a.raw });
      const shown = `${route.key} ${a.what} ${res.status} ${res.text.slice(0, 200)}`;
      if (res.status >= 500) return `500: ${shown}`;
      if (res.status < 400) {
        current = await snapshots.take();
        return carriesIllFormedText(url, a.raw) ? `accepted text that is not well-formed Unicode: ${shown}` : null;
      }
      const b = res.body;
      if (!b || typeof b !== 'object' || Object.keys(b).join() !== key || typeof b[key] !== 'string' || !b[key]) return `body not {${key}}: ${shown}`;
      const after = await snapshots.take();
      const changed = Object.keys(after).filter((table) => after[table] !== current[table]);
      current = after;
      return changed.length ? `refused but wrote ${changed.join(', ')}: ${shown}` : null;
    };

    const arbitraries: fc.Arbitrary<Attempt>[] = [];
    const bodyText = body ? JSON.stringify(body) : undefined;
    if (body) {
      const fields = [...new Set([...declared.body, ...bodyPaths(body)])];
      if (fields.length) {
        arbitraries.push(
          fc.record({ field: fc.constantFrom(...fields), value: fuzzValue }).map(({ field, value }) => ({
            what: `body ${field}=${value.slice(0, 60)}`,
            params: {},
            query: baseQuery,
            // A field the base body lacks is added at the top level.
            raw: field.includes('.') || field in body ? bodyWith(body, field, value) : bodyWith({ ...body, [field]: null }, field, value),
          })),
        );
      }
      const raws = rawBodies(body, declared.body[0] ?? Object.keys(body)[0]);
      arbitraries.push(fc.constantFrom(...raws).map((raw) => ({ what: `raw body ${raw.slice(0, 60)}…(${raw.length})`, params: {}, query: baseQuery, raw })));
    }
    if (declared.path.length) {
      arbitraries.push(
        fc
          .record({ name: fc.constantFrom(...declared.path), id: fuzzId })
          .map(({ name, id }) => ({ what: `path ${name}=${JSON.stringify(id.slice(0, 60))}`, params: { [name]: id }, query: baseQuery, raw: bodyText })),
      );
    }
    if (queryNames.length) {
      arbitraries.push(
        fc
          .constantFrom(...queryNames)
          .chain((name) => fuzzQuery(name).map((q) => ({ name, q })))
          .map(({ name, q }) => {
            const rest = Object.entries(fx.query ?? {})
              .filter(([k]) => k !== name)
              .map(([k, v]) => `${k}=${encode(v)}`);
            return { what: `query ${q.slice(0, 80)}`, params: {}, query: [...rest, q].join('&'), raw: bodyText };
          }),
      );
    }
    // Every route gets the whole-body cases first (fast-check's examples), then generated ones.
    // and FIELD_EXAMPLES in each body field, a lone surrogate in each path parameter and bytes
    // that are not UTF-8 in each query parameter.
    const bodyExamples: Attempt[] = body
      ? [
          ...rawBodies(body, declared.body[0] ?? Object.keys(body)[0]).map((raw) => ({ what: `raw body (${raw.length})`, params: {}, query: baseQuery, raw })),
          ...[...new Set([...declared.body, ...Object.keys(body)])].flatMap((field) =>
            FIELD_EXAMPLES.map((value) => ({ what: `body ${field}=${value}`, params: {}, query: baseQuery, raw: bodyWith({ ...body, [field]: null }, field, value) })),
          ),
        ]
      : [];
    const pathExamples: Attempt[] = declared.path.map((name) => ({ what: `path ${name}=\\ud800`, params: { [name]: LONE_SURROGATE }, query: baseQuery, raw: bodyText }));
    const queryExamples: Attempt[] = queryNames.flatMap((name) =>
      NOT_UTF8.map((bytes) => {
        const rest = Object.entries(fx.query ?? {})
          .filter(([k]) => k !== name)
          .map(([k, v]) => `${k}=${encode(v)}`);
        return { what: `query ${name}=${bytes}`, params: {}, query: [...rest, `${name}=${bytes}`].join('&'), raw: bodyText };
      }),
    );
    const examples = [...bodyExamples, ...pathExamples, ...queryExamples].map((a): [Attempt] => [a]);
    let first: string | null = null;
    try {
      await fc.assert(
        fc.asyncProperty(fc.oneof(...arbitraries), async (a) => {
          const problem = await send(a);
          if (process.env.FUZZ_DEBUG) console.log(route.key, a.what, problem);
          first ??= problem;
          if (problem) throw new Error(problem);
        }),
        // Examples count against numRuns.
        { seed: 42, numRuns: examples.length + RUNS * arbitraries.length, examples, endOnFailure: true },
      );
    } catch (e) {
      // The first failure as seen, then fast-check's replay line (seed and path).
      failures.push(
        `${first ?? ''}\n${String((e as Error).message)
          .split('\n')
          .slice(0, 2)
          .join(' ')}`,
      );
    }
  }
  await snapshots.close();
  // A prototype key sent as an own key never reached Object.prototype of the process serving it.
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(failures).toEqual([]);
}, 600_000);
