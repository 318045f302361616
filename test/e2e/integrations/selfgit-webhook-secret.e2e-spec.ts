import { randomUUID } from 'node:crypto';
import { startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { FakeSelfgit, sendSelfgitWebhook } from '../../support/git-hosts';
import { createProject, MISSING_ID, ownerWithWorkspace, userWithRole } from '../../support/work-items';

/**
 * Rotating the selfgit webhook secret (docs/git-hosts.md, "Rotating the webhook secret"):
 * `POST /selfgit-integration/project/:projectId/rotate-webhook-secret` makes a new secret and
 * answers it in the record; deliveries signed with the secret it replaced are accepted for 24
 * hours, then only the new one.
 */

const PUBLIC_API_URL = 'https://tandem.example.test';
const TOKEN = 'rotate-token-0123456789abcdef';
const git = new FakeSelfgit();
let t: TestApp;

beforeAll(async () => {
  await git.start();
  git.addUser(TOKEN, 'ada');
  t = await startTestApp({ PUBLIC_API_URL, APP_ROLES: 'api' });
});
afterAll(async () => {
  await t?.close();
  await git.stop();
});

let n = 0;
/** A workspace with a project linked to a repository of its own; its record as the owner sees it. */
async function linked() {
  const { owner, workspaceId } = await ownerWithWorkspace(t);
  const project = await createProject(t, owner.token, workspaceId);
  const name = `rotated-${++n}`;
  git.addRepo('acme', name, { access: { [TOKEN]: 'write' } });
  const res = await t.api.post(`/selfgit-integration/project/${project.id}`, { baseUrl: git.url, accessToken: TOKEN, repositoryOwner: 'acme', repositoryName: name }, owner.token);
  expect(res.status).toBe(200);
  return { owner, workspaceId, project, rec: res.body, path: `/selfgit-integration/project/${project.id}/rotate-webhook-secret` };
}

/** A delivery signed with `secret`: its HTTP status (200 accepted, 401 `Invalid signature`). */
async function deliver(integrationId: string, secret: string): Promise<number> {
  const res = await sendSelfgitWebhook(`${t.url}/selfgit-integration/webhook/${integrationId}`, secret, 'ping', { zen: randomUUID() });
  if (res.status === 401) expect(res.body).toEqual({ error: 'Invalid signature' });
  else expect(res.body).toMatchObject({ ok: true });
  return res.status;
}

/** Moves the last rotation `ms` into the past, as if that much time had gone by. */
const age = (integrationId: string, ms: number) =>
  sql(t.databaseUrl, `UPDATE git_integration SET webhook_secret_replaced_at = webhook_secret_replaced_at - make_interval(secs => $2) WHERE id = $1`, [integrationId, ms / 1000]);

describe('POST /selfgit-integration/project/:projectId/rotate-webhook-secret', () => {
  it('answers the record with a new secret; only the secret and updatedAt change, and GET shows the new one', async () => {
    const { owner, project, rec, path } = await linked();
    const res = await t.api.post(path, undefined, owner.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...rec, webhookSecret: expect.stringMatching(/^[0-9a-f]{48}$/), updatedAt: expect.any(String) });
    expect(res.body.webhookSecret).not.toBe(rec.webhookSecret);
    expect(new Date(res.body.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(rec.updatedAt).getTime());
    expect((await t.api.get(`/selfgit-integration/project/${project.id}`, owner.token)).body).toEqual(res.body);

    // Both secrets are stored encrypted, the replaced one beside the new one.
    const [row] = await sql(t.databaseUrl, `SELECT webhook_secret, webhook_previous_secret, webhook_secret_replaced_at FROM git_integration WHERE id = $1`, [rec.id]);
    expect(row.webhook_secret).toMatch(/^v2:/);
    expect(row.webhook_previous_secret).toMatch(/^v2:/);
    expect(row.webhook_secret_replaced_at).toBeInstanceOf(Date);
    expect(JSON.stringify(row)).not.toContain(rec.webhookSecret);
    expect(JSON.stringify(row)).not.toContain(res.body.webhookSecret);
  });

  it('accepts deliveries signed with the replaced secret for 24 hours, then only the new one', async () => {
    const { owner, rec, path } = await linked();
    const first = rec.webhookSecret as string;
    const second = (await t.api.post(path, undefined, owner.token)).body.webhookSecret as string;

    expect(await deliver(rec.id, first)).toBe(200);
    expect(await deliver(rec.id, second)).toBe(200);
    expect(await deliver(rec.id, 'a-secret-nobody-was-given')).toBe(401);

    await age(rec.id, 23 * 3600_000);
    expect(await deliver(rec.id, first)).toBe(200);
    await age(rec.id, 3600_000 + 1000);
    expect(await deliver(rec.id, first)).toBe(401);
    expect(await deliver(rec.id, second)).toBe(200);

    // A second rotation keeps only the secret it replaces: the first one is not accepted again.
    const third = (await t.api.post(path, undefined, owner.token)).body.webhookSecret as string;
    expect(await deliver(rec.id, third)).toBe(200);
    expect(await deliver(rec.id, second)).toBe(200);
    expect(await deliver(rec.id, first)).toBe(401);
  });

  it('needs workspace:manage_settings: members and viewers 403, another workspace 404, a project without the integration 404', async () => {
    const { owner, workspaceId, project, rec, path } = await linked();
    for (const role of ['member', 'viewer']) {
      const u = await userWithRole(t, workspaceId, role);
      expect(await t.api.post(path, undefined, u.token)).toMatchObject({ status: 403, body: { message: 'Insufficient permissions: workspace:manage_settings is needed' } });
    }
    const admin = await userWithRole(t, workspaceId, 'admin');
    const byAdmin = await t.api.post(path, undefined, admin.token);
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.webhookSecret).toMatch(/^[0-9a-f]{48}$/);

    const other = await ownerWithWorkspace(t);
    expect(await t.api.post(path, undefined, other.owner.token)).toMatchObject({ status: 404, body: { message: 'Project not found' } });
    for (const id of [MISSING_ID, 'not-a-uuid']) {
      expect(await t.api.post(`/selfgit-integration/project/${id}/rotate-webhook-secret`, undefined, owner.token)).toMatchObject({
        status: 404,
        body: { message: 'Project not found' },
      });
    }
    const bare = await createProject(t, owner.token, workspaceId);
    expect(await t.api.post(`/selfgit-integration/project/${bare.id}/rotate-webhook-secret`, undefined, owner.token)).toMatchObject({
      status: 404,
      body: { message: 'Integration not found' },
    });
    expect(await t.api.post(path, undefined)).toMatchObject({ status: 401, body: { message: 'Unauthorized' } });
    // Nothing of the above changed the secret but the admin's rotation.
    expect((await t.api.get(`/selfgit-integration/project/${project.id}`, owner.token)).body.webhookSecret).toBe(byAdmin.body.webhookSecret);
    expect(byAdmin.body.webhookSecret).not.toBe(rec.webhookSecret);
  });

  it('an API key needs the workspace:manage_settings scope; with it, the new secret is answered', async () => {
    const { owner, project, path } = await linked();
    const readOnly = (await t.api.post('/auth/api-key/create', { permissions: { workspace: ['read'] } }, owner.token)).body.key;
    expect(await t.api.post(path, undefined, readOnly)).toMatchObject({ status: 403, body: { message: 'Insufficient API key scope' } });
    const manager = (await t.api.post('/auth/api-key/create', { permissions: { workspace: ['manage_settings'] } }, owner.token)).body.key;
    const res = await t.api.post(path, undefined, manager);
    expect(res.status).toBe(200);
    expect(res.body.webhookSecret).toMatch(/^[0-9a-f]{48}$/);
    expect((await t.api.get(`/selfgit-integration/project/${project.id}`, owner.token)).body.webhookSecret).toBe(res.body.webhookSecret);
  });
});
