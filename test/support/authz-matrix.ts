import { randomBytes } from 'node:crypto';
import { hasPermission, StaticRole, STATIC_ROLE_PERMISSIONS, unionPermissions } from '../../src/common/permissions/permissions';
import { AuthService } from '../../src/modules/auth/auth.service';
import { Auth, Res } from './api';
import { TestApp } from './app';
import { addMember, sql } from './fixtures';
import { RouteAccess } from './routes';

/**
 * The machinery of the authorization matrix (test/e2e/platform/authorization-matrix.e2e-spec.ts):
 * who calls, what each caller must get from a route's declared access, and the ids a caller must
 * never see. The recipes (how to call each route) stay in the test.
 */

export type SignedUp = Auth & { password: string };

export const randomName = (prefix: string) => `${prefix} ${randomBytes(4).toString('hex')}`;

/**
 * A new session of a user, made by the service's own AuthService.createSession (what sign-in
 * does after the password check): no argon2 hash to compute, which matters when a hundred
 * sessions are needed on two cores.
 */
export const newSessionToken = (t: TestApp, userId: string): Promise<string> => t.running.app.get(AuthService).createSession(userId);

/**
 * A user written directly, with the same password as `like` (its hash copied) and a verified
 * email, and a session: a copy of an actor that costs no password hashing.
 */
export async function copyOfUser(t: TestApp, like: SignedUp, name: string): Promise<SignedUp> {
  const email = `copy-${randomBytes(6).toString('hex')}@example.test`;
  const [u] = await sql(
    t.databaseUrl,
    `INSERT INTO "user" (name, email, email_verified, password_hash) SELECT $1, $2, true, password_hash FROM "user" WHERE id = $3 RETURNING id`,
    [name, email, like.user.id],
  );
  return { token: await newSessionToken(t, u.id), user: { id: u.id, name, email }, password: like.password };
}

/** The session id a session token names (its `sid` claim). */
export const sessionIdOf = (token: string): string => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).sid;

export type ActorName = 'no token' | 'revoked token' | 'scoped API key' | 'owner of B' | 'instance admin' | StaticRole;

export interface Actor {
  name: ActorName;
  /** What goes in `Authorization: Bearer` (none for `no token`). */
  token?: string;
  /** The user behind the actor (anonymous callers get one too, never sent, so recipes can always set up their data). */
  user: SignedUp;
  /** Its role in workspace A, when it is a member. */
  role?: StaticRole;
  kind: 'anonymous' | 'revoked' | 'scopedKey' | 'user';
  instanceAdmin?: boolean;
  /** A workspace of its own where its notifications live (A for A's members). */
  home: string;
  /** A token for a new session of the same actor (the same credential when it has no session to open). */
  newSession(): Promise<string | undefined>;
  /** A new user standing in the same place (same role in A, own workspace, instance admin), for routes that end the account. */
  clone(): Promise<Actor>;
}

export type Access = { resource: string; action: string };

/** Expected answer: `pass` (the request is served), or the refusal status. */
export type Outcome = 'pass' | 401 | 403 | 404;

/**
 * What `actor` must get from a route, from its declaration alone (docs/decisions-local.md, "Roles
 * and permissions" and "Access rules that close escalation paths"):
 * - no or revoked credentials → 401; a scoped key that lacks the route's scope → 403;
 * - @InstanceAdminOnly → only an instance admin's session passes, other callers 403;
 * - @RequirePermission → A's members pass when their role grants it (reads: any member, as the
 *   guard says), other members 403, non-members 404;
 * - `handler` (a check the handler makes beyond the declaration) → like a permission, no read rule;
 * - `membersOnly` → A's members pass, non-members 404;
 * - otherwise (user-level, @ApiKeyScope routes) every signed-in caller passes.
 */
export function expectedOutcome(route: RouteAccess, actor: Actor, extra: { handler?: Access; membersOnly?: boolean } = {}): Outcome {
  // A signed-out caller (no credential) gets null from the few routes that say so (@AnswersNullSignedOut).
  if (actor.kind === 'anonymous' && route.signedOutNull) return 'pass';
  if (actor.kind === 'anonymous' || actor.kind === 'revoked') return 401;
  if (actor.kind === 'scopedKey') return 403;
  if (route.instanceAdmin) return actor.instanceAdmin ? 'pass' : 403;
  const need = extra.handler ?? route.permission;
  if (need) {
    if (!actor.role) return 404;
    if (!extra.handler && need.action === 'read') return 'pass';
    return grants(actor.role, need) ? 'pass' : 403;
  }
  if (extra.membersOnly) return actor.role ? 'pass' : 404;
  return 'pass';
}

export const grants = (role: StaticRole, need: Access): boolean => hasPermission(unionPermissions([STATIC_ROLE_PERMISSIONS[role]]), need.resource, need.action);

/**
 * A scope to give the scoped key for a route: never the route's own (label:read, or team:create
 * on label routes), so the key must be refused everywhere.
 */
export function unrelatedScope(route: RouteAccess): Access {
  const need = route.permission ?? (typeof route.keyScope === 'object' ? route.keyScope : undefined);
  return need?.resource === 'label' ? { resource: 'team', action: 'create' } : { resource: 'label', action: 'read' };
}

/** Makes the actors of the matrix around workspace A (owner `owner`). */
export async function makeActors(t: TestApp, a: { owner: SignedUp; workspaceId: string }, b: { owner: SignedUp; workspaceId: string }): Promise<Actor[]> {
  const api = t.api;
  const signUp = (name: string) => api.signUp({ name }) as Promise<SignedUp>;
  const sessionActor = (name: ActorName, user: SignedUp, home: string, extra: Partial<Actor>, clone: () => Promise<Actor>): Actor => ({
    name,
    token: user.token,
    user,
    kind: 'user',
    home,
    newSession: () => newSessionToken(t, user.user.id),
    clone,
    ...extra,
  });
  const member = async (role: StaticRole, user: SignedUp): Promise<Actor> => {
    if (role !== 'owner' || user !== a.owner) await addMember(t.databaseUrl, a.workspaceId, user.user.id, role);
    return sessionActor(role, user, a.workspaceId, { role }, async () => member(role, await copyOfUser(t, user, `A ${role} copy`)));
  };
  const outsider = async (name: 'owner of B' | 'instance admin', user: SignedUp, home?: string): Promise<Actor> => {
    const ws = home ?? (await api.createWorkspace(user.token)).id;
    if (name === 'instance admin') await sql(t.databaseUrl, `UPDATE "user" SET is_instance_admin = true WHERE id = $1`, [user.user.id]);
    return sessionActor(name, user, ws, { instanceAdmin: name === 'instance admin' }, async () => outsider(name, await copyOfUser(t, user, `${name} copy`)));
  };
  // Only the instance admin made below is one (the first user to sign up became one).
  await sql(t.databaseUrl, `UPDATE "user" SET is_instance_admin = false`);
  const revoked = await signUp('Signed out');
  const out = await api.post('/auth/sign-out', undefined, revoked.token);
  if (out.status !== 200) throw new Error(`sign-out failed: ${out.status}`);
  const anonymous = await signUp('Anonymous');
  const keys = new Map<string, string>();
  const keyActor: Actor = {
    name: 'scoped API key',
    user: a.owner,
    kind: 'scopedKey',
    home: a.workspaceId,
    newSession: async () => keyActor.token,
    clone: async () => keyActor,
  };
  for (const scope of [
    { resource: 'label', action: 'read' },
    { resource: 'team', action: 'create' },
  ]) {
    const res = await api.post('/auth/api-key/create', { name: `matrix ${scope.resource}:${scope.action}`, permissions: { [scope.resource]: [scope.action] } }, a.owner.token);
    if (res.status !== 200) throw new Error(`api-key/create failed: ${res.status} ${res.text}`);
    keys.set(`${scope.resource}:${scope.action}`, res.body.key);
  }
  const fixed = (name: ActorName, kind: Actor['kind'], user: SignedUp, token?: string): Actor => {
    const self: Actor = { name, token, user, kind, home: a.workspaceId, newSession: async () => token, clone: async () => self };
    return self;
  };
  const actors: Actor[] = [
    fixed('no token', 'anonymous', anonymous),
    fixed('revoked token', 'revoked', revoked, revoked.token),
    keyActor,
    await outsider('owner of B', b.owner, b.workspaceId),
    await outsider('instance admin', await signUp('Instance admin')),
    await member('viewer', await signUp('A viewer')),
    await member('member', await signUp('A member')),
    await member('admin', await signUp('A admin')),
    await member('owner', a.owner),
  ];
  // Verified, as list-user-invitations asks (docs/accounts.md).
  await sql(t.databaseUrl, `UPDATE "user" SET email_verified = true WHERE id = ANY($1)`, [actors.map((x) => x.user.user.id)]);
  return Object.assign(actors, { keys });
}

/** The scoped key to send for a route (see unrelatedScope). */
export const scopedKeyFor = (actors: Actor[], route: RouteAccess): string => {
  const s = unrelatedScope(route);
  return (actors as Actor[] & { keys: Map<string, string> }).keys.get(`${s.resource}:${s.action}`)!;
};

/**
 * Every id that belongs to the given workspaces: the workspaces, the rows of every table that
 * carries a workspace (`workspace_id` / `organization_id`), team memberships, and the users who
 * are members there (other than `except`).
 */
export async function idsOfWorkspaces(t: TestApp, workspaceIds: string[], except: string[] = []): Promise<Set<string>> {
  const tables = await sql<{ table_name: string; column_name: string }>(
    t.databaseUrl,
    `SELECT c.table_name, c.column_name FROM information_schema.columns c
      WHERE c.table_schema = 'public' AND c.column_name IN ('workspace_id', 'organization_id')
        AND EXISTS (SELECT 1 FROM information_schema.columns i WHERE i.table_schema = 'public' AND i.table_name = c.table_name AND i.column_name = 'id' AND i.data_type = 'uuid')`,
  );
  const parts = [
    `SELECT id::text FROM workspace WHERE id = ANY($1)`,
    ...tables.map((r) => `SELECT id::text FROM "${r.table_name}" WHERE ${r.column_name} = ANY($1)`),
    `SELECT tm.id::text FROM team_member tm JOIN team ON team.id = tm.team_id WHERE team.organization_id = ANY($1)`,
    `SELECT user_id::text FROM member WHERE organization_id = ANY($1) AND NOT (user_id = ANY($2))`,
  ];
  const rows = await sql<{ id: string }>(t.databaseUrl, parts.join(' UNION '), [workspaceIds, except]);
  return new Set(rows.map((r) => r.id));
}

/**
 * One digest per table of every row of the tables that hold workspace data (for "nothing
 * changed": compare before and after a refused request, with no worker running).
 */
export async function tenantDigest(t: TestApp): Promise<Record<string, string>> {
  const tables = await sql<{ table_name: string }>(
    t.databaseUrl,
    `SELECT DISTINCT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name IN ('workspace_id', 'organization_id', 'team_id') ORDER BY 1`,
  );
  const names = ['workspace', ...tables.map((r) => r.table_name)];
  const [row] = await sql(t.databaseUrl, `SELECT ${names.map((n) => `(SELECT md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) FROM "${n}" x) AS "${n}"`).join(', ')}`);
  return row;
}

/** The tables whose digest differs. */
export const changedTables = (before: Record<string, string>, after: Record<string, string>) => Object.keys(before).filter((k) => before[k] !== after[k]);

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** The ids among `forbidden` that `res` shows, leaving out those the request itself sent. */
export function leakedIds(res: Res, requestText: string, forbidden: Set<string>): string[] {
  const sent = new Set((requestText.match(UUID) ?? []).map((s) => s.toLowerCase()));
  const shown = new Set((res.text.match(UUID) ?? []).map((s) => s.toLowerCase()));
  return [...shown].filter((id) => forbidden.has(id) && !sent.has(id));
}
