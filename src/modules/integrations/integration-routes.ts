import { ErrorCase } from '../../common/http/api-errors';

/** The project named in the path of every integration route (ScopeRegistry kind `project`). */
export const PROJECT = { kind: 'project', from: 'params', key: 'projectId' } as const;

const FORBIDDEN: ErrorCase = [403, 'Insufficient permissions', 'Insufficient API key scope'];

/** Error answers the integration routes document (docs/integrations.md, "Routes"). */
export const GET_ERRORS: ErrorCase[] = [
  [403, 'Insufficient API key scope'],
  [404, 'Project not found'],
];
export const WRITE_ERRORS: ErrorCase[] = [FORBIDDEN, [404, 'Project not found']];
export const UPDATE_ERRORS: ErrorCase[] = [FORBIDDEN, [404, 'Project not found', 'Integration not found']];
export const REMOVE_ERRORS: ErrorCase[] = UPDATE_ERRORS;
export const WEBHOOK_400: ErrorCase = [
  400,
  'webhookUrl is required',
  'webhookUrl must be an http(s) URL',
  'Webhook destination resolves to a non-routable address',
  'Webhook destination host could not be resolved',
];
export const DELIVERIES_ERRORS: ErrorCase[] = [[400, 'limit must be an integer from 1 to 100'], FORBIDDEN, [404, 'Project not found', 'Delivery not found']];
export const REDELIVER_ERRORS: ErrorCase[] = [FORBIDDEN, [404, 'Project not found', 'Delivery not found']];
