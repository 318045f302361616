import { startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';

/**
 * A key made with another key is its child (`parentKeyId`), and deleting a key deletes every key
 * minted from it, transitively (docs/decisions-local.md, "Access rules that close escalation
 * paths" 2; docs/records.md, "API key").
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

interface Minted {
  id: string;
  key: string;
  parentKeyId: string | null;
}

/** Creates a key with `credential` (a session token or an API key). */
async function mint(credential: string, body: Record<string, unknown> = {}): Promise<Minted> {
  const res = await t.api.post('/auth/api-key/create', body, credential);
  if (res.status !== 200) throw new Error(`api-key/create failed: ${res.status} ${res.text}`);
  return res.body;
}

const works = async (key: string) => (await t.api.get('/auth/get-session', key)).status;

/** Key A made with the session, B made with A, C made with B. */
async function lineage() {
  const user = await t.api.signUp();
  const a = await mint(user.token, { name: 'A' });
  const b = await mint(a.key, { name: 'B' });
  const c = await mint(b.key, { name: 'C' });
  return { user, a, b, c };
}

it('the create answer and the key list show each key’s parent key (null for a key made with a session)', async () => {
  const { user, a, b, c } = await lineage();
  expect(a).toEqual({
    id: expect.any(String),
    name: 'A',
    start: a.key.slice(0, 10),
    key: expect.stringMatching(/^tdm_/),
    permissions: null,
    parentKeyId: null,
    createdAt: expect.any(String),
    expiresAt: null,
  });
  expect([b.parentKeyId, c.parentKeyId]).toEqual([a.id, b.id]);
  const list = await t.api.get('/auth/api-key/list', user.token);
  expect(list.status).toBe(200);
  expect(list.body.map((k: Minted & { name: string }) => [k.name, k.id, k.parentKeyId])).toEqual([
    ['C', c.id, b.id],
    ['B', b.id, a.id],
    ['A', a.id, null],
  ]);
  for (const k of list.body) expect(k.key).toBeUndefined();
});

it('deleting a key ends every key minted from it, transitively', async () => {
  const { user, a, b, c } = await lineage();
  const unrelated = await mint(user.token, { name: 'other' });
  for (const k of [a, b, c]) expect(await works(k.key)).toBe(200);

  const del = await t.api.post('/auth/api-key/delete', { keyId: a.id }, user.token);
  expect([del.status, del.body]).toEqual([200, { success: true }]);
  for (const k of [a, b, c]) {
    const res = await t.api.get('/auth/get-session', k.key);
    expect([k.id, res.status, res.body]).toEqual([k.id, 401, { message: 'Unauthorized' }]);
  }
  const rows = await sql(t.databaseUrl, `SELECT id FROM api_key WHERE id = ANY($1)`, [[a.id, b.id, c.id]]);
  expect(rows).toEqual([]);
  // The user's other keys stay.
  expect(await works(unrelated.key)).toBe(200);
  const list = await t.api.get('/auth/api-key/list', user.token);
  expect(list.body.map((k: Minted) => k.id)).toEqual([unrelated.id]);
});

it('deleting a child leaves its parent working and ends the child’s own children', async () => {
  const { user, a, b, c } = await lineage();
  const del = await t.api.post('/auth/api-key/delete', { keyId: b.id }, user.token);
  expect([del.status, del.body]).toEqual([200, { success: true }]);
  expect(await works(a.key)).toBe(200);
  expect(await works(b.key)).toBe(401);
  expect(await works(c.key)).toBe(401);
  const list = await t.api.get('/auth/api-key/list', a.key);
  expect(list.body.map((k: Minted) => [k.id, k.parentKeyId])).toEqual([[a.id, null]]);
});

it('a scoped key that deletes itself takes its children with it', async () => {
  const user = await t.api.signUp();
  const scoped = await mint(user.token, { permissions: { task: ['read'] } });
  const child = await mint(scoped.key, { permissions: { task: ['read'] } });
  const grandchild = await mint(child.key, { permissions: { task: ['read'] } });
  expect([child.parentKeyId, grandchild.parentKeyId]).toEqual([scoped.id, child.id]);
  const del = await t.api.post('/auth/api-key/delete', { keyId: scoped.id }, scoped.key);
  expect([del.status, del.body]).toEqual([200, { success: true }]);
  const rows = await sql(t.databaseUrl, `SELECT id FROM api_key WHERE user_id = $1`, [user.user.id]);
  expect(rows).toEqual([]);
});

it('keys made before parents were recorded (no parent) are left alone by a deletion', async () => {
  const { user, a, b } = await lineage();
  // As the migration leaves a key minted before it: its parent is unknown.
  await sql(t.databaseUrl, `UPDATE api_key SET parent_key_id = NULL WHERE id = $1`, [b.id]);
  await t.api.post('/auth/api-key/delete', { keyId: a.id }, user.token);
  expect(await works(a.key)).toBe(401);
  expect(await works(b.key)).toBe(200);
});
