import { PermissionRequirement } from '../decorators/require-permission.decorator';
import { isUuid } from '../pipes/id.pipe';

/** Where a resource lives for the caller: its workspace and the caller's membership there (memberId null for non-members). */
export interface Located {
  workspaceId: string;
  memberId: string | null;
  roles: string[];
}

/** The resource a route's @RequirePermission points at in one request. */
export interface PermissionTarget {
  kind: string;
  /** Lower-cased UUID, exactly as the permission guard looks it up. */
  id: string;
}

/**
 * The prefetched membership: what the authentication found out about the route's resource (its
 * workspace and the caller's membership there) while it checked the session, in the same
 * statement (docs/benchmarks.md, "Writes"): the permission guard uses it instead of a statement of
 * its own. `found` null: no such resource.
 */
export interface PrefetchedMembership extends PermissionTarget {
  found: Located | null;
}

/**
 * The request fields through which the authentication and the permission guard share it: the
 * resource the session check is asked to look up (`prefetchTarget`) and what it found.
 */
export interface PrefetchedMembershipRequest {
  prefetchTarget?: PermissionTarget;
  prefetchedMembership?: PrefetchedMembership;
}

/**
 * The route's resource in this request when the permission guard will surely look it up: a
 * declared permission whose id is present as a UUID string. Anything else (no id, a fallback to the
 * active organization, a malformed id) is left to the guard, which answers it.
 */
export function permissionTarget(need: PermissionRequirement | undefined, req: Record<string, unknown>): PermissionTarget | null {
  if (!need) return null;
  // A body that is not an object (a JSON string, number or null) has no such member: undefined.
  const id = (req[need.scope.from] as Record<string, unknown> | null | undefined)?.[need.scope.key];
  return isUuid(id) ? { kind: need.scope.kind, id: id.toLowerCase() } : null;
}
