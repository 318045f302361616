import { startTestApp, TestApp } from '../../support/app';
import { BOT_TOKEN } from '../../support/integrations';
import { createProject, createTask, ownerWithWorkspace } from '../../support/work-items';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

/** Every body field of the write routes, sent with wrong types and odd values: never a 500, always exactly {message}. */
it('no write route answers 500 or a body other than {message} to wrong-typed or odd field values', async () => {
  const A = await ownerWithWorkspace(t);
  const ws = A.workspaceId;
  const tok = A.owner.token;
  const p = await createProject(t, tok, ws);
  const p2 = await createProject(t, tok, ws);
  const task = await createTask(t, tok, p.id);
  const task2 = await createTask(t, tok, p.id);
  const label = (await t.api.post('/label', { name: 'L', color: '#000000', workspaceId: ws }, tok)).body;
  const te = (await t.api.post('/time-entry', { taskId: task.id, startTime: '2024-01-01T00:00:00Z' }, tok)).body;
  const cm = (await t.api.post(`/comment/${task.id}`, { content: 'hi' }, tok)).body;
  const cols = (await t.api.get(`/column/${p.id}`, tok)).body;
  const teams = (await t.api.get(`/auth/organization/list-teams?organizationId=${ws}`, tok)).body;
  const members = (await t.api.get(`/auth/organization/list-members?organizationId=${ws}`, tok)).body;
  const u2 = await t.api.signUp();
  const hook = 'https://hooks.example.com/services/T0/B0/secretpart';
  const events = { taskCreated: true, taskTitleChanged: false };
  for (const [type, body] of [
    ['messenger', { botToken: BOT_TOKEN, chatId: '1' }],
    ['generic-webhook', { webhookUrl: hook }],
    ['communitychat', { webhookUrl: hook }],
  ] as const) {
    expect((await t.api.post(`/${type}-integration/project/${p.id}`, body, tok)).status).toBe(200);
  }
  expect((await t.api.post(`/hostedgit-integration/project/${p.id}`, { repositoryOwner: 'fuzz', repositoryName: 'fuzz' }, tok)).status).toBe(200);
  const git = { baseUrl: 'http://127.0.0.1:1', accessToken: 'token', repositoryOwner: 'o', repositoryName: 'r' };
  const routes: [string, string, Record<string, unknown>][] = [
    ['POST', `/messenger-integration/project/${p2.id}`, { botToken: BOT_TOKEN, chatId: '1', threadId: 2, chatLabel: 'l', events }],
    ['PATCH', `/messenger-integration/project/${p.id}`, { botToken: BOT_TOKEN, chatId: '1', threadId: 2, chatLabel: 'l', isActive: true, events }],
    ['POST', `/generic-webhook-integration/project/${p2.id}`, { webhookUrl: hook, secret: 's', events }],
    ['PATCH', `/generic-webhook-integration/project/${p.id}`, { webhookUrl: hook, secret: 's', isActive: true, events }],
    ['POST', `/teamchat-integration/project/${p2.id}`, { webhookUrl: hook, channelName: 'c', events }],
    ['PATCH', `/communitychat-integration/project/${p.id}`, { webhookUrl: hook, channelName: 'c', isActive: true, events }],
    // Git hosts: nothing listens at the base URL, so a body that passes validation ends in a 400 from the connection.
    ['POST', `/selfgit-integration/project/${p2.id}`, { ...git, branchPattern: '{slug}-{number}', commentTaskLinkOnSelfgitIssue: true }],
    ['PATCH', `/selfgit-integration/project/${p.id}`, { isActive: true, commentTaskLinkOnSelfgitIssue: true, branchPattern: 'x-{number}' }],
    ['POST', '/selfgit-integration/verify', { ...git, projectId: p.id }],
    ['POST', '/selfgit-integration/import-issues', { projectId: p.id }],
    [
      'POST',
      `/hostedgit-integration/project/${p2.id}`,
      { repositoryOwner: 'o', repositoryName: 'r', installationId: 5, branchPattern: '{number}', commentTaskLinkOnHostedgitIssue: true },
    ],
    ['PATCH', `/hostedgit-integration/project/${p.id}`, { isActive: true, commentTaskLinkOnHostedgitIssue: true, branchPattern: 'x-{number}' }],
    ['POST', `/task/${p.id}`, { title: 't', description: 'd', status: 'to-do', priority: 'low', startDate: '2024-01-01', dueDate: '2024-01-02', userId: A.owner.user.id }],
    [
      'PUT',
      `/task/${task.id}`,
      { title: 't', description: 'd', status: 'to-do', priority: 'low', position: 1, startDate: '2024-01-01', dueDate: '2024-01-02', userId: A.owner.user.id },
    ],
    ['PUT', `/task/move/${task.id}`, { destinationProjectId: p2.id, destinationStatus: 'to-do' }],
    ['PUT', `/task/due-date/${task.id}`, { dueDate: '2024-01-01' }],
    ['POST', '/label', { name: 'n', color: '#111111', workspaceId: ws, taskId: task.id }],
    ['PUT', `/label/${label.id}`, { name: 'n2', color: '#111111' }],
    ['PUT', `/label/${label.id}/task`, { taskId: task.id }],
    ['POST', '/time-entry', { taskId: task.id, startTime: '2024-01-01T00:00:00Z', endTime: '2024-01-01T01:00:00Z', description: 'd' }],
    ['PUT', `/time-entry/${te.id}`, { startTime: '2024-01-01T00:00:00Z', endTime: '2024-01-01T01:00:00Z', description: 'd' }],
    ['PUT', `/comment/${cm.id}`, { content: 'c' }],
    ['POST', `/column/${p.id}`, { name: 'c', icon: 'i', color: '#fff', isFinal: true }],
    ['PUT', `/column/${cols[0].id}`, { name: 'c', icon: 'i', color: '#fff', isFinal: true }],
    ['PUT', `/column/reorder/${p.id}`, { columns: [{ id: cols[0].id, position: 0 }] }],
    ['POST', '/project', { name: 'n', workspaceId: ws, slug: 'ABC', icon: 'i', description: 'd', isPublic: true }],
    ['PUT', `/project/${p.id}`, { name: 'n', slug: 'ABD', icon: 'i', description: 'd', isPublic: true }],
    ['POST', '/auth/organization/create', { name: 'n', slug: 's', logo: 'https://x.io/l.png', metadata: 'm', description: 'd' }],
    ['POST', '/auth/organization/update', { organizationId: ws, data: { name: 'n', slug: 's2', logo: 'https://x.io/l.png', metadata: 'm', description: 'd' } }],
    ['POST', '/auth/organization/create-team', { name: 'n', organizationId: ws }],
    ['POST', '/auth/organization/update-team', { teamId: teams[0].id, data: { name: 'x', id: 'a', organizationId: 'b', createdAt: 'c', updatedAt: 'd' } }],
    ['POST', '/auth/organization/add-team-member', { teamId: teams[0].id, userId: u2.user.id, organizationId: ws }],
    ['POST', '/auth/organization/remove-team-member', { teamId: teams[0].id, userId: u2.user.id, organizationId: ws }],
    ['POST', '/auth/organization/invite-member', { email: 'f@f.io', role: 'member', teamId: teams[0].id, organizationId: ws, resend: true }],
    ['POST', '/auth/organization/update-member-role', { role: 'owner', memberId: members[0].id, organizationId: ws }],
    ['POST', '/auth/organization/remove-member', { memberIdOrEmail: 'nobody@x.io', organizationId: ws }],
    ['POST', '/auth/organization/create-role', { role: 'rr', permission: { task: ['read'] }, organizationId: ws, additionalFields: { a: 1 } }],
    ['POST', '/auth/organization/set-active', { organizationId: ws }],
    ['POST', '/auth/api-key/create', { name: 'k', expiresIn: 3600, permissions: { task: ['read'] } }],
    ['POST', '/auth/sign-in/email', { email: 'x@y.io', password: 'password1' }],
    ['POST', '/auth/sign-up/email', { name: 'n', email: 'fz@y.io', password: 'password1', image: 'http://x.io/a.png' }],
    ['POST', '/auth/send-verification-email', { email: 'fz@y.io', callbackURL: '/done' }],
    ['POST', '/auth/request-password-reset', { email: 'fz@y.io', redirectTo: '/reset' }],
    ['POST', '/auth/reset-password', { newPassword: 'password2', token: 'abc' }],
    // A wrong current password: the owner's password stays what the other routes expect.
    ['POST', '/auth/change-password', { currentPassword: 'not the password', newPassword: 'password2', revokeOtherSessions: true }],
    ['POST', '/auth/revoke-session', { id: '00000000-0000-4000-8000-000000000000' }],
    [
      'PUT',
      '/notification-preferences',
      {
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
    ],
    [
      'PUT',
      `/notification-preferences/workspaces/${ws}`,
      { isActive: true, emailEnabled: false, topicpushEnabled: false, serverpushEnabled: false, webhookEnabled: false, projectMode: 'selected', selectedProjectIds: [p.id] },
    ],
    ['PUT', `/project/reorder?workspaceId=${ws}`, { projects: [{ id: p.id, position: 0 }] }],
    ['POST', '/task-relation', { sourceTaskId: task.id, targetTaskId: task2.id, relationType: 'related' }],
    ['POST', `/task/import/${p2.id}`, { tasks: [{ title: 't', status: 'to-do' }] }],
    ['PATCH', '/task/bulk', { taskIds: [task.id], operation: 'updatePriority', value: 'high' }],
    ['POST', '/auth/update-user', { name: 'n', image: 'https://x.io/a.png' }],
    // A wrong password: the owner stays.
    ['POST', '/auth/delete-user', { password: 'not the password' }],
  ];
  const values: unknown[] = [
    null,
    [],
    {},
    1e308,
    -1,
    0,
    2.5,
    true,
    '',
    ' ',
    'x'.repeat(20000),
    ['a'],
    [{}],
    { a: { b: 1 } },
    '9999-99-99',
    '-000001-01-01T00:00:00Z',
    '1970-01-01T00:00:00Z',
    '2024-01-01T00:00:00.123456789Z',
    '00000000-0000-0000-0000-000000000000',
    'ÄÖ💥',
    '__proto__',
  ];
  const out: string[] = [];
  for (const [m, path, base] of routes) {
    for (const key of Object.keys(base)) {
      for (const v of values) {
        const body: any = { ...base };
        body[key] = v;
        const res = await t.api.request(m, path, body, { token: tok });
        // The hostedgit PATCH answers {error} (docs/git-hosts.md).
        const errorKey = m === 'PATCH' && path.startsWith('/hostedgit-integration/') ? 'error' : 'message';
        const bad = res.status >= 500 || (res.status >= 400 && (typeof res.body !== 'object' || Object.keys(res.body ?? {}).join() !== errorKey));
        if (bad) out.push(`${res.status} ${m} ${path} ${key}=${JSON.stringify(v)?.slice(0, 40)} -> ${res.text.slice(0, 150)}`);
      }
    }
  }
  for (const q of ['limit=50.0', 'limit=+5', 'limit=0x10', 'limit=1%20', 'type=', 'q=%25', 'q=ABC-0', 'q=ABC-2147483648', 'q=' + 'a'.repeat(201)]) {
    const res = await t.api.get(`/search?q=a&${q}`, tok);
    if (res.status >= 500) out.push(`${res.status} search ${q} ${res.text}`);
  }
  for (const q of ['page=0', 'limit=101', 'sortBy=', 'sortOrder=ASC', 'priority=', 'status=', 'q=']) {
    const res = await t.api.get(`/task/tasks/${p.id}?${q}`, tok);
    if (res.status >= 500) out.push(`${res.status} list ${q} ${res.text}`);
  }
  expect(out).toEqual([]);
}, 600000);

/** Nested body fields and the read routes, with wrong types and odd values. */
it('no nested body field or read route answers 500 or a body other than {message}', async () => {
  const { owner, workspaceId: ws } = await ownerWithWorkspace(t);
  const tok = owner.token;
  const p = await createProject(t, tok, ws);
  const task = await createTask(t, tok, p.id);
  const cols = (await t.api.get(`/column/${p.id}`, tok)).body;
  const teams = (await t.api.get(`/auth/organization/list-teams?organizationId=${ws}`, tok)).body;
  const out: string[] = [];
  const values: unknown[] = [null, [], {}, 1e308, -1, true, '', ' ', 'x'.repeat(20000), ['a']];
  const nested: [string, string, (v: unknown) => unknown][] = [
    ['POST', '/auth/organization/update', (v) => ({ organizationId: ws, data: { name: v } })],
    ['POST', '/auth/organization/update', (v) => ({ organizationId: ws, data: { slug: v } })],
    ['POST', '/auth/organization/update', (v) => ({ organizationId: ws, data: { logo: v } })],
    ['POST', '/auth/organization/update', (v) => ({ organizationId: ws, data: { metadata: v } })],
    ['POST', '/auth/organization/update-team', (v) => ({ teamId: teams[0].id, data: { name: v } })],
    ['POST', '/auth/organization/update-team', (v) => ({ teamId: teams[0].id, data: { id: v } })],
    ['PUT', `/column/reorder/${p.id}`, (v) => ({ columns: [{ id: v, position: 1 }] })],
    ['PUT', `/column/reorder/${p.id}`, (v) => ({ columns: [{ id: cols[0].id, position: v }] })],
    ['POST', '/auth/organization/create-role', (v) => ({ role: 'r', permission: { task: v }, organizationId: ws })],
    ['POST', '/auth/organization/create-role', (v) => ({ role: 'r', permission: { task: [v] }, organizationId: ws })],
    ['POST', '/auth/api-key/create', (v) => ({ permissions: { task: v } })],
    ['POST', '/auth/api-key/create', (v) => ({ permissions: { task: [v] } })],
    ['POST', '/auth/organization/set-active', (v) => ({ organizationId: v })],
    ['POST', '/auth/organization/delete', (v) => ({ organizationId: v })],
    ['POST', '/auth/organization/accept-invitation', (v) => ({ invitationId: v })],
    ['POST', '/auth/organization/cancel-invitation', (v) => ({ invitationId: v })],
    ['POST', '/auth/organization/update-member-role', (v) => ({ role: v, memberId: 'x', organizationId: ws })],
    ['POST', '/auth/organization/remove-member', (v) => ({ memberIdOrEmail: v, organizationId: ws })],
    ['POST', '/auth/api-key/delete', (v) => ({ keyId: v })],
    ['POST', `/generic-webhook-integration/project/${p.id}`, (v) => ({ webhookUrl: 'https://example.com/h', events: { taskCreated: v } })],
    ['PATCH', `/teamchat-integration/project/${p.id}`, (v) => ({ events: { [String(v)]: true } })],
    ['PUT', `/notification-preferences/workspaces/${ws}`, (v) => ({ selectedProjectIds: [v] })],
    ['PUT', `/project/reorder?workspaceId=${ws}`, (v) => ({ projects: [{ id: v, position: 1 }] })],
    ['PUT', `/project/reorder?workspaceId=${ws}`, (v) => ({ projects: [{ id: p.id, position: v }] })],
    ['POST', `/task/import/${p.id}`, (v) => ({ tasks: [v] })],
    ...['title', 'status', 'description', 'priority', 'startDate', 'dueDate', 'userId', 'labels'].map((field): [string, string, (v: unknown) => unknown] => [
      'POST',
      `/task/import/${p.id}`,
      (v) => ({ tasks: [{ title: 't', status: 'to-do', [field]: v }] }),
    ]),
    ['POST', `/task/import/${p.id}`, (v) => ({ tasks: [{ title: 't', status: 'to-do', labels: [{ name: v, color: 'red' }] }] })],
    ['POST', `/task/import/${p.id}`, (v) => ({ tasks: [{ title: 't', status: 'to-do', labels: [{ name: 'n', color: v }] }] })],
    ['PATCH', '/task/bulk', (v) => ({ taskIds: [v], operation: 'updatePriority', value: 'high' })],
    ...['updateStatus', 'updatePriority', 'updateAssignee', 'updateDueDate', 'addLabel', 'removeLabel'].map((operation): [string, string, (v: unknown) => unknown] => [
      'PATCH',
      '/task/bulk',
      (v) => ({ taskIds: [task.id], operation, value: v }),
    ]),
  ];
  for (const [m, path, make] of nested) {
    for (const v of values) {
      const res = await t.api.request(m, path, make(v), { token: tok });
      const bad = res.status >= 500 || (res.status >= 400 && (typeof res.body !== 'object' || Object.keys(res.body ?? {}).join() !== 'message'));
      if (bad) out.push(`${res.status} ${m} ${path} ${JSON.stringify(make(v)).slice(0, 120)} -> ${res.text.slice(0, 150)}`);
    }
  }
  const gets = [
    `/auth/organization/get-full-organization?organizationId=`,
    `/auth/organization/list-members?organizationId=a&organizationId=b`,
    `/label/workspace/x`,
    `/label/task/x`,
    `/task-relation/x`,
    `/task/export/x`,
    `/public-project/x`,
    `/config?x=1`,
    `/time-entry/task/x`,
    `/activity/x`,
    `/comment/x`,
    `/column/x`,
    `/project/x`,
    `/project?workspaceId=${ws}&workspaceId=${ws}`,
    `/auth/api-key/list`,
    `/auth/get-session`,
    `/oauth/id-token`,
    `/auth/list-sessions`,
    `/auth/organization/list-user-invitations`,
    `/auth/verify-email?token=`,
    `/auth/verify-email?token=x&token=y`,
    `/auth/verify-email?token=x&callbackURL=%00`,
    `/auth/verify-email?token[a]=1`,
    `/selfgit-integration/project/x`,
    `/hostedgit-integration/project/${p.id}`,
    `/selfgit-integration/project/${p.id}`,
    ...[
      'limit=0',
      'limit=1e3',
      'limit=99999999999999999999',
      'limit=%20',
      'before=',
      'before=x',
      'before=00000000-0000-0000-0000-000000000000',
      'before=a&before=b',
      'limit[a]=1',
    ].flatMap((q) => [`/messenger-integration/project/${p.id}/deliveries?${q}`, `/notification?${q}`]),
    `/notification/unread-count`,
    `/notification-preferences`,
  ];
  for (const g of gets) {
    const res = await t.api.get(g, tok);
    if (res.status >= 500 || (res.status >= 400 && Object.keys(res.body ?? {}).join() !== 'message')) out.push(`${res.status} GET ${g} ${res.text.slice(0, 150)}`);
  }
  expect(out).toEqual([]);
}, 300000);
