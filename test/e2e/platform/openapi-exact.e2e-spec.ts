import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { startTestApp, TestApp } from '../../support/app';
import { createProject, createTask, MISSING_ID, ownerWithWorkspace } from '../../support/work-items';

/**
 * The served OpenAPI document is exact enough to generate a client from (docs/decisions-local.md,
 * "Errors in the OpenAPI document"): nullable fields are their real type and nullable, the
 * examples Swagger UI builds from the schemas are accepted in shape, every error response has its
 * own examples, and every protected route declares its security.
 */

type Json = Record<string, any>;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const OPENAPI_TS = join(__dirname, '../../../node_modules/.bin/openapi-typescript');

let t: TestApp;
let doc: Json;
let dir: string;
beforeAll(async () => {
  t = await startTestApp({ APP_ROLES: 'api' });
  doc = (await t.api.get('/openapi.json')).body;
  dir = mkdtempSync(join(tmpdir(), 'openapi-exact-'));
});
afterAll(async () => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  await t?.close();
});

function operations(d: Json): Array<{ method: string; path: string; op: Json }> {
  const out: Array<{ method: string; path: string; op: Json }> = [];
  for (const [path, item] of Object.entries<Json>(d.paths)) for (const method of METHODS) if (item[method]) out.push({ method, path, op: item[method] });
  return out;
}

const resolve = (schema: Json | undefined): Json | undefined => (schema?.$ref ? doc.components.schemas[String(schema.$ref).split('/').pop()!] : schema);

/** Every schema, property and item typed `object` that says nothing about its contents, by where it is. */
function bareObjects(d: Json): string[] {
  const out: string[] = [];
  const visit = (s: Json | undefined, where: string) => {
    if (!s || typeof s !== 'object') return;
    if (s.type === 'object' && !s.properties && !s.$ref && s.additionalProperties === undefined) out.push(where);
    for (const [name, p] of Object.entries<Json>(s.properties ?? {})) visit(p, `${where}.${name}`);
    if (s.items) visit(s.items, `${where}[]`);
    if (s.additionalProperties && typeof s.additionalProperties === 'object') visit(s.additionalProperties, `${where}{}`);
    for (const k of ['oneOf', 'anyOf', 'allOf']) (s[k] ?? []).forEach((x: Json, i: number) => visit(x, `${where}.${k}[${i}]`));
  };
  for (const [name, s] of Object.entries<Json>(d.components?.schemas ?? {})) visit(s, name);
  for (const { method, path, op } of operations(d)) {
    visit(op.requestBody?.content?.['application/json']?.schema, `${method.toUpperCase()} ${path} body`);
    for (const p of op.parameters ?? []) visit(p.schema, `${method.toUpperCase()} ${path} ${p.name}`);
  }
  return out;
}

/** TypeScript's diagnostics for `client` compiled (strict) against the types openapi-typescript generates from `d`. */
async function typeCheck(d: Json, client: string, name: string): Promise<string[]> {
  const sub = mkdtempSync(join(dir, `${name}-`));
  // openapi-typescript's CLI: its Node API imports ES-only modules that Jest's module system does not load.
  writeFileSync(join(sub, 'openapi.json'), JSON.stringify(d));
  await promisify(execFile)(OPENAPI_TS, [join(sub, 'openapi.json'), '-o', join(sub, 'schema.ts')]);
  writeFileSync(join(sub, 'client.ts'), client);
  const program = ts.createProgram([join(sub, 'client.ts')], {
    strict: true,
    noEmit: true,
    exactOptionalPropertyTypes: false,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    types: [],
    skipLibCheck: true,
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((diag) => `${diag.file ? `${diag.file.fileName.split('/').pop()}: ` : ''}${ts.flattenDiagnosticMessageText(diag.messageText, '\n')}`);
}

/** A client of a few real routes, written as the web app would: nullable fields as `string | null`. */
const CLIENT = `
import type { components, paths } from './schema';

type Body<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
type ErrorOf<P extends keyof paths, M extends keyof paths[P], S extends number> = paths[P][M] extends { responses: { [K in S]: { content: { 'application/json': infer B } } } } ? B : never;

const cleared: Body<'/api/task/{projectId}', 'post'> = { title: 'Write the spec', description: null, startDate: null, dueDate: null, userId: null };
const dated: Body<'/api/task/{projectId}', 'post'> = { title: 'Ship it', description: 'text', startDate: '2026-01-15T09:00:00.000Z', dueDate: '2026-01-16' };
const update: Body<'/api/task/{id}', 'put'> = { description: 'new text', userId: '3fa85f64-5717-4562-b3fc-2c963f66afa6', dueDate: null };
const description: string | null | undefined = dated.description;
const due: string | null | undefined = update.dueDate;

const column: components['schemas']['CreateColumnDto'] = { name: 'Ready for QA', icon: null, color: '#22c55e' };
const recolored: Body<'/api/column/{id}', 'put'> = { icon: 'check', color: null };
const icon: string | null | undefined = column.icon;

const project: components['schemas']['CreateProjectDto'] = { ...({} as components['schemas']['CreateProjectDto']), icon: 'rocket', description: null };
const entry: Body<'/api/time-entry', 'post'> = { ...({} as Body<'/api/time-entry', 'post'>), endTime: null, description: 'pairing' };

const notFound: ErrorOf<'/api/task/{id}', 'put', 404> = { message: 'Task not found' };
const message: string = notFound.message;

// Success answers: without a 200 JSON schema the answer is a string literal, whose fields do not exist.
type Ok<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : 'no 200 JSON schema';
declare const task: Ok<'/api/task/{id}', 'get'>;
const title: string = task.title;
const taskDescription: string | null = task.description;
const priority: 'no-priority' | 'low' | 'medium' | 'high' | 'urgent' = task.priority;
declare const page: Ok<'/api/task/tasks/{projectId}', 'get'>;
const firstDue: string | null = page.data[0].dueDate;
const total: number = page.pagination.total;
declare const projects: Ok<'/api/project', 'get'>;
const projectId: string = projects[0].id;
const archivedAt: string | null = projects[0].archivedAt;
declare const session: Ok<'/api/auth/get-session', 'get'>;
const sessionId: string | undefined = session?.session?.id;
const email: string | undefined = session?.user.email;
declare const signIn: Ok<'/api/auth/sign-in/email', 'post'>;
const bearer: string | null = signIn.token;
declare const notifications: Ok<'/api/notification', 'get'>;
const actor: string | undefined = notifications[0].actor?.name;
declare const deliveries: Ok<'/api/generic-webhook-integration/project/{projectId}', 'get'>;
const maskedSecret: string | null | undefined = deliveries?.maskedSecret;
declare const log: Ok<'/api/generic-webhook-integration/project/{projectId}/deliveries', 'get'>;
const statusCode: number | null = log.deliveries[0].attempts[0].statusCode;
const created: components['schemas']['Task']['createdAt'] = task.createdAt;

export const used = [cleared, dated, update, description, due, column, recolored, icon, project, entry, message];
export const answers = [title, taskDescription, priority, firstDue, total, projectId, archivedAt, sessionId, email, bearer, actor, maskedSecret, statusCode, created];
`;

describe('GET /api/openapi.json: types generated from it', () => {
  it('has no property typed a bare object: nullable fields are their own type, free-form objects say additionalProperties', () => {
    expect(bareObjects(doc)).toEqual([]);
    const task = resolve({ $ref: '#/components/schemas/CreateTaskDto' })!.properties;
    expect(task.description).toMatchObject({ type: 'string', nullable: true });
    expect(task.startDate).toMatchObject({ type: 'string', format: 'date-time', nullable: true });
    expect(resolve({ $ref: '#/components/schemas/CreateColumnDto' })!.properties.icon).toMatchObject({ type: 'string', nullable: true });
  });

  it('type-checks a client of real routes (strict TypeScript, no diagnostics)', async () => {
    expect(await typeCheck(doc, CLIENT, 'served')).toEqual([]);
  }, 60_000);

  it('the same client fails against a document where a success answer has no schema, or a nullable field is not nullable', async () => {
    const broken = structuredClone(doc);
    delete broken.paths['/api/task/{id}'].get.responses['200'].content;
    broken.components.schemas.Project.properties.archivedAt.nullable = false;
    const diagnostics = (await typeCheck(broken, CLIENT, 'no-answer')).join('\n');
    expect(diagnostics).toMatch(/Property 'title' does not exist on type '"no 200 JSON schema"'/);
    expect(diagnostics).toMatch(/Property 'description' does not exist on type '"no 200 JSON schema"'/);
    expect(diagnostics).not.toMatch(/archivedAt/); // string is assignable to string | null: the type check reads, the validator (openapi-responses) checks nullability
  }, 60_000);

  it('the same client fails against a document where a nullable field is a bare object (the check can fail)', async () => {
    const broken = structuredClone(doc);
    broken.components.schemas.CreateTaskDto.properties.description = { type: 'object', nullable: true };
    const diagnostics = await typeCheck(broken, CLIENT, 'broken');
    expect(diagnostics.join('\n')).toMatch(/Type 'string' is not assignable to type 'Record<string, never>'/);
  }, 60_000);
});

describe('GET /api/openapi.json: security and error examples', () => {
  it('every route that is not public declares bearer security (and the API key where keys are accepted); public routes none', () => {
    const wrong: string[] = [];
    for (const { method, path, op } of operations(doc)) {
      const access: string = op['x-access'];
      const schemes = (op.security ?? []).flatMap((r: Json) => Object.keys(r)).sort();
      const expected = access.startsWith('Public') ? [] : access.includes('API keys are refused') ? ['bearer', 'session-cookie'] : ['api-key', 'bearer', 'session-cookie'];
      if (JSON.stringify(schemes) !== JSON.stringify(expected)) wrong.push(`${method.toUpperCase()} ${path}: ${JSON.stringify(schemes)}`);
    }
    expect(wrong).toEqual([]);
    expect(doc.paths['/api/admin/queues/session'].post.security).toEqual([{ bearer: [] }, { 'session-cookie': [] }]);
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['api-key', 'bearer', 'session-cookie']);
    expect(doc.components.securitySchemes['session-cookie']).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'tandem_session' });
  });

  it("every error response's examples are messages that status documents for the route, in the route's body key", () => {
    const wrong: string[] = [];
    let responses = 0;
    for (const { method, path, op } of operations(doc)) {
      for (const [status, r] of Object.entries<Json>(op.responses)) {
        if (!/^[45]/.test(status)) continue;
        responses++;
        const media = r.content?.['application/json'];
        const key = media?.schema?.$ref === '#/components/schemas/ErrorKeyBody' ? 'error' : 'message';
        const bodies: Json[] = media?.example !== undefined ? [media.example] : Object.values<Json>(media?.examples ?? {}).map((e) => e.value);
        const where = `${method.toUpperCase()} ${path} ${status}`;
        if (!bodies.length) wrong.push(`${where}: no example`);
        for (const body of bodies) {
          const message = body?.[key];
          if (Object.keys(body ?? {}).join() !== key || typeof message !== 'string') wrong.push(`${where}: ${JSON.stringify(body)} is not {${key}: string}`);
          else if (!String(r.description).includes(`\`${message}\``)) wrong.push(`${where}: "${message}" is not documented (${r.description})`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(responses).toBeGreaterThan(500);
    const put = doc.paths['/api/task/{id}'].put.responses;
    const messages = (status: string) => {
      const media = put[status].content['application/json'];
      return media.example ? [media.example.message] : Object.values<Json>(media.examples).map((e) => e.value.message);
    };
    expect(messages('401')).toEqual(['Unauthorized']);
    expect(messages('429')).toEqual(['Too many requests']);
    expect(messages('500')).toEqual(['Internal server error']);
    expect(messages('404')).toEqual(['Task not found']);
    expect(messages('403')).toContain('Insufficient permissions: task:update is needed');
    expect(messages('400')).toContain('title must be a string');
    const hostedgit = doc.paths['/api/hostedgit-integration/webhook'].post.responses['500'].content['application/json'];
    expect(hostedgit.example).toEqual({ error: 'Internal server error' });
  });
});

/** The example of a schema as Swagger UI builds it: every property, its `example`, else one of its type. */
function exampleOf(schema: Json | undefined, nulls: boolean, depth = 0): unknown {
  const s = resolve(schema);
  if (!s || depth > 5) return undefined;
  if (s.example !== undefined) return s.example;
  if (nulls && s.nullable) return null;
  if (s.enum) return s.enum[0];
  if (s.oneOf || s.anyOf) return exampleOf((s.oneOf ?? s.anyOf)[0], nulls, depth + 1);
  if (s.default !== undefined) return s.default;
  switch (s.type) {
    case 'string': {
      if (s.format === 'date-time') return '2026-01-15T09:00:00.000Z';
      if (s.format === 'date') return '2026-01-15';
      if (s.format === 'uuid') return '3fa85f64-5717-4562-b3fc-2c963f66afa6';
      if (s.format === 'email') return 'user@example.com';
      const text = 'string';
      return s.minLength > text.length ? text.padEnd(s.minLength, 'x') : s.maxLength < text.length ? text.slice(0, s.maxLength) : text;
    }
    case 'integer':
    case 'number':
      return s.minimum ?? 0;
    case 'boolean':
      return true;
    case 'array': {
      const item = exampleOf(s.items, nulls, depth + 1);
      return s.minItems > 1 ? Array.from({ length: s.minItems }, () => item) : [item];
    }
    default:
      if (s.additionalProperties === true) return { additionalProp1: {} };
      return Object.fromEntries(Object.entries<Json>(s.properties ?? {}).map(([name, p]) => [name, exampleOf(p, nulls, depth + 1)]));
  }
}

/** A refusal of the example's shape: a type or a property the DTO does not declare (class-validator's messages). */
const SHAPE_REFUSAL =
  /must be (a string|an object|a number|an integer number|a boolean value|an array|a valid ISO 8601 date string|a UUID|one of the following values)|should not exist|must be either object or array|nested property .* must be/;

/** Routes where whether a nullable field may be null depends on another field of the body. */
const NULL_DEPENDS_ON: Record<string, string> = { 'PATCH /api/task/bulk': 'value is null only for updateAssignee and updateDueDate' };

describe('the example of every request body', () => {
  // A signed-in owner of a fresh workspace, with one resource of each kind the paths name.
  let token: string;
  let task: Json;
  const ids: Record<string, string> = {};
  const bodyIds: Record<string, string> = {};
  // Routes that end the session, the account or the workspace are sent last, without real ids, so they cannot spoil the others.
  const last = (path: string) => /delete-user|organization\/delete|revoke-session|sign-out|remove-member|api-key\/delete/.test(path);
  let ops: Array<{ method: string; path: string; op: Json }>;
  beforeAll(async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    token = owner.token;
    const project = await createProject(t, token, workspaceId);
    task = await createTask(t, token, project.id);
    const column = (await t.api.post(`/column/${project.id}`, { name: 'Review' }, token)).body;
    const label = (await t.api.post('/label', { name: 'bug', color: '#ff0000', workspaceId }, token)).body;
    const comment = (await t.api.post(`/comment/${task.id}`, { content: 'hello' }, token)).body;
    const entry = (await t.api.post('/time-entry', { taskId: task.id, startTime: '2026-01-15T09:00:00.000Z', endTime: '2026-01-15T10:00:00.000Z' }, token)).body;
    Object.assign(ids, { project: project.id, column: column?.id, task: task.id, label: label?.id, comment: comment?.id, 'time-entry': entry?.id });
    for (const [name, id] of Object.entries(ids)) expect([name, typeof id]).toEqual([name, 'string']);
    Object.assign(bodyIds, { workspaceId, organizationId: workspaceId, projectId: project.id, taskId: task.id, activityId: comment.id });
    ops = operations(doc).filter(({ op }) => op.requestBody?.content?.['application/json']?.schema);
    ops.sort((a, b) => Number(last(a.path)) - Number(last(b.path)));
  });

  /** Ids in the body (workspace, project, task, comment) as real resources. */
  const withIds = (body: unknown) =>
    body && typeof body === 'object' && !Array.isArray(body)
      ? Object.fromEntries(Object.entries(body).map(([k, v]) => [k, typeof v === 'string' && bodyIds[k] ? bodyIds[k] : v]))
      : body;
  /** The path's ids and the query's (the workspace) as real resources; an id of another kind is a missing one (404 is fine). */
  const urlOf = (path: string, op: Json) => {
    const query = (op.parameters ?? []).filter((p: Json) => p.in === 'query' && bodyIds[p.name]).map((p: Json) => `${p.name}=${bodyIds[p.name]}`);
    const idFor = (param: string) => bodyIds[param] ?? ((param === 'id' && ids[path.split('/')[2]]) || MISSING_ID);
    return path.replace(/^\/api/, '').replace(/\{(\w+)\}/g, (_m, param: string) => idFor(param)) + (query.length ? `?${query.join('&')}` : '');
  };
  const send = (method: string, path: string, op: Json, body: unknown) => t.api.request(method.toUpperCase(), urlOf(path, op), body, { token });

  it('is accepted in shape by its route (with nullable fields as examples, and as null)', async () => {
    const refused: string[] = [];
    const sent: string[] = [];
    for (const nulls of [false, true]) {
      for (const { method, path, op } of ops) {
        const example = exampleOf(op.requestBody.content['application/json'].schema, nulls);
        const body = last(path) ? example : withIds(example);
        const res = await send(method, path, op, body);
        const route = `${method.toUpperCase()} ${path}`;
        sent.push(route);
        const message = String(res.body?.message ?? res.body?.error ?? '');
        // With nulls: a field documented nullable that the route refuses as null.
        const nulled = nulls && body && typeof body === 'object' ? Object.keys(body).filter((k) => (body as Json)[k] === null) : [];
        const refusesNull = nulled.some((k) => message.startsWith(`${k} `)) && !NULL_DEPENDS_ON[route];
        if (res.status === 400 && (SHAPE_REFUSAL.test(message) || refusesNull)) refused.push(`${route}${nulls ? ' (nulls)' : ''} ${JSON.stringify(body)}: ${message}`);
        expect([route, res.status, res.body]).not.toEqual([route, 500, expect.anything()]);
      }
    }
    expect(refused).toEqual([]);
    expect(sent).toEqual(
      expect.arrayContaining([
        'POST /api/task/{projectId}',
        'PUT /api/task/{id}',
        'POST /api/column/{projectId}',
        'PUT /api/column/{id}',
        'POST /api/project',
        'POST /api/label',
        'POST /api/comment/{taskId}',
        'POST /api/time-entry',
        'PUT /api/notification-preferences',
        'PATCH /api/generic-webhook-integration/project/{projectId}',
      ]),
    );
  });

  it('with one field of the wrong type, is answered 400 with the validation message its 400 documents', async () => {
    // (The test above may have deleted the comment: a fresh one.)
    ids.comment = bodyIds.activityId = (await t.api.post(`/comment/${task.id}`, { content: 'again' }, token)).body.id;
    const wrongValue = (message: string): unknown =>
      / must be (a string|a valid ISO 8601 date string|a UUID|a valid email address|one of the following values)/.test(message)
        ? 12345
        : / must be an array/.test(message)
          ? 'x'
          : 'not-a-number';
    const unlike: string[] = [];
    let checked = 0;
    for (const { method, path, op } of ops) {
      if (last(path)) continue;
      const badInput = op.responses['400'];
      const media = badInput?.content?.['application/json'];
      const examples: string[] = media?.example
        ? [media.example.message ?? media.example.error]
        : Object.values<Json>(media?.examples ?? {}).map((e) => e.value.message ?? e.value.error);
      const validation = examples.find((m) => String(badInput.description).includes(`e.g. \`${m}\``));
      if (!validation) continue;
      const field = validation.split(' ')[0];
      const body = { ...(withIds(exampleOf(op.requestBody.content['application/json'].schema, false)) as Json), [field]: wrongValue(validation) };
      const res = await send(method, path, op, body);
      checked++;
      const answered = String(res.body?.message ?? res.body?.error ?? '');
      // The pipeline joins every failed constraint's message with ", ".
      if (res.status !== 400 || !`, ${answered}, `.includes(`, ${validation}, `))
        unlike.push(`${method.toUpperCase()} ${path}: documented "${validation}", answered ${res.status} "${answered}"`);
    }
    expect(unlike).toEqual([]);
    expect(checked).toBeGreaterThan(30);
  });
});
