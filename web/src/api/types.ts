import type { paths } from './schema';

/**
 * Names for the answers the app uses, each derived from the OpenAPI document's paths (no copy of
 * an API type is written by hand: a change of the API's records changes these).
 */
type Ok<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { responses: { 200: { content: { 'application/json': infer T } } } } ? T : never;

export type Session = Ok<'/api/auth/get-session', 'get'>;
export type Workspace = Ok<'/api/auth/organization/list', 'get'> extends (infer W)[] ? W : never;
export type Project = Ok<'/api/project/{id}', 'get'>;
export type Column = Ok<'/api/column/{projectId}', 'get'> extends (infer C)[] ? C : never;
export type Task = Ok<'/api/task/{id}', 'get'>;
export type TaskPage = Ok<'/api/task/tasks/{projectId}', 'get'>;
export type Permissions = Ok<'/api/auth/organization/my-permissions', 'get'>;
export type SearchAnswer = Ok<'/api/search', 'get'>;
export type SearchComment = SearchAnswer['comments'] extends (infer C)[] ? C : never;
export type Notification = Ok<'/api/notification', 'get'> extends (infer N)[] ? N : never;
