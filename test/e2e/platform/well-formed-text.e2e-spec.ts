import { randomUUID } from 'node:crypto';
import { startTestApp, TestApp } from '../../support/app';
import { databaseSnapshots, outboxDrained } from '../../support/db-snapshot';
import { hmacHex } from '../../support/git-hosts';
import { createProject, createTask, MISSING_ID, ownerWithWorkspace } from '../../support/work-items';

/**
 * Text is well-formed Unicode everywhere (docs/decisions-local.md, "Review (input hardening, API
 * key scopes)"): a lone UTF-16 surrogate in a JSON body (a `\ud800` escape survives JSON.parse as
 * one), in a body key, and percent-encoded bytes that are not UTF-8 in a query or a path are 400
 * `{message}` before any route, and nothing is written. These requests used to answer 500 (a
 * jsonb column refuses the escape) or store U+FFFD in place of what was sent.
 */

const HOSTEDGIT_SECRET = 'well-formed-text-webhook-secret';
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ HOSTEDGIT_WEBHOOK_SECRET: HOSTEDGIT_SECRET });
});
afterAll(() => t?.close());

const refused = (where: string) => ({ message: `Text must be well-formed Unicode (${where})` });

it('a lone surrogate in a body value or key (any depth) is 400 {message} naming where, on every kind of route, and writes nothing', async () => {
  const { owner, workspaceId } = await ownerWithWorkspace(t);
  const project = await createProject(t, owner.token, workspaceId);
  const task = await createTask(t, owner.token, project.id, { description: 'before' });
  const tok = owner.token;
  const snapshots = await databaseSnapshots(t.databaseUrl);
  try {
    await outboxDrained(t.databaseUrl);
    const before = await snapshots.take();
    // Raw JSON text: `\ud800` is the escape a client sends; JSON.stringify writes the same for a lone surrogate.
    const cases: [string, string, string, string][] = [
      ['PUT', `/task/title/${task.id}`, '{"title":"x\\ud800"}', 'a lone surrogate in title'],
      ['PUT', `/task/description/${task.id}`, '{"description":"\\udc00 low alone"}', 'a lone surrogate in description'],
      ['PUT', `/task/${task.id}`, '{"title":"ok","description":"reversed \\udc00\\ud800 pair"}', 'a lone surrogate in description'],
      ['POST', `/task/${project.id}`, '{"title":"x\\ud800"}', 'a lone surrogate in title'],
      ['POST', `/task/${project.id}`, '{"title":"x","\\ud800":1}', 'a lone surrogate in a key of the body'],
      [
        'POST',
        '/auth/organization/create-role',
        `{"role":"r1","permission":{"task":["read"]},"organizationId":"${workspaceId}","additionalFields":{"a":"\\ud800"}}`,
        'a lone surrogate in additionalFields.a',
      ],
      [
        'POST',
        '/auth/organization/create-role',
        `{"role":"r2","permission":{"task":["read"]},"organizationId":"${workspaceId}","additionalFields":{"a":{"b":[1,{"\\udbff":2}]}}}`,
        'a lone surrogate in a key of additionalFields.a.b.1',
      ],
      ['POST', `/task/import/${project.id}`, '{"tasks":[{"title":"t","status":"to-do","labels":[{"name":"\\ud83d","color":"red"}]}]}', 'a lone surrogate in tasks.0.labels.0.name'],
      ['POST', `/comment/${task.id}`, '{"content":"\\ud800"}', 'a lone surrogate in content'],
      // Before authentication too: the sign-in route answers the same.
      ['POST', '/auth/sign-in/email', '{"email":"x\\ud800@example.test","password":"whatever-123"}', 'a lone surrogate in email'],
    ];
    for (const [method, path, raw, where] of cases) {
      const res = await t.api.request(method, path, undefined, { token: tok, raw });
      expect([method, path, raw, res.status, res.body]).toEqual([method, path, raw, 400, refused(where)]);
    }
    expect(await snapshots.take()).toEqual(before);

    // A well-formed pair (an astral character, sent escaped or as UTF-8) is text like any other, stored as sent.
    const pair = await t.api.request('PUT', `/task/title/${task.id}`, undefined, { token: tok, raw: '{"title":"x\\ud83d\\ude00 😀"}' });
    expect([pair.status, pair.body.title]).toEqual([200, 'x😀 😀']);
  } finally {
    await snapshots.close();
  }
});

it('percent-encoded bytes that are not UTF-8 in a query or a path are 400 {message}, and nothing is written', async () => {
  const { owner, workspaceId } = await ownerWithWorkspace(t);
  const project = await createProject(t, owner.token, workspaceId);
  const tok = owner.token;
  const snapshots = await databaseSnapshots(t.databaseUrl);
  try {
    await outboxDrained(t.databaseUrl);
    const before = await snapshots.take();
    const cases: [string, string, string][] = [
      // A lone surrogate as UTF-8 would write it (WTF-8/CESU-8): not UTF-8.
      ['GET', `/search?q=%ED%A0%80&workspaceId=${workspaceId}`, 'bytes that are not UTF-8 in query parameter q'],
      ['GET', `/task/tasks/${project.id}?q=a%FFb`, 'bytes that are not UTF-8 in query parameter q'],
      ['GET', `/task/tasks/${project.id}?limit=10&q=%C3`, 'bytes that are not UTF-8 in query parameter q'],
      ['GET', `/task/tasks/${project.id}?q%FF=1`, 'bytes that are not UTF-8 in a query parameter name'],
      ['GET', '/task/%ED%A0%80', 'bytes that are not UTF-8 in the path'],
      ['PUT', '/task/title/%FF', 'bytes that are not UTF-8 in the path'],
      ['POST', `/task/${project.id}?x=%80`, 'bytes that are not UTF-8 in query parameter x'],
    ];
    for (const [method, path, where] of cases) {
      const res = await t.api.request(method, path, method === 'GET' ? undefined : { title: 't' }, { token: tok });
      expect([method, path, res.status, res.body]).toEqual([method, path, 400, refused(where)]);
    }
    expect(await snapshots.take()).toEqual(before);

    // Well-formed percent-encoding and a lone `%` (not an escape: taken literally) still pass.
    for (const q of ['%C3%A9t%C3%A9', encodeURIComponent('😀'), '100%', '%zz']) {
      const res = await t.api.get(`/task/tasks/${project.id}?q=${q}`, tok);
      expect([q, res.status]).toEqual([q, 200]);
    }
  } finally {
    await snapshots.close();
  }
});

it('a signed git-host webhook holding a lone surrogate is refused with 400 {error}, never a 500', async () => {
  const body = '{"action":"opened","issue":{"number":1,"title":"x\\ud800"},"repository":{"id":1,"full_name":"Octo/r","owner":{"login":"Octo"},"name":"r"}}';
  const hosted = await fetch(`${t.url}/hostedgit-integration/webhook`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'issues',
      'x-github-delivery': randomUUID(),
      'x-hub-signature-256': `sha256=${hmacHex(HOSTEDGIT_SECRET, body)}`,
    },
    body,
  });
  expect([hosted.status, await hosted.json()]).toEqual([400, { error: 'Text must be well-formed Unicode (a lone surrogate in issue.title)' }]);
  const self = await fetch(`${t.url}/selfgit-integration/webhook/${MISSING_ID}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-gitea-event': 'issues', 'x-gitea-delivery': randomUUID(), 'x-gitea-signature': hmacHex('any', body) },
    body,
  });
  expect([self.status, await self.json()]).toEqual([400, { error: 'Text must be well-formed Unicode (a lone surrogate in issue.title)' }]);
});

it('a body whose bytes are not UTF-8 is 400 {message}, not text with U+FFFD in it', async () => {
  const { owner, workspaceId } = await ownerWithWorkspace(t);
  const project = await createProject(t, owner.token, workspaceId);
  const snapshots = await databaseSnapshots(t.databaseUrl);
  try {
    await outboxDrained(t.databaseUrl);
    const before = await snapshots.take();
    for (const bytes of [Buffer.from([0xed, 0xa0, 0x80]), Buffer.from([0xff]), Buffer.from([0xc3])]) {
      const body = Buffer.concat([Buffer.from('{"title":"x'), bytes, Buffer.from('"}')]);
      const res = await fetch(`${t.url}/task/${project.id}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.token}` }, body });
      expect([bytes, res.status, await res.json()]).toEqual([bytes, 400, refused('bytes that are not UTF-8 in the body')]);
    }
    expect(await snapshots.take()).toEqual(before);
  } finally {
    await snapshots.close();
  }
});
