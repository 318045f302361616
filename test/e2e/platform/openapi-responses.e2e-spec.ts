import { startTestApp, TestApp } from '../../support/app';
import { insertDelivery } from '../../support/integrations';
import { until } from '../../support/until';
import { createProject, userWithRole } from '../../support/work-items';

/**
 * Every success answer in the served OpenAPI document has a schema, and the real answers of the
 * main routes match theirs exactly (docs/decisions-local.md, "Exact enough to generate a client"):
 * a web client typed from the document alone reads the fields the routes really answer.
 */

type Json = Record<string, any>;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/**
 * Operations whose 200 answer has no JSON schema, and why: they answer no JSON.
 * - GET /api/events: the live event stream (text/event-stream, docs/records.md is about JSON).
 * - GET /api/auth/oauth2/authorize/custom: a 302 to the OAuth provider; its 200 is never answered.
 */
const NO_JSON_ANSWER = ['GET /api/events', 'GET /api/auth/oauth2/authorize/custom', 'GET /api/asset/{id}'];

let t: TestApp;
let doc: Json;
beforeAll(async () => {
  t = await startTestApp();
  doc = (await t.api.get('/openapi.json')).body;
});
afterAll(async () => {
  await t?.close();
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

/**
 * Where `value` departs from `schema` in `d` (empty: it matches): $ref, allOf, type, nullable,
 * required, format date-time and uuid, enum, array items, object properties; a property the
 * schema does not declare is a departure too (unless additionalProperties allows it).
 */
export function mismatches(d: Json, schema: Json | undefined, value: unknown, at = '$'): string[] {
  if (!schema) return [`${at}: no schema`];
  const ref = (s: Json) => d.components.schemas[String(s.$ref).split('/').pop()!] as Json | undefined;
  if (schema.$ref) {
    const target = ref(schema);
    if (!target) return [`${at}: unresolved ${schema.$ref}`];
    return value === null && schema.nullable ? [] : mismatches(d, target, value, at);
  }
  if (value === null) return schema.nullable ? [] : [`${at}: null, not nullable`];
  if (schema.allOf) return schema.allOf.flatMap((s: Json) => mismatches(d, s, value, at));
  const out: string[] = [];
  if (schema.enum && !schema.enum.includes(value)) out.push(`${at}: ${JSON.stringify(value)} not one of ${JSON.stringify(schema.enum)}`);
  const type = schema.type ?? (schema.properties ? 'object' : undefined);
  switch (type) {
    case 'string':
      if (typeof value !== 'string') return [...out, `${at}: ${JSON.stringify(value)} is not a string`];
      if (schema.format === 'uuid' && !UUID.test(value)) out.push(`${at}: "${value}" is not a uuid`);
      if (schema.format === 'date-time' && (!DATE_TIME.test(value) || Number.isNaN(Date.parse(value)))) out.push(`${at}: "${value}" is not a date-time`);
      return out;
    case 'integer':
      return Number.isInteger(value) ? out : [...out, `${at}: ${JSON.stringify(value)} is not an integer`];
    case 'number':
      return typeof value === 'number' ? out : [...out, `${at}: ${JSON.stringify(value)} is not a number`];
    case 'boolean':
      return typeof value === 'boolean' ? out : [...out, `${at}: ${JSON.stringify(value)} is not a boolean`];
    case 'array':
      if (!Array.isArray(value)) return [...out, `${at}: ${JSON.stringify(value)} is not an array`];
      return [...out, ...value.flatMap((v, i) => mismatches(d, schema.items, v, `${at}[${i}]`))];
    case 'object': {
      if (!value || typeof value !== 'object' || Array.isArray(value)) return [...out, `${at}: ${JSON.stringify(value)} is not an object`];
      const props: Json = schema.properties ?? {};
      for (const name of schema.required ?? []) if (!(name in value)) out.push(`${at}.${name}: missing`);
      for (const [name, v] of Object.entries(value)) {
        if (props[name]) out.push(...mismatches(d, props[name], v, `${at}.${name}`));
        else if (schema.additionalProperties && typeof schema.additionalProperties === 'object') out.push(...mismatches(d, schema.additionalProperties, v, `${at}.${name}`));
        else if (schema.additionalProperties !== true) out.push(`${at}.${name}: not in the schema`);
      }
      return out;
    }
    default:
      return [...out, `${at}: the schema says no type (${JSON.stringify(schema)})`];
  }
}

/** The 200 JSON schema of an operation. */
const answerSchema = (d: Json, method: string, path: string): Json | undefined => d.paths[path]?.[method]?.responses?.['200']?.content?.['application/json']?.schema;

describe('GET /api/openapi.json: success answers', () => {
  it('every operation with a 200 answer declares its JSON schema (but the allow-list, which answers no JSON)', () => {
    const missing: string[] = [];
    let declared = 0;
    for (const [path, item] of Object.entries<Json>(doc.paths)) {
      for (const method of METHODS) {
        const ok = item[method]?.responses?.['200'];
        if (!ok) continue;
        const route = `${method.toUpperCase()} ${path}`;
        if (ok.content?.['application/json']?.schema) declared++;
        else if (!NO_JSON_ANSWER.includes(route)) missing.push(route);
      }
    }
    expect(missing).toEqual([]);
    expect(declared).toBeGreaterThan(120);
    // The allow-list holds only operations that exist and still have no JSON schema.
    for (const route of NO_JSON_ANSWER) {
      const [method, path] = route.split(' ');
      expect([route, doc.paths[path]?.[method.toLowerCase()]?.responses?.['200']?.description]).toEqual([route, expect.any(String)]);
      expect([route, answerSchema(doc, method.toLowerCase(), path)]).toEqual([route, undefined]);
    }
  });

  it('the validator finds a departure: a null where the schema says not nullable, a missing field, an extra one, a wrong format', () => {
    const task = { $ref: '#/components/schemas/Task' };
    const real = {
      id: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
      projectId: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
      position: 0,
      number: 1,
      userId: null,
      title: 'A task',
      description: null,
      status: 'todo',
      priority: 'no-priority',
      createdAt: '2026-01-15T09:00:00.000Z',
      startDate: null,
      dueDate: null,
    };
    expect(mismatches(doc, task, real)).toEqual([]);
    const strict = structuredClone(doc);
    strict.components.schemas.Task.properties.description.nullable = false;
    expect(mismatches(strict, task, real)).toEqual(['$.description: null, not nullable']);
    const { title: _title, ...untitled } = real;
    expect(mismatches(doc, task, untitled)).toEqual(['$.title: missing']);
    expect(mismatches(doc, task, { ...real, extra: 1 })).toEqual(['$.extra: not in the schema']);
    expect(mismatches(doc, task, { ...real, createdAt: 'yesterday', id: 'x', priority: 'huge' })).toEqual([
      '$.id: "x" is not a uuid',
      '$.priority: "huge" not one of ["no-priority","low","medium","high","urgent"]',
      '$.createdAt: "yesterday" is not a date-time',
    ]);
  });

  it('the real answers of the main routes match their declared schemas exactly', async () => {
    const wrong: string[] = [];
    const checked: string[] = [];
    /** Sends the request, expects 200, and checks the answer against the operation's schema. */
    const check = async (method: string, path: string, url: string, token?: string, body?: unknown): Promise<any> => {
      const res = await t.api.request(method.toUpperCase(), url, body, { token });
      const route = `${method.toUpperCase()} ${path}`;
      expect([route, res.status, res.status === 200 ? '' : res.text]).toEqual([route, 200, '']);
      const schema = answerSchema(doc, method, path);
      wrong.push(...mismatches(doc, schema, res.body).map((m) => `${route} ${m}`));
      checked.push(route);
      return res.body;
    };

    // Accounts
    const email = `schema-${Date.now()}@example.test`;
    const signedUp = await check('post', '/api/auth/sign-up/email', '/auth/sign-up/email', undefined, { name: 'Schema', email, password: 'correct horse battery' });
    const signedIn = await check('post', '/api/auth/sign-in/email', '/auth/sign-in/email', undefined, { email, password: 'correct horse battery' });
    expect(typeof signedIn.token).toBe('string');
    const token: string = signedUp.token;
    await check('get', '/api/auth/get-session', '/auth/get-session', token);
    const key = await check('post', '/api/auth/api-key/create', '/auth/api-key/create', token, { name: 'ci' });
    await check('get', '/api/auth/api-key/list', '/auth/api-key/list', token);
    // get-session with an API key: session null.
    const byKey = await t.api.get('/auth/get-session', undefined, { headers: { 'x-api-key': key.key } });
    expect([byKey.status, byKey.body.session]).toEqual([200, null]);
    wrong.push(...mismatches(doc, answerSchema(doc, 'get', '/api/auth/get-session'), byKey.body).map((m) => `GET /api/auth/get-session (API key) ${m}`));

    // Workspaces
    const ws = await check('post', '/api/auth/organization/create', '/auth/organization/create', token, { name: 'Schema workspace' });
    await check('get', '/api/auth/organization/list', '/auth/organization/list', token);
    await check('get', '/api/auth/organization/my-permissions', `/auth/organization/my-permissions?organizationId=${ws.id}`, token);

    // Work items
    const project = await check('post', '/api/project', '/project', token, { name: 'Schema project', workspaceId: ws.id, description: 'about' });
    await check('get', '/api/project', `/project?workspaceId=${ws.id}`, token);
    await check('get', '/api/project/{id}', `/project/${project.id}`, token);
    await check('get', '/api/column/{projectId}', `/column/${project.id}`, token);
    await check('post', '/api/column/{projectId}', `/column/${project.id}`, token, { name: 'Review', icon: null });
    const task = await check('post', '/api/task/{projectId}', `/task/${project.id}`, token, { title: 'Typed', dueDate: '2026-01-16T00:00:00.000Z' });
    await check('get', '/api/task/{id}', `/task/${task.id}`, token);
    await check('get', '/api/task/tasks/{projectId}', `/task/tasks/${project.id}`, token);
    await check('put', '/api/task/{id}', `/task/${task.id}`, token, { description: 'now described', priority: 'high' });
    await check('post', '/api/label', '/label', token, { name: 'bug', color: '#ff0000', workspaceId: ws.id });
    await check('get', '/api/label/workspace/{workspaceId}', `/label/workspace/${ws.id}`, token);
    await check('post', '/api/comment/{taskId}', `/comment/${task.id}`, token, { content: 'a comment' });
    await check('get', '/api/comment/{taskId}', `/comment/${task.id}`, token);
    await check('get', '/api/activity/{taskId}', `/activity/${task.id}`, token);
    const entry = { taskId: task.id, startTime: '2026-01-15T09:00:00.000Z', endTime: '2026-01-15T10:00:00.000Z', description: 'pairing' };
    await check('post', '/api/time-entry', '/time-entry', token, entry);
    await check('post', '/api/time-entry', '/time-entry', token, { taskId: task.id, startTime: '2026-01-15T11:00:00.000Z' });
    await check('get', '/api/time-entry/task/{taskId}', `/time-entry/task/${task.id}`, token);
    await check('get', '/api/search', `/search?q=Typed`, token);

    // Notifications: a member is assigned a task, which notifies them.
    const bob = await userWithRole(t, ws.id, 'member');
    await check('put', '/api/task/{id}', `/task/${task.id}`, token, { userId: bob.user.id });
    await until('the assignment notification', async () => ((await t.api.get('/notification', bob.token)).body?.length ? true : null));
    await check('get', '/api/notification', '/notification', bob.token);
    await check('get', '/api/notification/unread-count', '/notification/unread-count', bob.token);

    // An integration and its delivery log.
    const hook = '/generic-webhook-integration/project/{projectId}';
    await check('post', `/api${hook}`, `/generic-webhook-integration/project/${project.id}`, token, {
      webhookUrl: 'https://hooks.example.com/a/secret-path',
      secret: 'a-secret-of-enough-length',
    });
    await check('get', `/api${hook}`, `/generic-webhook-integration/project/${project.id}`, token);
    await insertDelivery(t, {
      workspaceId: ws.id,
      projectId: project.id,
      targetType: 'generic-webhook',
      status: 'failed',
      attempts: [{ at: '2026-01-15T09:00:00.000Z', statusCode: 500, durationMs: 12, error: 'HTTP 500' }],
    });
    const deliveries = await check('get', `/api${hook}/deliveries`, `/generic-webhook-integration/project/${project.id}/deliveries`, token);
    expect(deliveries.deliveries.length).toBeGreaterThan(0);
    // A project without an integration answers null, which its schema allows.
    const other = await createProject(t, token, ws.id);
    expect(await check('get', '/api/messenger-integration/project/{projectId}', `/messenger-integration/project/${other.id}`, token)).toBeNull();

    expect(wrong).toEqual([]);
    expect(checked.length).toBeGreaterThan(30);
  }, 60_000);
});
