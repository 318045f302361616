import type { Request } from 'express';
import { ErrorCase } from '../../common/http/api-errors';

/**
 * The routes of the git-host integrations that answer errors as `{error}` (docs/git-hosts.md):
 * the hostedgit PATCH and the two inbound webhooks. Express paths with the global prefix; the
 * body parser, which runs before any route, uses this to answer malformed bodies the same way.
 */
const ERROR_KEY_ROUTES: [method: string, path: RegExp][] = [
  ['PATCH', /^\/api\/hostedgit-integration\/project\/[^/]+\/?$/],
  ['POST', /^\/api\/hostedgit-integration\/webhook\/?$/],
  ['POST', /^\/api\/selfgit-integration\/webhook\/[^/]+\/?$/],
];

export const errorBodyKeyOf = (req: Request): 'message' | 'error' =>
  ERROR_KEY_ROUTES.some(([method, path]) => req.method === method && path.test(req.path)) ? 'error' : 'message';

/** The project named in the path of the git-host settings and workflow-rule routes (ScopeRegistry kind `project`, registered by ProjectModule). */
export const PROJECT = { kind: 'project', from: 'params', key: 'projectId' } as const;

const FORBIDDEN: ErrorCase = [403, 'Insufficient permissions', 'Insufficient API key scope'];

/** Error answers the git-host routes document. */
export const GIT_GET_ERRORS: ErrorCase[] = [
  [403, 'Insufficient API key scope'],
  [404, 'Project not found'],
];
export const GIT_WRITE_ERRORS: ErrorCase[] = [FORBIDDEN, [404, 'Project not found'], [409, 'This repository is already linked to another active project']];
export const GIT_UPDATE_ERRORS: ErrorCase[] = [
  FORBIDDEN,
  [404, 'Project not found', 'Integration not found'],
  [409, 'This repository is already linked to another active project'],
];
export const GIT_REMOVE_ERRORS: ErrorCase[] = [FORBIDDEN, [404, 'Project not found', 'Integration not found']];
export const WEBHOOK_ERRORS: ErrorCase[] = [
  [401, 'Invalid signature'],
  [404, 'Integration not found'],
  [415, 'The webhook body must be JSON (Content-Type: application/json)'],
];
