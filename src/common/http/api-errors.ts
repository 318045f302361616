import { applyDecorators } from '@nestjs/common';
import { ApiExtension, ApiExtraModels, ApiProperty, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import type { OpenAPIObject } from '@nestjs/swagger';
import { EmptyAnswer } from './answers.schema';

/** Every error body (docs/decisions-local.md, "Errors and conventions"). */
export class ErrorBody {
  @ApiProperty({ example: 'Team not found' })
  message: string;
}

/** The error body of the few routes that answer `{error}` (@ErrorBodyKey('error')). */
export class ErrorKeyBody {
  @ApiProperty({ example: 'Integration not found' })
  error: string;
}

/** A status and the messages a route answers with it. */
export type ErrorCase = [status: number, ...messages: string[]];

/**
 * The examples of an error response's content: `example` for one message, OpenAPI 3.0 `examples`
 * (one per message, named by it) for several, each a body `{[key]: message}`.
 */
export function errorExamples(
  messages: string[],
  key: 'message' | 'error' = 'message',
): { example: Record<string, string> } | { examples: Record<string, { summary: string; value: Record<string, string> }> } {
  if (messages.length === 1) return { example: { [key]: messages[0] } };
  return { examples: Object.fromEntries(messages.map((m) => [m, { summary: m, value: { [key]: m } }])) };
}

/** The messages of an error response's examples (errorExamples), in order; [] when it has none. */
export function exampleMessages(response: { content?: Record<string, any> }): string[] {
  const media = response.content?.['application/json'];
  if (!media) return [];
  const bodies: unknown[] = media.example !== undefined ? [media.example] : Object.values<any>(media.examples ?? {}).map((e) => e?.value);
  return bodies.map((b) => (b && typeof b === 'object' ? ((b as any).message ?? (b as any).error) : undefined)).filter((m): m is string => typeof m === 'string');
}

/**
 * Documents a route's error answers in the OpenAPI document: each status with its messages, the
 * `{message}` schema and one example per message. 401 and 429 need not be listed: every route
 * behind authentication gets them (see documentCommonErrors).
 */
export function ApiErrors(...cases: ErrorCase[]) {
  return applyDecorators(
    ...cases.map(([status, ...messages]) => ApiResponse({ status, type: ErrorBody, description: messages.map((m) => `\`${m}\``).join(' · '), ...errorExamples(messages) })),
  );
}

/** Marks a route as answering without credentials in the OpenAPI document (used by @Public). */
export const ApiPublic = () => ApiExtension('x-public', true);

const UNAUTHORIZED = { description: '`Unauthorized`: missing, invalid, expired or revoked credentials', messages: ['Unauthorized'] };
const RATE_LIMITED = { description: '`Too many requests`: over the rate limit; see the Retry-After header', messages: ['Too many requests'] };
const SERVER_ERROR = { description: '`Internal server error`: the cause is logged with the request id, never returned', messages: ['Internal server error'] };
const INSUFFICIENT = 'Insufficient permissions';
const INVALID_JSON = 'Invalid JSON body';

/** class-validator's message for a value of the wrong type, by the property's schema. */
function typeMessage(name: string, schema: any): string | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  if (Array.isArray(schema.enum)) return `${name} must be one of the following values: ${schema.enum.join(', ')}`;
  switch (schema.type) {
    case 'string':
      // A pattern has its own message (e.g. `Enter a valid bot token`): no example from the type.
      if (schema.pattern !== undefined) return undefined;
      if (schema.format === 'date-time') return `${name} must be a valid ISO 8601 date string`;
      if (schema.format === 'uuid') return `${name} must be a UUID`;
      if (schema.format === 'email') return `${name} must be a valid email address`;
      return `${name} must be a string`;
    case 'integer':
      return `${name} must be an integer number`;
    case 'number':
      return `${name} must be a number conforming to the specified constraints`;
    case 'boolean':
      return `${name} must be a boolean value`;
    case 'array':
      return `${name} must be an array`;
    default:
      return undefined;
  }
}

/**
 * A validation message the operation can answer with 400: the type message of the first field of
 * its body (required fields first), else of its first query parameter; undefined for neither.
 */
function validationExample(op: any, doc: OpenAPIObject): string | undefined {
  let schema = op.requestBody?.content?.['application/json']?.schema;
  if (schema?.$ref) schema = (doc.components?.schemas as Record<string, any> | undefined)?.[String(schema.$ref).split('/').pop()!];
  const props = Object.entries<any>(schema?.properties ?? {});
  const required = new Set<string>(schema?.required ?? []);
  for (const [name, prop] of [...props.filter(([n]) => required.has(n)), ...props.filter(([n]) => !required.has(n))]) {
    const message = typeMessage(name, prop);
    if (message) return message;
  }
  for (const p of op.parameters ?? []) {
    const message = p.in === 'query' ? typeMessage(p.name, p.schema) : undefined;
    if (message) return message;
  }
  return undefined;
}

/**
 * Adds the errors every route shares: 401 and 429 to routes behind authentication, 400 to routes
 * that take input, 500 to all, each with the `{message}` schema (`{error}` for the routes marked
 * x-error-key), and to routes that need a permission (the x-permission marker of @RequirePermission) the
 * 403 the permission guard answers, with the message naming the permission (a bare
 * `Insufficient permissions` listed in @ApiErrors becomes that message); drops the x-public,
 * x-error-key and x-permission markers afterwards. The organization operations so document six error answers each, as the spec says.
 * Every error response gets its own examples, one per message it documents (`Unauthorized`,
 * `Too many requests`, `Internal server error`, a validation message, the route's own), in the
 * body of the route (`{error}` where x-error-key says so).
 */
export function documentCommonErrors(doc: OpenAPIObject): OpenAPIObject {
  // The ErrorBody and ErrorKeyBody schemas come from the classes (extraModels in bootstrap).
  const schema = { $ref: '#/components/schemas/ErrorBody' };
  const errorKeySchema = { $ref: '#/components/schemas/ErrorKeyBody' };
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item) as any[]) {
      if (!op || typeof op !== 'object' || !op.responses) continue;
      // Routes answering {error}: every error response (documented here or below) has that schema.
      const errorKey = op['x-error-key'] === 'error' ? 'error' : 'message';
      delete op['x-error-key'];
      const add = (responses: Record<string, any>, status: string, base: { description: string; messages: string[] }) => {
        responses[status] ??= { description: base.description, content: { 'application/json': { schema, ...errorExamples(base.messages) } } };
      };
      // Nest documents a default success only for routes without explicit responses; ApiErrors
      // would otherwise hide it. Every success here is 200.
      if (!Object.keys(op.responses).some((status) => /^[23]/.test(status))) op.responses['200'] = { description: 'Success' };
      const permission: unknown = op['x-permission'];
      delete op['x-permission'];
      if (typeof permission === 'string') {
        const full = `Insufficient permissions: ${permission} is needed`;
        const message = `\`${full}\``;
        const forbidden = op.responses['403'];
        if (!forbidden) add(op.responses, '403', { description: `${message}: a member whose roles lack the permission`, messages: [full] });
        else {
          const listed = exampleMessages(forbidden);
          const messages = listed.includes(INSUFFICIENT) ? listed.map((m) => (m === INSUFFICIENT ? full : m)) : [full, ...listed];
          if (forbidden.description?.includes(`\`${INSUFFICIENT}\``)) forbidden.description = forbidden.description.split(`\`${INSUFFICIENT}\``).join(message);
          else forbidden.description = `${message} · ${forbidden.description ?? ''}`;
          forbidden.content = { 'application/json': { schema, ...errorExamples(messages) } };
        }
      }
      const isPublic = op['x-public'] === true;
      delete op['x-public'];
      if (!isPublic) {
        add(op.responses, '401', UNAUTHORIZED);
        add(op.responses, '429', RATE_LIMITED);
      }
      add(op.responses, '500', SERVER_ERROR);
      if (op.requestBody || (op.parameters ?? []).some((p: any) => p.in === 'query' || p.in === 'path')) {
        const validation = validationExample(op, doc);
        const badInput = op.responses['400'];
        if (!badInput) {
          add(op.responses, '400', {
            description: `Validation failed: the message names the field${validation ? `, e.g. \`${validation}\`` : ''}; \`${INVALID_JSON}\``,
            messages: validation ? [validation, INVALID_JSON] : [INVALID_JSON],
          });
        } else if (validation && !exampleMessages(badInput).includes(validation)) {
          // The route's own 400 messages, and the validation every input gets.
          badInput.description = `${badInput.description ?? ''} · validation failed, e.g. \`${validation}\``;
          badInput.content = { 'application/json': { schema, ...errorExamples([...exampleMessages(badInput), validation]) } };
        }
      }
      // Every error response: the route's body schema, and examples in it.
      for (const [status, r] of Object.entries<any>(op.responses)) {
        if (!/^[45]/.test(status) || !r.content) continue;
        const messages = exampleMessages(r);
        r.content = { 'application/json': { schema: errorKey === 'error' ? errorKeySchema : schema, ...(messages.length ? errorExamples(messages, errorKey) : {}) } };
      }
    }
  }
  return doc;
}

/**
 * Documents a route's success answer: the record it returns, by its name in docs/records.md, and
 * its schema: a class with @ApiProperty, `[Class]` for an array of them; `{nullable: true}` when
 * the route can also answer `null` (e.g. a project without that integration).
 */
export function ApiAnswer(record: string, type?: Function | [Function], opts: { nullable?: boolean } = {}) {
  const description = `${record} (docs/records.md)`;
  if (!type) return ApiResponse({ status: 200, description });
  if (type === EmptyAnswer) return ApiResponse({ status: 200, description, schema: { type: 'object', properties: {}, additionalProperties: false } });
  const cls = Array.isArray(type) ? type[0] : type;
  if (!opts.nullable) return ApiResponse({ status: 200, description, type: cls, isArray: Array.isArray(type) });
  const ref = { $ref: getSchemaPath(cls) };
  const schema = Array.isArray(type) ? { type: 'array' as const, items: ref, nullable: true } : { allOf: [ref], nullable: true };
  return applyDecorators(ApiExtraModels(cls), ApiResponse({ status: 200, description, schema }));
}
