import { BadRequestException, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuthUser } from '../../common/decorators/current-user.decorator';
import { ResolvedScope } from '../../common/decorators/require-permission.decorator';
import { AccessService } from '../../common/permissions/access.service';
import { invalidPermission, isStaticRole, splitRoles } from '../../common/permissions/permissions';
import { CreateRoleDto } from './dto/role.dto';
import { isUniqueViolation } from '../../database/sql';
import { toCreatedRoleRecord } from './organization-role.record';
import { assertCanGrant, grantablePermissions, lockWorkspace, PermissionSets, roleList } from './organization-access';
import { RoleRepository } from './role.repository';
import { WorkspaceRepository } from './workspace.repository';

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
    private readonly roles: RoleRepository,
    private readonly workspaces: WorkspaceRepository,
  ) {}

  /**
   * Validates role input against the static roles and the workspace's custom roles and returns
   * the clean list with the union of its permissions. An unknown name → 400.
   */
  async resolve(workspaceId: string, input: string | string[], m?: EntityManager): Promise<{ roles: string[]; permissions: PermissionSets }> {
    const roles = roleList(input);
    if (!roles.length) throw new BadRequestException('role is required');
    const custom = roles.filter((r) => !isStaticRole(r));
    if (custom.length) {
      const known = await this.roles.existingNames(workspaceId, custom, m);
      const unknown = custom.find((r) => !known.has(r));
      if (unknown) throw new BadRequestException(`Unknown role: ${unknown}`);
    }
    return { roles, permissions: await this.access.permissionsFor(workspaceId, roles, m) };
  }

  /** The permissions a stored (comma-joined) role grants today; a custom role deleted since grants nothing. */
  async storedRolePermissions(workspaceId: string, storedRole: string, m?: EntityManager): Promise<PermissionSets> {
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
        await lockWorkspace(this.workspaces, workspaceId, m);
        const { count, taken } = await this.roles.countAndNameTaken(workspaceId, name, m);
        if (taken) throw new BadRequestException(NAME_TAKEN);
        if (count >= MAX_ROLES_PER_WORKSPACE) throw new BadRequestException(`You have reached the maximum number of roles (${MAX_ROLES_PER_WORKSPACE})`);
        return this.roles.insert(workspaceId, { role: name, permission, additionalFields: dto.additionalFields ?? null }, m);
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
