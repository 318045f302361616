import { ScopeLocator } from '../../common/decorators/require-permission.decorator';

/** The workspace named by `organizationId`, else the session's active organization. */
export const ORG_IN_QUERY: ScopeLocator = { kind: 'workspace', from: 'query', key: 'organizationId', fallbackToActive: true };
export const ORG_IN_BODY: ScopeLocator = { kind: 'workspace', from: 'body', key: 'organizationId', fallbackToActive: true };
export const TEAM_IN_BODY: ScopeLocator = { kind: 'team', from: 'body', key: 'teamId' };
export const INVITATION_IN_BODY: ScopeLocator = { kind: 'invitation', from: 'body', key: 'invitationId' };

/** Scope kinds of this module, registered with the permission guard at start-up. */
export const ORGANIZATION_SCOPE_KINDS = {
  team: { notFound: 'Team not found', sql: 'SELECT organization_id AS workspace_id FROM team WHERE id = $1' },
  invitation: { notFound: 'Invitation not found', sql: 'SELECT organization_id AS workspace_id FROM invitation WHERE id = $1' },
};
