import { applyDecorators } from '@nestjs/common';
import { ApiExtension, ApiProperty, ApiResponse } from '@nestjs/swagger';
import type { OpenAPIObject } from '@nestjs/swagger';

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
 * Documents a route's error answers in the OpenAPI document: each status with its messages and
 * the `{message}` schema. 401 and 429 need not be listed: every route behind authentication gets
 * them (see documentCommonErrors).
 */
export function ApiErrors(...cases: ErrorCase[]) {
  return applyDecorators(...cases.map(([status, ...messages]) => ApiResponse({ status, type: ErrorBody, description: messages.map((m) => `\`${m}\``).join(' · ') })));
}

/** Marks a route as answering without credentials in the OpenAPI document (used by @Public). */
export const ApiPublic = () => ApiExtension('x-public', true);

const UNAUTHORIZED = { description: '`Unauthorized`: missing, invalid, expired or revoked credentials' };
const RATE_LIMITED = { description: '`Too many requests`: over the rate limit; see the Retry-After header' };
const SERVER_ERROR = { description: '`Internal server error`: the cause is logged with the request id, never returned' };
const INSUFFICIENT = '`Insufficient permissions`';
const BAD_INPUT = { description: 'Validation failed: the message names the field, e.g. `title must be a string`; `Invalid JSON body`' };

/**
 * Adds the errors every route shares: 401 and 429 to routes behind authentication, 400 to routes
 * that take input, 500 to all, each with the `{message}` schema (`{error}` for the routes marked
 * x-error-key), and to routes that need a permission (the x-permission marker of @RequirePermission) the
 * 403 the permission guard answers, with the message naming the permission (a bare
 * `Insufficient permissions` listed in @ApiErrors becomes that message); drops the x-public,
 * x-error-key and x-permission markers afterwards. The organization operations so document six error answers each, as the spec says.
 */
export function documentCommonErrors(doc: OpenAPIObject): OpenAPIObject {
  // The ErrorBody and ErrorKeyBody schemas come from the classes (extraModels in bootstrap).
  const schema = { $ref: '#/components/schemas/ErrorBody' };
  const errorKeySchema = { $ref: '#/components/schemas/ErrorKeyBody' };
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item) as any[]) {
      if (!op || typeof op !== 'object' || !op.responses) continue;
      // Routes answering {error}: every error response (documented here or below) has that schema.
      const errorKey = op['x-error-key'];
      delete op['x-error-key'];
      const add = (responses: Record<string, any>, status: string, base: { description: string }) => {
        responses[status] ??= { ...base, content: { 'application/json': { schema: errorKey === 'error' ? errorKeySchema : schema } } };
      };
      // Nest documents a default success only for routes without explicit responses; ApiErrors
      // would otherwise hide it. Every success here is 200.
      if (!Object.keys(op.responses).some((status) => /^[23]/.test(status))) op.responses['200'] = { description: 'Success' };
      const permission: unknown = op['x-permission'];
      delete op['x-permission'];
      if (typeof permission === 'string') {
        const message = `\`Insufficient permissions: ${permission} is needed\``;
        const forbidden = op.responses['403'];
        if (!forbidden) add(op.responses, '403', { description: `${message}: a member whose roles lack the permission` });
        else if (forbidden.description?.includes(INSUFFICIENT)) forbidden.description = forbidden.description.split(INSUFFICIENT).join(message);
        else forbidden.description = `${message} · ${forbidden.description ?? ''}`;
      }
      const isPublic = op['x-public'] === true;
      delete op['x-public'];
      if (!isPublic) {
        add(op.responses, '401', UNAUTHORIZED);
        add(op.responses, '429', RATE_LIMITED);
      }
      add(op.responses, '500', SERVER_ERROR);
      if (op.requestBody || (op.parameters ?? []).some((p: any) => p.in === 'query' || p.in === 'path')) add(op.responses, '400', BAD_INPUT);
      if (errorKey === 'error') {
        for (const [status, r] of Object.entries<any>(op.responses)) if (/^[45]/.test(status) && r.content) r.content = { 'application/json': { schema: errorKeySchema } };
      }
    }
  }
  return doc;
}

/** Documents a route's success answer: the record it returns, by its name in docs/records.md. */
export const ApiAnswer = (record: string) => ApiResponse({ status: 200, description: `${record} (docs/records.md)` });
