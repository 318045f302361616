import { BadRequestException, CanActivate, ExecutionContext, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthUser } from '../decorators/current-user.decorator';
import { PERMISSION_METADATA, PermissionRequirement, ResolvedScope } from '../decorators/require-permission.decorator';
import { isUuid } from '../pipes/id.pipe';
import { AccessService } from '../permissions/access.service';
import { PrefetchedMembershipRequest } from '../permissions/prefetched-membership';
import { hasPermission, insufficientPermissions } from '../permissions/permissions';
import { ScopeRegistry } from '../permissions/scope-registry';

/**
 * The one authorization path (docs/decisions-local.md, "Roles and permissions"): finds the workspace of the route's resource,
 * answers 404 to non-members (a foreign tenant's object is never revealed), 403 to members
 * without the permission. (API keys whose scopes lack it were refused by the AuthGuard already.)
 * Reads (action 'read') need membership only, as any member reads.
 */
@Injectable()
export class PermissionGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly access: AccessService,
    private readonly registry: ScopeRegistry,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    if (ctx.getType() !== 'http') return true;
    const need = this.reflector.getAllAndOverride<PermissionRequirement | undefined>(PERMISSION_METADATA, [ctx.getHandler(), ctx.getClass()]);
    if (!need) return true;
    const req = ctx.switchToHttp().getRequest();
    const user: AuthUser | undefined = req.user;
    if (!user) return true; // public route: nothing to scope
    const { scope } = need;
    const notFound = this.registry.get(scope.kind).notFound;
    const source = req[scope.from] ?? {};
    let id: unknown = source[scope.key];
    if ((id === undefined || id === null || id === '') && scope.fallbackToActive) {
      id = user.activeOrganizationId;
      if (!id) throw new BadRequestException('No active organization');
    }
    if (id === undefined || id === null || id === '') throw new BadRequestException(`${scope.key} is required`);
    if (typeof id !== 'string') throw new BadRequestException(`${scope.key} must be a string`);
    if (!isUuid(id)) throw new NotFoundException(notFound);
    const prefetched = (req as PrefetchedMembershipRequest).prefetchedMembership;
    const found =
      prefetched && prefetched.kind === scope.kind && prefetched.id === id.toLowerCase() ? prefetched.found : await this.access.locate(scope.kind, id.toLowerCase(), user.id);
    if (!found || !found.memberId) throw new NotFoundException(notFound);
    const permissions = await this.access.permissionsFor(found.workspaceId, found.roles);
    if (need.action !== 'read' && !hasPermission(permissions, need.resource, need.action)) {
      throw new ForbiddenException(insufficientPermissions(need.resource, need.action));
    }
    const resolved: ResolvedScope = {
      workspaceId: found.workspaceId,
      memberId: found.memberId,
      roles: found.roles,
      permissions,
      resourceId: id.toLowerCase(),
    };
    req.scope = resolved;
    return true;
  }
}
