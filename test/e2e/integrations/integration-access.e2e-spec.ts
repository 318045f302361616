import { randomUUID } from 'node:crypto';
import { startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { BOT_TOKEN, insertDelivery } from '../../support/integrations';
import { createProject, MISSING_ID, ownerWithWorkspace, userWithRole } from '../../support/work-items';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ APP_ROLES: 'api' });
});
afterAll(() => t?.close());

const HOOK = 'https://hooks.example.com/services/T000/B000/XXXXlongsecretYYYY';
const BODIES: Record<string, Record<string, unknown>> = {
  messenger: { botToken: BOT_TOKEN, chatId: '1' },
  teamchat: { webhookUrl: HOOK },
  communitychat: { webhookUrl: HOOK },
  'generic-webhook': { webhookUrl: HOOK, secret: 'a-signing-secret' },
};
const TYPES = Object.keys(BODIES);

/** Every write route of every type, as [method, path, body] for a project (and a delivery of each type). */
function writes(projectId: string, deliveries: Record<string, string>): [string, string, unknown][] {
  return TYPES.flatMap((type): [string, string, unknown][] => {
    const base = `/${type}-integration/project/${projectId}`;
    return [
      ['POST', base, BODIES[type]],
      ['PATCH', base, { isActive: false }],
      ['DELETE', base, undefined],
      ['GET', `${base}/deliveries`, undefined],
      ['POST', `${base}/deliveries/${deliveries[type]}/redeliver`, undefined],
    ];
  });
}

/** A workspace with a project that has all four integrations and one delivery to each. */
async function configured() {
  const { owner, workspaceId } = await ownerWithWorkspace(t);
  const project = await createProject(t, owner.token, workspaceId);
  const deliveries: Record<string, string> = {};
  for (const type of TYPES) {
    const res = await t.api.post(`/${type}-integration/project/${project.id}`, BODIES[type], owner.token);
    expect(res.status).toBe(200);
    deliveries[type] = await insertDelivery(t, { workspaceId, projectId: project.id, targetType: type, targetId: res.body.id, status: 'failed' });
  }
  return { owner, workspaceId, projectId: project.id as string, deliveries };
}

/** What a refused request must not have changed. */
const state = (projectId: string) =>
  sql(
    t.databaseUrl,
    `SELECT (SELECT json_agg(i ORDER BY type) FROM integration i WHERE project_id = $1) AS integrations,
            (SELECT json_agg(d.status ORDER BY target_type) FROM delivery d WHERE project_id = $1) AS deliveries,
            (SELECT count(*)::int FROM outbox WHERE queue LIKE 'deliver-%') AS jobs`,
    [projectId],
  );

describe('who may read and write integrations', () => {
  it('members and viewers read the records but every write answers 403; nothing changes', async () => {
    const { workspaceId, projectId, deliveries } = await configured();
    const before = await state(projectId);
    for (const role of ['member', 'viewer']) {
      const user = await userWithRole(t, workspaceId, role);
      for (const type of TYPES) {
        const read = await t.api.get(`/${type}-integration/project/${projectId}`, user.token);
        expect([role, type, read.status, read.body.projectId]).toEqual([role, type, 200, projectId]);
      }
      for (const [method, path, body] of writes(projectId, deliveries)) {
        const res = await t.api.request(method, path, body, { token: user.token });
        expect([role, method, path, res.status, res.body]).toEqual([role, method, path, 403, { message: 'Insufficient permissions: workspace:manage_settings is needed' }]);
      }
    }
    expect(await state(projectId)).toEqual(before);
  });

  it('admins and custom roles holding workspace:manage_settings write; a custom role without it does not', async () => {
    const { owner, workspaceId, projectId, deliveries } = await configured();
    const create = async (role: string, permission: Record<string, string[]>) =>
      expect((await t.api.post('/auth/organization/create-role', { organizationId: workspaceId, role, permission }, owner.token)).status).toBe(200);
    await create('integrator', { workspace: ['manage_settings'] });
    await create('projectlead', { project: ['update', 'delete'], task: ['update'] });
    const lead = await userWithRole(t, workspaceId, 'projectlead');
    for (const [method, path, body] of writes(projectId, deliveries)) {
      const res = await t.api.request(method, path, body, { token: lead.token });
      expect([method, path, res.status]).toEqual([method, path, 403]);
    }
    for (const role of ['integrator', 'admin']) {
      const user = await userWithRole(t, workspaceId, role);
      for (const [method, path, body] of writes(projectId, deliveries)) {
        if (method === 'DELETE') continue;
        const res = await t.api.request(method, path, body, { token: user.token });
        expect([role, method, path, res.status]).toEqual([role, method, path, 200]);
      }
      for (const type of TYPES) {
        expect((await t.api.delete(`/${type}-integration/project/${projectId}`, user.token)).body).toEqual({ success: true });
        expect((await t.api.post(`/${type}-integration/project/${projectId}`, BODIES[type], user.token)).status).toBe(200);
      }
    }
  });

  it("another workspace's user, an unknown and a malformed project id all get 404 Project not found", async () => {
    const { projectId, deliveries } = await configured();
    const stranger = await ownerWithWorkspace(t);
    const before = await state(projectId);
    for (const [method, path, body] of [
      ...TYPES.map((type): [string, string, unknown] => ['GET', `/${type}-integration/project/${projectId}`, undefined]),
      ...writes(projectId, deliveries),
    ]) {
      const res = await t.api.request(method, path, body, { token: stranger.owner.token });
      expect([method, path, res.status, res.body]).toEqual([method, path, 404, { message: 'Project not found' }]);
    }
    expect(await state(projectId)).toEqual(before);
    for (const id of ['nope', MISSING_ID, randomUUID()]) {
      for (const type of TYPES) {
        for (const [method, path, body] of [
          ['GET', `/${type}-integration/project/${id}`, undefined],
          ['POST', `/${type}-integration/project/${id}`, BODIES[type]],
          ['GET', `/${type}-integration/project/${id}/deliveries`, undefined],
        ] as const) {
          const res = await t.api.request(method, path, body, { token: stranger.owner.token });
          expect([path, res.status, res.body]).toEqual([path, 404, { message: 'Project not found' }]);
        }
      }
    }
  });

  it('API keys: workspace:read reads, writes need the workspace:manage_settings scope', async () => {
    const { owner, projectId } = await configured();
    const key = async (permissions: Record<string, string[]>) => (await t.api.post('/auth/api-key/create', { permissions }, owner.token)).body.key as string;
    const reader = await key({ workspace: ['read'] });
    const manager = await key({ workspace: ['manage_settings'] });
    const path = `/teamchat-integration/project/${projectId}`;
    expect((await t.api.get(path, reader)).status).toBe(200);
    expect((await t.api.get(path, manager)).status).toBe(403);
    const refused = await t.api.patch(path, { channelName: 'x' }, reader);
    expect([refused.status, refused.body]).toEqual([403, { message: 'Insufficient API key scope' }]);
    const allowed = await t.api.patch(path, { channelName: 'x' }, manager);
    expect([allowed.status, allowed.body.channelName]).toEqual([200, 'x']);
  });
});
