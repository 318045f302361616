import { Reflector } from '@nestjs/core';
import { API_KEY_SCOPE, ApiKeyScope, ApiKeyScopeCheckedByHandler, ApiKeyScopeRule, keyScopeAllows } from '../decorators/api-key-scope.decorator';
import { PermissionRequirement } from '../decorators/require-permission.decorator';
import { permissionTarget } from './prefetched-membership';

const ID = 'AAAAAAAA-0000-4000-8000-000000000001';
const need = (from: 'params' | 'body' | 'query' = 'params'): PermissionRequirement => ({ resource: 'task', action: 'read', scope: { kind: 'task', from, key: 'taskId' } });

describe('permissionTarget: the resource the authentication prefetches for the permission guard', () => {
  it("the route's id where the route says it is, lower-cased as the guard looks it up", () => {
    expect(permissionTarget(need(), { params: { taskId: ID } })).toEqual({ kind: 'task', id: ID.toLowerCase() });
    expect(permissionTarget(need('body'), { body: { taskId: ID } })).toEqual({ kind: 'task', id: ID.toLowerCase() });
    expect(permissionTarget(need('query'), { params: { taskId: ID }, query: {} })).toBeNull();
  });

  it('nothing to prefetch: no declared permission, no id, an id that is not a UUID string, no such source', () => {
    expect(permissionTarget(undefined, { params: { taskId: ID } })).toBeNull();
    for (const params of [{}, { taskId: 'not-a-uuid' }, { taskId: 7 }, { taskId: [ID] }, undefined, null, 'taskId']) {
      expect([params, permissionTarget(need(), { params })]).toEqual([params, null]);
    }
  });
});

describe('keyScopeAllows: what a scoped API key may do', () => {
  const scopes = { task: ['read', 'update'], label: [] as string[] };
  it('only the actions listed under the resource', () => {
    expect(keyScopeAllows(scopes, 'task', 'read')).toBe(true);
    expect(keyScopeAllows(scopes, 'task', 'update')).toBe(true);
    expect(keyScopeAllows(scopes, 'task', 'delete')).toBe(false);
    expect(keyScopeAllows(scopes, 'label', 'read')).toBe(false);
    expect(keyScopeAllows(scopes, 'project', 'read')).toBe(false);
  });

  it('never an inherited name, nor a value that is not a list', () => {
    expect(keyScopeAllows(scopes, 'constructor', 'name')).toBe(false);
    expect(keyScopeAllows({ task: 'read' } as unknown as Record<string, string[]>, 'task', 'read')).toBe(false);
    expect(keyScopeAllows(JSON.parse('{"__proto__": {"task": ["read"]}}'), 'task', 'read')).toBe(false);
  });
});

describe('@ApiKeyScope: what a route asks of a scoped key', () => {
  it('a resource and action, or the handler bounding it, as the authentication guard reads them', () => {
    const scoped = () => undefined;
    const byHandler = () => undefined;
    ApiKeyScope('search', 'read')(scoped);
    ApiKeyScopeCheckedByHandler()(byHandler);
    const rule = (handler: () => void) => new Reflector().get<ApiKeyScopeRule | undefined>(API_KEY_SCOPE, handler);
    expect([rule(scoped), rule(byHandler), rule(() => undefined)]).toEqual([{ resource: 'search', action: 'read' }, 'handler', undefined]);
  });
});
