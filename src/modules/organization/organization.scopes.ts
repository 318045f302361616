import { ScopeLocator } from '../../common/decorators/require-permission.decorator';
import { INVITATION_SCOPE_SQL } from './invitation.repository';
import { TEAM_SCOPE_SQL } from './team.repository';
import { WORKSPACE_SCOPE_SQL } from './workspace.repository';

/** The workspace named by `organizationId`, else the session's active organization. */
export const ORG_IN_QUERY: ScopeLocator = { kind: 'workspace', from: 'query', key: 'organizationId', fallbackToActive: true };
export const ORG_IN_BODY: ScopeLocator = { kind: 'workspace', from: 'body', key: 'organizationId', fallbackToActive: true };
export const TEAM_IN_BODY: ScopeLocator = { kind: 'team', from: 'body', key: 'teamId' };
export const TEAM_IN_QUERY: ScopeLocator = { kind: 'team', from: 'query', key: 'teamId' };
export const INVITATION_IN_BODY: ScopeLocator = { kind: 'invitation', from: 'body', key: 'invitationId' };

/** Scope kinds of this module, registered with the permission guard at start-up. */
export const ORGANIZATION_SCOPE_KINDS = {
  workspace: { notFound: 'Workspace not found', sql: WORKSPACE_SCOPE_SQL },
  team: { notFound: 'Team not found', sql: TEAM_SCOPE_SQL },
  invitation: { notFound: 'Invitation not found', sql: INVITATION_SCOPE_SQL },
};
