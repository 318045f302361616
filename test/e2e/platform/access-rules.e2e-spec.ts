import { createHash, randomBytes, randomUUID } from 'node:crypto';
import * as jwt from 'jsonwebtoken';
import { Client } from 'pg';
import { EmailNfkc1763780800000 } from '../../../src/database/migrations/1763780800000-EmailNfkc';
import { startTestApp, TestApp } from '../../support/app';
import { addMember, sql } from '../../support/fixtures';
import { nearMissOrigins } from '../../support/near-misses';
import { concretePath, registeredRoutes, routeAccess } from '../../support/routes';
import { createProject, createTask } from '../../support/work-items';

/**
 * One test per finding of the security probe (docs/decisions-local.md, "Access rules that close
 * escalation paths"): each failed on the code before the fix.
 */

const ORG = '/auth/organization';
const CLIENT_URL = 'https://app.example.test';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ CLIENT_URL });
});
afterAll(() => t?.close());

const email = (name = 'user') => `${name}.${randomBytes(5).toString('hex')}@example.test`;
/** The full-width look-alike of an ASCII address (ａｄａ＠ｅｘａｍｐｌｅ．ｃｏｍ). */
const fullWidth = (ascii: string) => [...ascii].map((c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)).join('');

async function workspace() {
  const owner = await t.api.signUp({ name: 'Olivia Owner' });
  const ws = await t.api.createWorkspace(owner.token);
  return { owner, ws };
}

async function member(workspaceId: string, role: string) {
  const u = await t.api.signUp();
  const memberId = await addMember(t.databaseUrl, workspaceId, u.user.id, role);
  return { ...u, memberId };
}

async function createRole(token: string, organizationId: string, role: string, permission: Record<string, string[]>) {
  const res = await t.api.post(`${ORG}/create-role`, { organizationId, role, permission }, token);
  if (res.status !== 200) throw new Error(`create-role failed: ${res.status} ${res.text}`);
}

async function apiKey(token: string, body: Record<string, unknown> = {}) {
  const res = await t.api.post('/auth/api-key/create', body, token);
  if (res.status !== 200) throw new Error(`api-key/create failed: ${res.status} ${res.text}`);
  return res.body as { id: string; key: string; expiresAt: string | null; permissions: Record<string, string[]> | null };
}

describe('1. pending invitations are visible only to members who manage invitations', () => {
  it('a viewer cannot read the id of a pending admin invitation, so cannot sign up and take it', async () => {
    const { owner, ws } = await workspace();
    const target = email('nobody-yet');
    const inv = await t.api.post(`${ORG}/invite-member`, { email: target, role: 'admin', organizationId: ws.id }, owner.token);
    expect(inv.status).toBe(200);
    const viewer = await member(ws.id, 'viewer');

    const list = await t.api.get(`${ORG}/list-invitations?organizationId=${ws.id}`, viewer.token);
    expect(list.status).toBe(403);
    expect(list.body).toEqual({ message: 'Insufficient permissions: invitation:create or invitation:cancel is needed' });
    const full = await t.api.get(`${ORG}/get-full-organization?organizationId=${ws.id}`, viewer.token);
    expect(full.status).toBe(200);
    expect(full.body.invitations).toEqual([]);
    expect(full.text).not.toContain(inv.body.id);
    expect(full.body.members.map((m: any) => m.userId)).toEqual(expect.arrayContaining([owner.user.id, viewer.user.id]));

    // The owner still sees it, in both places.
    const ownerList = await t.api.get(`${ORG}/list-invitations?organizationId=${ws.id}`, owner.token);
    expect(ownerList.status).toBe(200);
    expect(ownerList.body.map((i: any) => i.id)).toEqual([inv.body.id]);
    // With the accept link invite-member answered, to hand over again later.
    expect(ownerList.body[0].link).toBe(inv.body.link);
    expect(inv.body.link).toMatch(new RegExp(`/invitation/accept/${inv.body.id}$`));
    const ownerFull = await t.api.get(`${ORG}/get-full-organization?organizationId=${ws.id}`, owner.token);
    expect(ownerFull.body.invitations.map((i: any) => i.id)).toEqual([inv.body.id]);
  });

  it('a plain member is refused; a custom role with only invitation:cancel sees them', async () => {
    const { owner, ws } = await workspace();
    const inv = await t.api.post(`${ORG}/invite-member`, { email: email(), role: 'member', organizationId: ws.id }, owner.token);
    const plain = await member(ws.id, 'member');
    expect((await t.api.get(`${ORG}/list-invitations?organizationId=${ws.id}`, plain.token)).status).toBe(403);
    await createRole(owner.token, ws.id, 'canceller', { invitation: ['cancel'] });
    const canceller = await member(ws.id, 'canceller');
    const list = await t.api.get(`${ORG}/list-invitations?organizationId=${ws.id}`, canceller.token);
    expect(list.status).toBe(200);
    expect(list.body.map((i: any) => i.id)).toEqual([inv.body.id]);
  });

  it("an owner's API key without invitation scopes sees no invitations", async () => {
    const { owner, ws } = await workspace();
    await t.api.post(`${ORG}/invite-member`, { email: email(), role: 'member', organizationId: ws.id }, owner.token);
    const key = await apiKey(owner.token, { permissions: { workspace: ['read'] } });
    const list = await t.api.get(`${ORG}/list-invitations?organizationId=${ws.id}`, key.key);
    expect(list.status).toBe(403);
    expect(list.body).toEqual({ message: 'Insufficient API key scope' });
    const full = await t.api.get(`${ORG}/get-full-organization?organizationId=${ws.id}`, key.key);
    expect(full.status).toBe(200);
    expect(full.body.invitations).toEqual([]);
    const scoped = await apiKey(owner.token, { permissions: { workspace: ['read'], invitation: ['create'] } });
    expect((await t.api.get(`${ORG}/list-invitations?organizationId=${ws.id}`, scoped.key)).body).toHaveLength(1);
  });
});

describe('2. a key made with an API key never outlives it', () => {
  it('without expiresIn, or with a longer one, the new key gets the parent key’s expiry', async () => {
    const u = await t.api.signUp();
    const parent = await apiKey(u.token, { expiresIn: 3600 });
    expect(parent.expiresAt).not.toBeNull();
    const forever = await apiKey(parent.key, {});
    expect(forever.expiresAt).toBe(parent.expiresAt);
    const longer = await apiKey(parent.key, { expiresIn: 10 * 24 * 3600 });
    expect(longer.expiresAt).toBe(parent.expiresAt);
    const scopedChild = await apiKey(parent.key, { permissions: { task: ['read'] } });
    expect(scopedChild.expiresAt).toBe(parent.expiresAt);
    const [rows] = await sql(t.databaseUrl, `SELECT count(*)::int AS n FROM api_key WHERE id = ANY($1) AND expires_at = $2`, [
      [forever.id, longer.id, scopedChild.id],
      parent.expiresAt,
    ]);
    expect(rows.n).toBe(3);

    // A shorter lifetime is kept.
    const before = Date.now();
    const shorter = await apiKey(parent.key, { expiresIn: 120 });
    const expiry = new Date(shorter.expiresAt!).getTime();
    expect(expiry).toBeGreaterThanOrEqual(before + 120_000 - 1000);
    expect(expiry).toBeLessThan(new Date(parent.expiresAt!).getTime());

    // Once the parent's time is up, the children minted without a shorter lifetime stop too.
    await sql(t.databaseUrl, `UPDATE api_key SET expires_at = now() - interval '1 second' WHERE expires_at = $1`, [parent.expiresAt]);
    for (const k of [parent, forever, longer, scopedChild]) expect((await t.api.get(`${ORG}/list`, k.key)).status).toBe(401);
  });

  it('a scoped key mints only within its scopes; a session mints keys that never expire', async () => {
    const u = await t.api.signUp();
    const parent = await apiKey(u.token, { permissions: { task: ['read'] }, expiresIn: 600 });
    const wider = await t.api.post('/auth/api-key/create', { permissions: { task: ['read', 'update'] } }, parent.key);
    expect(wider.status).toBe(403);
    expect(wider.body).toEqual({ message: 'Insufficient API key scope' });
    const unscoped = await t.api.post('/auth/api-key/create', {}, parent.key);
    expect(unscoped.status).toBe(403);
    const fromSession = await apiKey(u.token, {});
    expect(fromSession.expiresAt).toBeNull();
  });
});

describe('3. resend re-checks the stored role', () => {
  it('a member with only invitation:create cannot revive an admin invitation, and it stays as it was', async () => {
    const { owner, ws } = await workspace();
    await createRole(owner.token, ws.id, 'inviter', { invitation: ['create'] });
    const inviter = await member(ws.id, 'inviter');
    const target = email();
    const inv = await t.api.post(`${ORG}/invite-member`, { email: target, role: 'admin', organizationId: ws.id }, owner.token);
    expect(inv.status).toBe(200);
    const [before] = await sql(t.databaseUrl, `SELECT expires_at, send_count, role FROM invitation WHERE id = $1`, [inv.body.id]);

    // The request's role is one the inviter could grant; the stored one is not.
    const resend = await t.api.post(`${ORG}/invite-member`, { email: target, role: 'viewer', organizationId: ws.id, resend: true }, inviter.token);
    expect(resend.status).toBe(403);
    expect(resend.body).toEqual({ message: 'You cannot invite with a role that has permissions you do not have' });
    const [after] = await sql(t.databaseUrl, `SELECT expires_at, send_count, role FROM invitation WHERE id = $1`, [inv.body.id]);
    expect(after).toEqual(before);
    // No second email was asked for (the first one may already be relayed: rows leave on commit).
    const asked = await sql(t.databaseUrl, `SELECT reference->>'send' AS send FROM email_job WHERE kind = 'invitation' AND reference->>'invitationId' = $1`, [inv.body.id]);
    expect(asked).toEqual([{ send: '1' }]);
  });

  it('the same member may resend a viewer invitation', async () => {
    const { owner, ws } = await workspace();
    await createRole(owner.token, ws.id, 'inviter', { invitation: ['create'] });
    const inviter = await member(ws.id, 'inviter');
    const target = email();
    const inv = await t.api.post(`${ORG}/invite-member`, { email: target, role: 'viewer', organizationId: ws.id }, owner.token);
    const resend = await t.api.post(`${ORG}/invite-member`, { email: target, role: 'viewer', organizationId: ws.id, resend: true }, inviter.token);
    expect(resend.status).toBe(200);
    expect(resend.body.id).toBe(inv.body.id);
    const [row] = await sql(t.databaseUrl, `SELECT send_count FROM invitation WHERE id = $1`, [inv.body.id]);
    expect(row.send_count).toBe(2);
  });
});

describe('4. changing or removing a member needs every permission that member holds', () => {
  it('a custom role with member:update cannot demote an admin; with member:delete cannot remove one', async () => {
    const { owner, ws } = await workspace();
    await createRole(owner.token, ws.id, 'demoter', { member: ['update'] });
    await createRole(owner.token, ws.id, 'remover', { member: ['delete'] });
    const demoter = await member(ws.id, 'demoter');
    const remover = await member(ws.id, 'remover');
    const admin = await member(ws.id, 'admin');

    const demote = await t.api.post(`${ORG}/update-member-role`, { organizationId: ws.id, memberId: admin.memberId, role: 'viewer' }, demoter.token);
    expect(demote.status).toBe(403);
    expect(demote.body).toEqual({ message: 'You cannot change the role of a member with permissions you do not have' });
    const remove = await t.api.post(`${ORG}/remove-member`, { organizationId: ws.id, memberIdOrEmail: admin.user.email }, remover.token);
    expect(remove.status).toBe(403);
    expect(remove.body).toEqual({ message: 'You cannot remove a member with permissions you do not have' });
    const [row] = await sql(t.databaseUrl, `SELECT role FROM member WHERE id = $1`, [admin.memberId]);
    expect(row.role).toBe('admin');

    // Members whose permissions they do hold (a viewer's are reads only) are theirs to change.
    const viewer = await member(ws.id, 'viewer');
    const other = await member(ws.id, 'viewer');
    const same = await t.api.post(`${ORG}/update-member-role`, { organizationId: ws.id, memberId: viewer.memberId, role: 'viewer' }, demoter.token);
    expect(same.status).toBe(200);
    const gone = await t.api.post(`${ORG}/remove-member`, { organizationId: ws.id, memberIdOrEmail: other.memberId }, remover.token);
    expect(gone.status).toBe(200);
    expect(gone.body.member.id).toBe(other.memberId);
  });

  it('an admin still manages members; the owner rules stay', async () => {
    const { owner, ws } = await workspace();
    const admin = await member(ws.id, 'admin');
    const plain = await member(ws.id, 'member');
    const demote = await t.api.post(`${ORG}/update-member-role`, { organizationId: ws.id, memberId: plain.memberId, role: 'viewer' }, admin.token);
    expect(demote.status).toBe(200);
    expect(demote.body.member.role).toBe('viewer');
    const ownerMember = (await sql(t.databaseUrl, `SELECT id FROM member WHERE user_id = $1`, [owner.user.id]))[0].id;
    const stripOwner = await t.api.post(`${ORG}/update-member-role`, { organizationId: ws.id, memberId: ownerMember, role: 'viewer' }, admin.token);
    expect(stripOwner.status).toBe(403);
    expect(stripOwner.body).toEqual({ message: 'Only an owner can change the role of an owner' });
  });
});

describe('5. a scoped API key is refused on every route outside its scopes', () => {
  it('a task:read key cannot list workspaces, API keys or the session; a workspace:read key lists workspaces', async () => {
    const { owner } = await workspace();
    await apiKey(owner.token, { name: 'another key' });
    const taskRead = await apiKey(owner.token, { permissions: { task: ['read'] } });
    for (const path of [`${ORG}/list`, '/auth/api-key/list', '/auth/get-session', '/auth/list-accounts', '/oauth/id-token']) {
      const res = await t.api.get(path, taskRead.key);
      expect([path, res.status, res.body]).toEqual([path, 403, { message: 'Insufficient API key scope' }]);
    }
    const wsRead = await apiKey(owner.token, { permissions: { workspace: ['read'] } });
    const list = await t.api.get(`${ORG}/list`, wsRead.key);
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
  });

  it('every route declares what a scoped key needs, and refuses a key that lacks it', async () => {
    const owner = await t.api.signUp();
    const declared = routeAccess(t);
    const registered = registeredRoutes(t).map((r) => r.key);
    // The declarations cover every route Express serves, but for the OpenAPI pages (Swagger's own, public).
    const declaredKeys = new Set(declared.map((r) => r.key));
    expect(declaredKeys.size).toBe(declared.length);
    expect(registered.filter((k) => declaredKeys.has(k)).sort()).toEqual([...declaredKeys].sort());
    expect(registered.filter((k) => !declaredKeys.has(k)).filter((k) => !/^GET \/api\/(docs|openapi\.json)/.test(k))).toEqual([]);
    const key = await apiKey(owner.token, { permissions: { team: ['delete'] } });
    // Routes whose handler bounds a scoped key get valid input, so that the handler's check is reached.
    const handlerInput: Record<string, { query?: string; body?: unknown }> = {
      'POST /api/auth/api-key/create': { body: {} },
      'POST /api/auth/api-key/delete': { body: { keyId: randomUUID() } },
      'GET /api/search': { query: '?q=anything' },
      'PATCH /api/task/bulk': { body: { taskIds: [randomUUID()], operation: 'updatePriority', value: 'high' } },
    };
    expect(
      declared
        .filter((r) => r.keyScope === 'handler')
        .map((r) => r.key)
        .sort(),
    ).toEqual(Object.keys(handlerInput).sort());
    const allowed: string[] = [];
    for (const route of declared) {
      if (route.isPublic) continue;
      const need = route.permission ?? route.keyScope;
      const input = handlerInput[route.key] ?? { body: route.method === 'GET' ? undefined : {} };
      const res = await t.api.request(route.method, concretePath(route.path) + (input.query ?? ''), input.body, { token: key.key });
      if (need && need !== 'handler' && need.resource === 'team' && need.action === 'delete') {
        // Within its scope: the guard lets it through to the input checks (here: no teamId).
        expect([route.key, res.status, res.body]).toEqual([route.key, 400, { message: 'teamId is required' }]);
        allowed.push(route.key);
        continue;
      }
      expect([route.key, res.status, res.body]).toEqual([route.key, 403, { [route.errorBodyKey ?? 'message']: 'Insufficient API key scope' }]);
    }
    expect(allowed).toEqual(['POST /api/auth/organization/remove-team']);
  });

  it('holding a resource is not holding all its actions: every guarded route refuses a key with its resource but not its action', async () => {
    const owner = await t.api.signUp();
    const { RESOURCE_ACTIONS } = await import('../../../src/common/permissions/permissions');
    const guarded = routeAccess(t).filter((r) => r.permission);
    expect(guarded.length).toBeGreaterThan(40);
    const keys = new Map<string, string>();
    for (const route of guarded) {
      const { resource, action } = route.permission!;
      const others = (RESOURCE_ACTIONS as Record<string, readonly string[]>)[resource].filter((a) => a !== action);
      if (!others.length) continue;
      const scopeKey = `${resource}:${action}`;
      if (!keys.has(scopeKey)) keys.set(scopeKey, (await apiKey(owner.token, { permissions: { [resource]: others } })).key);
      const res = await t.api.request(route.method, concretePath(route.path), route.method === 'GET' ? undefined : {}, { token: keys.get(scopeKey) });
      expect([route.key, res.status, res.body]).toEqual([route.key, 403, { [route.errorBodyKey ?? 'message']: 'Insufficient API key scope' }]);
    }
  });

  it('on real objects: a task:read key reads a task but cannot rename, move, reassign or delete it; label:read cannot edit labels', async () => {
    const { owner, ws } = await workspace();
    const project = await createProject(t, owner.token, ws.id, { slug: 'SCP' });
    const other = await createProject(t, owner.token, ws.id, { slug: 'SCQ' });
    const task = await createTask(t, owner.token, project.id, { title: 'Keep me' });
    const taskRead = (await apiKey(owner.token, { permissions: { task: ['read'] } })).key;

    expect((await t.api.get(`/task/${task.id}`, taskRead)).status).toBe(200);
    const attempts = [
      await t.api.put(`/task/title/${task.id}`, { title: 'Renamed' }, taskRead),
      await t.api.put(`/task/status/${task.id}`, { status: 'done' }, taskRead),
      await t.api.put(`/task/move/${task.id}`, { destinationProjectId: other.id }, taskRead),
      await t.api.put(`/task/assignee/${task.id}`, { userId: owner.user.id }, taskRead),
      await t.api.post(`/task/${project.id}`, { title: 'New' }, taskRead),
      await t.api.delete(`/task/${task.id}`, taskRead),
      await t.api.post(`/comment/${task.id}`, { content: 'hi' }, taskRead),
    ];
    for (const res of attempts) expect([res.status, res.body]).toEqual([403, { message: 'Insufficient API key scope' }]);
    const after = await t.api.get(`/task/${task.id}`, owner.token);
    expect(after.body).toMatchObject({ id: task.id, title: 'Keep me', status: task.status, projectId: project.id, userId: null });

    // With the action too, the same key shape works: the refusal above is about the action.
    const taskUpdate = (await apiKey(owner.token, { permissions: { task: ['read', 'update'] } })).key;
    expect((await t.api.put(`/task/title/${task.id}`, { title: 'Renamed' }, taskUpdate)).status).toBe(200);

    const label = await t.api.post('/label', { name: 'bug', color: '#ff0000', workspaceId: ws.id }, owner.token);
    expect(label.status).toBe(200);
    const labelRead = (await apiKey(owner.token, { permissions: { label: ['read'] } })).key;
    expect((await t.api.get(`/label/${label.body.id}`, labelRead)).status).toBe(200);
    for (const res of [
      await t.api.put(`/label/${label.body.id}`, { name: 'feature' }, labelRead),
      await t.api.delete(`/label/${label.body.id}`, labelRead),
      await t.api.put(`/label/${label.body.id}/task`, { taskId: task.id }, labelRead),
    ]) {
      expect([res.status, res.body]).toEqual([403, { message: 'Insufficient API key scope' }]);
    }
    expect((await t.api.get(`/label/${label.body.id}`, owner.token)).body.name).toBe('bug');
  });

  it('search: a scoped key searches the sections it may read, and none at all is refused', async () => {
    const { owner, ws } = await workspace();
    const project = await createProject(t, owner.token, ws.id, { name: 'Zebra project', slug: 'ZEB' });
    await createTask(t, owner.token, project.id, { title: 'Zebra task' });
    const taskRead = (await apiKey(owner.token, { permissions: { task: ['read'] } })).key;
    const res = await t.api.get('/search?q=zebra', taskRead);
    expect(res.status).toBe(200);
    expect(res.body.tasks.map((x: any) => x.title)).toEqual(['Zebra task']);
    expect(res.body.projects).toEqual([]);
    const projects = await t.api.get('/search?q=zebra&type=projects', taskRead);
    expect([projects.status, projects.body]).toEqual([403, { message: 'Insufficient API key scope' }]);
    const teamOnly = (await apiKey(owner.token, { permissions: { team: ['create'] } })).key;
    const none = await t.api.get('/search?q=zebra', teamOnly);
    expect([none.status, none.body]).toEqual([403, { message: 'Insufficient API key scope' }]);
  });
});

describe('5a. attaching a label with POST /label needs label:update too', () => {
  it('a role or key with label:create but not label:update makes catalogue labels but attaches none', async () => {
    const { owner, ws } = await workspace();
    await createRole(owner.token, ws.id, 'labeller', { label: ['create', 'read'], task: ['read'] });
    const labeller = await member(ws.id, 'labeller');
    const project = (await t.api.post('/project', { name: 'P', workspaceId: ws.id }, owner.token)).body;
    const task = (await t.api.post(`/task/${project.id}`, { title: 'T' }, owner.token)).body;
    const onTask = async () => ((await t.api.get(`/label/task/${task.id}`, owner.token)).body as { name: string }[]).map((l) => l.name);

    const refused = await t.api.post('/label', { name: 'Urgent', color: '#ff0000', workspaceId: ws.id, taskId: task.id }, labeller.token);
    expect([refused.status, refused.body]).toEqual([403, { message: 'Insufficient permissions' }]);
    expect(await onTask()).toEqual([]);
    // The same request without taskId is what label:create allows.
    expect((await t.api.post('/label', { name: 'Urgent', color: '#ff0000', workspaceId: ws.id }, labeller.token)).status).toBe(200);

    const createOnly = await apiKey(owner.token, { permissions: { label: ['create'] } });
    const byKey = await t.api.post('/label', { name: 'Later', color: '#00ff00', workspaceId: ws.id, taskId: task.id }, createOnly.key);
    expect([byKey.status, byKey.body]).toEqual([403, { message: 'Insufficient API key scope' }]);
    const both = await apiKey(owner.token, { permissions: { label: ['create', 'update'] } });
    expect((await t.api.post('/label', { name: 'Later', color: '#00ff00', workspaceId: ws.id, taskId: task.id }, both.key)).status).toBe(200);
    expect(await onTask()).toEqual(['Later']);
    const catalogue = ((await t.api.get(`/label/workspace/${ws.id}`, owner.token)).body as { name: string }[]).map((l) => l.name);
    expect(catalogue.sort()).toEqual(['Later', 'Urgent']);
  });
});

describe('6. CORS, development secrets, proxies and look-alike emails', () => {
  it('CORS answers only the allowed origin (default: CLIENT_URL), with credentials only there', async () => {
    const evil = await fetch(`${t.url}/health`, { headers: { origin: 'https://evil.example' } });
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    expect(evil.headers.get('access-control-allow-credentials')).toBeNull();
    const preflight = await fetch(`${t.url}/task/${randomUUID()}`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();

    const good = await fetch(`${t.url}/health`, { headers: { origin: CLIENT_URL } });
    expect(good.headers.get('access-control-allow-origin')).toBe(CLIENT_URL);
    expect(good.headers.get('access-control-allow-credentials')).toBe('true');
    expect(good.headers.get('access-control-expose-headers')).toBe('set-auth-token,x-request-id');
    const goodPreflight = await fetch(`${t.url}/task/${randomUUID()}`, {
      method: 'OPTIONS',
      headers: { origin: CLIENT_URL, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization' },
    });
    expect(goodPreflight.status).toBe(204);
    expect(goodPreflight.headers.get('access-control-allow-origin')).toBe(CLIENT_URL);
  });

  it('CORS answers no near miss of the allowed origin: no CORS header at all, preflight or not', async () => {
    for (const [what, origin] of nearMissOrigins(CLIENT_URL)) {
      const plain = await fetch(`${t.url}/health`, { headers: { origin } });
      const preflight = await fetch(`${t.url}/task/${randomUUID()}`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization' },
      });
      const cors = (res: Response) => [...res.headers.keys()].filter((h) => h.startsWith('access-control-'));
      expect([what, origin, cors(plain), cors(preflight)]).toEqual([what, origin, [], []]);
    }
  });

  it('CORS_ORIGINS=* answers any origin, never with credentials', async () => {
    const open = await startTestApp({ CORS_ORIGINS: '*', APP_ROLES: 'api' });
    try {
      const res = await fetch(`${open.url}/health`, { headers: { origin: 'https://anyone.example' } });
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    } finally {
      await open.close();
    }
  });

  it('without JWT_SECRET a token signed with the old public development key is refused', async () => {
    const u = await t.api.signUp();
    const [session] = await sql(t.databaseUrl, `SELECT id FROM session WHERE user_id = $1`, [u.user.id]);
    const publicKey = createHash('sha256').update('tandem-development-only-jwt').digest('hex');
    const forged = jwt.sign({ sid: session.id }, publicKey, { algorithm: 'HS256', subject: u.user.id, expiresIn: 600 });
    const res = await t.api.get('/auth/get-session', forged);
    expect([res.status, res.body]).toEqual([401, { message: 'Unauthorized' }]);
    expect((await t.api.get('/auth/get-session', u.token)).status).toBe(200);
  });

  it('TRUST_PROXY=false: X-Forwarded-For does not pick the rate-limit bucket; from a proxy TRUST_PROXY names it does', async () => {
    const direct = await startTestApp({ TRUST_PROXY: 'false', RATE_LIMIT_AUTH: '2', APP_ROLES: 'api' });
    const proxied = await startTestApp({ TRUST_PROXY: 'loopback', RATE_LIMIT_AUTH: '2', APP_ROLES: 'api' });
    try {
      const attempt = (app: TestApp, forwardedFor: string) =>
        app.api.post('/auth/sign-in/email', { email: 'nobody@example.test', password: 'whatever1' }, undefined, { headers: { 'x-forwarded-for': forwardedFor } });
      const spoofed = [];
      for (const ip of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) spoofed.push((await attempt(direct, ip)).status);
      expect(spoofed).toEqual([401, 401, 429]);
      const behindProxy = [];
      for (const ip of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) behindProxy.push((await attempt(proxied, ip)).status);
      expect(behindProxy).toEqual([401, 401, 401]);
    } finally {
      await direct.close();
      await proxied.close();
    }
  });

  it('a full-width look-alike of a registered email is the same address', async () => {
    const local = `ada${randomBytes(3).toString('hex')}`;
    const ascii = `${local}@example.com`;
    const lookAlike = fullWidth(ascii);
    expect(lookAlike.startsWith('ａｄａ')).toBe(true);
    expect(lookAlike.endsWith('＠ｅｘａｍｐｌｅ．ｃｏｍ')).toBe(true);
    const first = await t.api.signUp({ email: ascii, password: 'correct horse' });
    const twin = await t.api.post('/auth/sign-up/email', { name: 'Twin', email: lookAlike, password: 'another pass' });
    expect([twin.status, twin.body]).toEqual([409, { message: 'User already exists' }]);
    const signIn = await t.api.post('/auth/sign-in/email', { email: lookAlike.toUpperCase(), password: 'correct horse' });
    expect(signIn.status).toBe(200);
    expect(signIn.body.user.id).toBe(first.user.id);
    const [{ n }] = await sql(t.databaseUrl, `SELECT count(*)::int AS n FROM "user" WHERE email = $1 OR email = $2`, [ascii, lookAlike]);
    expect(n).toBe(1);
  });

  it('invitations and member look-ups by email use the normalised form', async () => {
    const { owner, ws } = await workspace();
    const local = `bea${randomBytes(3).toString('hex')}`;
    const inv = await t.api.post(`${ORG}/invite-member`, { email: fullWidth(`${local}@example.com`), role: 'member', organizationId: ws.id }, owner.token);
    expect(inv.status).toBe(200);
    expect(inv.body.email).toBe(`${local}@example.com`);
    const invitee = await t.api.signUp({ email: `${local}@example.com` });
    const accepted = await t.api.post(`${ORG}/accept-invitation`, { invitationId: inv.body.id }, invitee.token);
    expect(accepted.status).toBe(200);
    const removed = await t.api.post(`${ORG}/remove-member`, { organizationId: ws.id, memberIdOrEmail: fullWidth(`${local}@example.com`) }, owner.token);
    expect(removed.status).toBe(200);
    expect(removed.body.member.userId).toBe(invitee.user.id);
  });

  it('the EmailNfkc migration rewrites stored look-alikes, leaving a pair that would collide as it is', async () => {
    const c = new Client({ connectionString: t.databaseUrl });
    await c.connect();
    try {
      const tag = randomBytes(3).toString('hex');
      const taken = `taken${tag}@example.com`;
      await c.query(`INSERT INTO "user" (name, email) VALUES ($1, $2), ($3, $4), ($5, $6)`, [
        `Lone ${tag}`,
        fullWidth(`lone${tag}@example.com`),
        `Taken ${tag}`,
        taken,
        `Twin ${tag}`,
        fullWidth(taken),
      ]);
      await new EmailNfkc1763780800000().up({ query: async (text: string, params?: unknown[]) => (await c.query(text, params)).rows } as any);
      const rows = await c.query(`SELECT name, email FROM "user" WHERE name LIKE '% ' || $1 ORDER BY name`, [tag]);
      expect(rows.rows).toEqual([
        { name: `Lone ${tag}`, email: `lone${tag}@example.com` },
        { name: `Taken ${tag}`, email: taken },
        { name: `Twin ${tag}`, email: fullWidth(taken) },
      ]);
    } finally {
      await c.end();
    }
  });
});
