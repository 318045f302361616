import { Injectable } from '@nestjs/common';

/**
 * How the permission guard finds the workspace a route's resource lives in.
 * Each feature module registers its kinds at start-up (e.g. 'task': SQL from task id to workspace id),
 * so the guard stays ignorant of feature tables.
 */
export interface ScopeKind {
  /** Message of the 404 when the id is unknown, malformed, or in a workspace the caller is not in. */
  notFound: string;
  /**
   * A SELECT taking the id as $1 and returning one row with a column `workspace_id`.
   * The guard wraps it with the membership lookup, so resolution costs one statement.
   */
  sql: string;
}

@Injectable()
export class ScopeRegistry {
  // Empty until the modules register their kinds: `workspace` itself comes from the organization
  // module, which owns that table.
  private readonly kinds = new Map<string, ScopeKind>();

  register(kind: string, def: ScopeKind): void {
    this.kinds.set(kind, def);
  }

  get(kind: string): ScopeKind {
    const def = this.kinds.get(kind);
    if (!def) throw new Error(`Unknown scope kind "${kind}": register it in its module`);
    return def;
  }
}
