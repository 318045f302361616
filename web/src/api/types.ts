import type { paths } from './schema';

/**
 * Names for the answers the app uses, each derived from the OpenAPI document's paths (no copy of
 * an API type is written by hand: a change of the API's records changes these).
 */
type Ok<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { responses: { 200: { content: { 'application/json': infer T } } } } ? T : never;

/** A signed-in caller's session (get-session answers null when nobody is signed in). */
export type Session = NonNullable<Ok<'/api/auth/get-session', 'get'>>;
export type Workspace = Ok<'/api/auth/organization/list', 'get'> extends (infer W)[] ? W : never;
export type Project = Ok<'/api/project/{id}', 'get'>;
export type Column = Ok<'/api/column/{projectId}', 'get'> extends (infer C)[] ? C : never;
export type Task = Ok<'/api/task/{id}', 'get'>;
export type Asset = Ok<'/api/asset/task/{taskId}', 'get'> extends (infer A)[] ? A : never;
/** A label: a catalogue label of the workspace (taskId null) or a task's copy of one. */
export type Label = Ok<'/api/label/{id}', 'get'>;
export type TaskPage = Ok<'/api/task/tasks/{projectId}', 'get'>;
export type Permissions = Ok<'/api/auth/organization/my-permissions', 'get'>;
export type SearchAnswer = Ok<'/api/search', 'get'>;
export type SearchComment = SearchAnswer['comments'] extends (infer C)[] ? C : never;
export type Notification = Ok<'/api/notification', 'get'> extends (infer N)[] ? N : never;
export type PermissionTable = Permissions['permissions'];
export type SessionItem = Ok<'/api/auth/list-sessions', 'get'> extends (infer S)[] ? S : never;
export type ApiKey = Ok<'/api/auth/api-key/list', 'get'> extends (infer K)[] ? K : never;
export type CreatedApiKey = Ok<'/api/auth/api-key/create', 'post'>;
export type TaskRelation = Ok<'/api/task-relation/{taskId}', 'get'> extends (infer R)[] ? R : never;
export type Member = Ok<'/api/auth/organization/list-members', 'get'> extends (infer M)[] ? M : never;
export type Invitation = Ok<'/api/auth/organization/list-invitations', 'get'> extends (infer I)[] ? I : never;
export type InvitationSent = Ok<'/api/auth/organization/invite-member', 'post'>;
export type UserInvitation = Ok<'/api/auth/organization/list-user-invitations', 'get'> extends (infer I)[] ? I : never;
export type Team = Ok<'/api/auth/organization/list-teams', 'get'> extends (infer T)[] ? T : never;
export type Role = Ok<'/api/auth/organization/list-roles', 'get'> extends (infer R)[] ? R : never;

/** The JSON body a route takes. */
type Body<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
type NonNull<T> = Exclude<T, null>;

// The project integrations (docs/integrations.md, docs/git-hosts.md).
export type MessengerIntegration = NonNull<Ok<'/api/messenger-integration/project/{projectId}', 'get'>>;
export type MessengerBody = Body<'/api/messenger-integration/project/{projectId}', 'post'>;
export type MessengerPatch = Body<'/api/messenger-integration/project/{projectId}', 'patch'>;
export type ChatWebhookIntegration = NonNull<Ok<'/api/teamchat-integration/project/{projectId}', 'get'>>;
export type ChatWebhookBody = Body<'/api/teamchat-integration/project/{projectId}', 'post'>;
export type ChatWebhookPatch = Body<'/api/teamchat-integration/project/{projectId}', 'patch'>;
export type GenericWebhookIntegration = NonNull<Ok<'/api/generic-webhook-integration/project/{projectId}', 'get'>>;
export type GenericWebhookBody = Body<'/api/generic-webhook-integration/project/{projectId}', 'post'>;
export type GenericWebhookPatch = Body<'/api/generic-webhook-integration/project/{projectId}', 'patch'>;
export type IntegrationEvents = GenericWebhookIntegration['events'];
export type DeliveryList = Ok<'/api/generic-webhook-integration/project/{projectId}/deliveries', 'get'>;
export type Delivery = DeliveryList['deliveries'][number];
export type SelfgitIntegration = NonNull<Ok<'/api/selfgit-integration/project/{projectId}', 'get'>>;
export type HostedgitIntegration = NonNull<Ok<'/api/hostedgit-integration/project/{projectId}', 'get'>>;

// The caller's notification preferences and workspace rules (docs/notifications.md).
export type NotificationPreferences = Ok<'/api/notification-preferences', 'get'>;
export type WorkspaceRule = NotificationPreferences['workspaces'][number];
export type PreferencesBody = Body<'/api/notification-preferences', 'put'>;
export type WorkspaceRuleBody = Body<'/api/notification-preferences/workspaces/{workspaceId}', 'put'>;

/** What a board card shows beside its task (GET /api/task/card-details/:projectId). */
export type CardDetails = Ok<'/api/task/card-details/{projectId}', 'get'>[number];
export type TaskWatchers = Ok<'/api/task/{id}/watchers', 'get'>;
