import { BadRequestException, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuthUser } from '../../common/decorators/current-user.decorator';
import { ResolvedScope } from '../../common/decorators/require-permission.decorator';
import { AccessService } from '../../common/permissions/access.service';
import { invalidPermission, isStaticRole, splitRoles } from '../../common/permissions/permissions';
import { CreateRoleDto } from './dto/role.dto';
import { OrganizationRole } from './organization-role.entity';
import { toCreatedRoleRecord } from './organization-role.record';
import { assertCanGrant, grantablePermissions, isUniqueViolation, lockWorkspace, PermissionSets, roleList } from './organization-access';

export const MAX_ROLES_PER_WORKSPACE = 25;
const INVALID_RESOURCE = 'The provided permission includes an invalid resource';
const NAME_TAKEN = 'That role name is already taken';

/** Parses and validates a create-role permission: an object or a JSON string of one. */
export function parsePermission(input: unknown): Record<string, string[]> {
  let value = input;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      throw new BadRequestException('permission must be an object or a JSON string of one');
    }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new BadRequestException('permission must be an object or a JSON string of one');
  if (invalidPermission(value)) throw new BadRequestException(INVALID_RESOURCE);
  const out: Record<string, string[]> = {};
  for (const [res, actions] of Object.entries(value as Record<string, string[]>)) {
    const unique = [...new Set(actions)];
    if (unique.length) out[res] = unique;
  }
  if (!Object.keys(out).length) throw new BadRequestException('permission must grant at least one action');
  return out;
}

@Injectable()
export class RoleService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly access: AccessService,
  ) {}

  /**
   * Validates role input against the static roles and the workspace's custom roles and returns
   * the clean list with the union of its permissions. An unknown name → 400.
   */
  async resolve(m: EntityManager, workspaceId: string, input: string | string[]): Promise<{ roles: string[]; permissions: PermissionSets }> {
    const roles = roleList(input);
    if (!roles.length) throw new BadRequestException('role is required');
    const custom = roles.filter((r) => !isStaticRole(r));
    if (custom.length) {
      const rows: { role: string }[] = await m.query(`SELECT role FROM organization_role WHERE organization_id = $1 AND role = ANY($2::text[])`, [workspaceId, custom]);
      const known = new Set(rows.map((r) => r.role));
      const unknown = custom.find((r) => !known.has(r));
      if (unknown) throw new BadRequestException(`Unknown role: ${unknown}`);
    }
    return { roles, permissions: await this.access.permissionsFor(workspaceId, roles, m) };
  }

  /** The permissions a stored (comma-joined) role grants today; a custom role deleted since grants nothing. */
  async storedRolePermissions(m: EntityManager, workspaceId: string, storedRole: string): Promise<PermissionSets> {
    return this.access.permissionsFor(workspaceId, splitRoles(storedRole), m);
  }

  async create(user: AuthUser, scope: ResolvedScope, dto: CreateRoleDto) {
    const permission = parsePermission(dto.permission);
    const name = dto.role;
    if (isStaticRole(name.toLowerCase())) throw new BadRequestException(NAME_TAKEN);
    assertCanGrant(grantablePermissions(scope, user), permission, 'You cannot grant permissions you do not have');
    const workspaceId = scope.workspaceId;
    try {
      const role = await this.ds.transaction(async (m) => {
        await lockWorkspace(m, workspaceId);
        const [{ count, taken }] = await m.query(
          `SELECT count(*)::int AS count, bool_or(lower(role) = lower($2)) AS taken FROM organization_role WHERE organization_id = $1`,
          [workspaceId, name],
        );
        if (taken) throw new BadRequestException(NAME_TAKEN);
        if (count >= MAX_ROLES_PER_WORKSPACE) throw new BadRequestException(`You have reached the maximum number of roles (${MAX_ROLES_PER_WORKSPACE})`);
        return m.save(m.create(OrganizationRole, { organizationId: workspaceId, role: name, permission, additionalFields: dto.additionalFields ?? null }));
      });
      return {
        success: true as const,
        roleData: toCreatedRoleRecord(role),
        statements: permission,
      };
    } catch (err) {
      if (isUniqueViolation(err, 'organization_role_key')) throw new BadRequestException(NAME_TAKEN);
      throw err;
    }
  }
}
