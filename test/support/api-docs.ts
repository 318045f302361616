/**
 * Renders docs/api.md from the OpenAPI document the service serves, so the written contract is
 * the one the code declares: routes, access rule, inputs and answers with their messages.
 */

type Json = Record<string, any>;

const METHOD_ORDER = ['get', 'post', 'put', 'patch', 'delete'];

function typeOf(schema: Json | undefined, doc: Json): string {
  if (!schema) return 'any';
  if (schema.$ref) return String(schema.$ref).split('/').pop()!;
  if (schema.enum) return schema.enum.map((v: unknown) => `\`${v}\``).join(' \\| ');
  if (schema.type === 'array') return `${typeOf(schema.items, doc)}[]`;
  if (schema.oneOf || schema.anyOf) return (schema.oneOf ?? schema.anyOf).map((s: Json) => typeOf(s, doc)).join(' \\| ');
  if (schema.allOf?.length === 1) return `${typeOf(schema.allOf[0], doc)}${schema.nullable ? ' \\| null' : ''}`;
  return schema.format ? `${schema.type} (${schema.format})` : (schema.type ?? 'object');
}

function limits(schema: Json): string {
  const parts: string[] = [];
  if (schema.minLength !== undefined) parts.push(`min length ${schema.minLength}`);
  if (schema.maxLength !== undefined) parts.push(`max length ${schema.maxLength}`);
  if (schema.minimum !== undefined) parts.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined) parts.push(`≤ ${schema.maximum}`);
  if (schema.pattern !== undefined) parts.push(`pattern \`${schema.pattern}\``);
  if (schema.default !== undefined) parts.push(`default \`${JSON.stringify(schema.default)}\``);
  return parts.join(', ');
}

const oneLine = (s: unknown) =>
  String(s ?? '')
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\|/g, '\\|')
    .trim();

function fieldRows(schema: Json, doc: Json): string[] {
  const required = new Set<string>(schema.required ?? []);
  return Object.entries<Json>(schema.properties ?? {}).map(([name, prop]) => {
    const notes = [limits(prop), oneLine(prop.description)].filter(Boolean).join('; ');
    return `| \`${name}\` | ${typeOf(prop, doc)} | ${required.has(name) ? 'yes' : 'no'} | ${notes} |`;
  });
}

function bodySection(op: Json, doc: Json): string[] {
  const schema = op.requestBody?.content?.['application/json']?.schema;
  if (!schema) return [];
  const name = schema.$ref ? String(schema.$ref).split('/').pop()! : null;
  const resolved = name ? doc.components?.schemas?.[name] : schema;
  const rows = resolved ? fieldRows(resolved, doc) : [];
  if (!rows.length) return [`**Body:** ${typeOf(schema, doc)}`, ''];
  return [`**Body** (\`${name ?? 'object'}\`; other fields are refused):`, '', '| Field | Type | Required | Notes |', '|---|---|---|---|', ...rows, ''];
}

function parameterSection(op: Json, doc: Json): string[] {
  const params: Json[] = op.parameters ?? [];
  if (!params.length) return [];
  const rows = params.map(
    (p) => `| \`${p.name}\` | ${p.in} | ${typeOf(p.schema, doc)} | ${p.required ? 'yes' : 'no'} | ${[limits(p.schema ?? {}), oneLine(p.description)].filter(Boolean).join('; ')} |`,
  );
  return ['**Parameters:**', '', '| Name | In | Type | Required | Notes |', '|---|---|---|---|---|', ...rows, ''];
}

/** A success answer's schema by name (`Task`, `Task[]`, `Workspace | null`); the fields of each are under "Answer schemas". */
function answerSchema(response: Json, doc: Json): string {
  const schema = response.content?.['application/json']?.schema;
  return schema ? ` → \`${typeOf(schema, doc)}\`` : '';
}

function answerSection(op: Json, doc: Json): string[] {
  const statuses = Object.keys(op.responses ?? {}).sort();
  const errorKey = statuses.some((s) => op.responses[s].content?.['application/json']?.schema?.$ref === '#/components/schemas/ErrorKeyBody');
  const head = errorKey ? '**Answers** (error bodies are `{"error": string}` here):' : '**Answers:**';
  return [head, '', ...statuses.map((s) => `- ${s}: ${oneLine(op.responses[s].description) || '—'}${/^2/.test(s) ? answerSchema(op.responses[s], doc) : ''}`), ''];
}

/** The schemas success answers use, directly or nested, by name. */
function answerSchemaNames(doc: Json): string[] {
  const names = new Set<string>();
  const visit = (s: Json | undefined) => {
    if (!s || typeof s !== 'object') return;
    if (s.$ref) {
      const name = String(s.$ref).split('/').pop()!;
      if (names.has(name)) return;
      names.add(name);
      return visit(doc.components?.schemas?.[name]);
    }
    for (const p of Object.values<Json>(s.properties ?? {})) visit(p);
    visit(s.items);
    for (const k of ['allOf', 'oneOf', 'anyOf']) for (const x of s[k] ?? []) visit(x);
  };
  for (const item of Object.values<Json>(doc.paths))
    for (const op of Object.values<Json>(item))
      for (const [status, r] of Object.entries<Json>(op?.responses ?? {})) if (/^2/.test(status)) visit(r.content?.['application/json']?.schema);
  return [...names].sort();
}

/** Every answer schema's fields: a field without a value is null where it says `| null`, never missing where it is required. */
function answerSchemasSection(doc: Json): string[] {
  const out = ['## Answer schemas', '', 'The records the routes answer (docs/records.md describes them), field by field.', ''];
  for (const name of answerSchemaNames(doc)) {
    const schema = doc.components.schemas[name];
    const required = new Set<string>(schema.required ?? []);
    const rows = Object.entries<Json>(schema.properties ?? {}).map(([field, prop]) => {
      const type = `${typeOf(prop, doc)}${prop.nullable && !prop.allOf ? ' \\| null' : ''}`;
      return `| \`${field}\` | ${type} | ${required.has(field) ? 'yes' : 'no'} | ${oneLine(prop.description)} |`;
    });
    out.push(`### \`${name}\``, '', ...(rows.length ? ['| Field | Type | Required | Notes |', '|---|---|---|---|', ...rows] : ['No fields.']), '');
  }
  return out;
}

export function renderApiDocs(doc: Json): string {
  const byTag = new Map<string, Array<{ method: string; path: string; op: Json }>>();
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    for (const method of METHOD_ORDER) {
      const op = item[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? 'other';
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)!.push({ method, path, op });
    }
  }
  const out: string[] = [
    '# API reference',
    '',
    '<!-- Generated by `npm run docs:api` from the OpenAPI document; test/e2e/platform/api-docs.e2e-spec.ts fails when it is out of date. -->',
    '',
    'Every route of the service, grouped by module, as the running service describes itself (`GET /api/openapi.json`, `/api/docs`).',
    'JSON in and out; every success is HTTP 200; every error body is `{"message": string}`, except on the three routes that say `{"error": string}` (the hostedgit PATCH and the inbound git-host webhooks). Authentication: `Authorization: Bearer <token or API key>` or `x-api-key: <key>`.',
    'The rules behind the answers (permissions, API-key scopes, limits, formats) are in [decisions-local.md](decisions-local.md).',
    '',
  ];
  for (const tag of [...byTag.keys()].sort()) {
    out.push(`## ${tag}`, '');
    const ops = byTag.get(tag)!.sort((a, b) => a.path.localeCompare(b.path) || METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method));
    for (const { method, path, op } of ops) {
      out.push(`### \`${method.toUpperCase()} ${path}\``, '');
      if (op.summary) out.push(oneLine(op.summary), '');
      if (op['x-access']) out.push(`**Access:** ${oneLine(op['x-access'])}`, '');
      out.push(...parameterSection(op, doc), ...bodySection(op, doc), ...answerSection(op, doc));
    }
  }
  out.push(...answerSchemasSection(doc));
  return (
    out
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trimEnd() + '\n'
  );
}
