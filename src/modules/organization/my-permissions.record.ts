import { ApiProperty } from '@nestjs/swagger';
import { AuthUser } from '../../common/decorators/current-user.decorator';
import { ResolvedScope } from '../../common/decorators/require-permission.decorator';
import { permissionTable, Resource, RESOURCE_ACTIONS } from '../../common/permissions/permissions';
import { grantablePermissions } from './organization-access';

/**
 * The permission table's OpenAPI schema: one required property per resource of RESOURCE_ACTIONS,
 * an array of its actions (declared from the table, so a new resource appears by itself).
 */
export class PermissionTable {}
for (const [res, actions] of Object.entries(RESOURCE_ACTIONS)) {
  ApiProperty({ enum: [...actions], isArray: true })(PermissionTable.prototype, res);
}

/**
 * The caller's effective permissions in a workspace (`GET /auth/organization/my-permissions`;
 * docs/records.md, "My permissions").
 */
export class MyPermissionsRecord {
  @ApiProperty({ format: 'uuid' })
  organizationId: string;

  @ApiProperty({ type: [String], description: "the caller's roles in the workspace, static and custom", example: ['member'] })
  roles: string[];

  @ApiProperty({
    type: () => PermissionTable,
    description:
      'every resource with the actions the caller\'s roles grant (their union; `[]` where none), in the order of docs/decisions-local.md, "Roles and permissions"; for an API key limited by scopes, only those among its scopes',
  })
  permissions: Record<Resource, string[]>;
}

export const toMyPermissionsRecord = (scope: ResolvedScope, user: AuthUser): MyPermissionsRecord => ({
  organizationId: scope.workspaceId,
  roles: scope.roles,
  permissions: permissionTable(grantablePermissions(scope, user)),
});
