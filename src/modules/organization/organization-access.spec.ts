import { BadRequestException, ForbiddenException } from '@nestjs/common';
import { ResolvedScope } from '../../common/decorators/require-permission.decorator';
import { STATIC_ROLE_PERMISSIONS, unionPermissions } from '../../common/permissions/permissions';
import { isPermanentSmtpError } from '../mail/mailer.service';
import { assertCanGrant, grantablePermissions, isOwner, roleList } from './organization-access';
import { parsePermission } from './role.service';

const scopeOf = (roles: string[]): ResolvedScope => ({
  workspaceId: 'w',
  memberId: 'm',
  roles,
  permissions: unionPermissions(roles.map((r) => STATIC_ROLE_PERMISSIONS[r as keyof typeof STATIC_ROLE_PERMISSIONS])),
  resourceId: 'w',
});
const user = (permissions: Record<string, string[]> | null = null) => ({
  id: 'u',
  name: 'U',
  email: 'u@x.test',
  isInstanceAdmin: false,
  apiKey: permissions ? { id: 'k', permissions, expiresAt: null } : undefined,
});

describe('roleList', () => {
  it('accepts a name, a comma list or an array, trims and removes duplicates', () => {
    expect(roleList('admin')).toEqual(['admin']);
    expect(roleList(' member , viewer,member ')).toEqual(['member', 'viewer']);
    expect(roleList(['admin', 'member,viewer', ' '])).toEqual(['admin', 'member', 'viewer']);
    expect(roleList(' , ')).toEqual([]);
  });
  it('finds owner in a comma-joined role', () => {
    expect(isOwner('admin,owner')).toBe(true);
    expect(isOwner('owners')).toBe(false);
  });
});

describe('assertCanGrant', () => {
  it('lets a caller grant only non-read actions it holds', () => {
    const admin = scopeOf(['admin']).permissions;
    expect(() => assertCanGrant(admin, { task: ['update'], organization: ['update'] }, 'no')).not.toThrow();
    expect(() => assertCanGrant(admin, { organization: ['delete'] }, 'no')).toThrow(ForbiddenException);
    const member = scopeOf(['member']).permissions;
    expect(() => assertCanGrant(member, STATIC_ROLE_PERMISSIONS.viewer, 'no')).not.toThrow();
    expect(() => assertCanGrant(member, STATIC_ROLE_PERMISSIONS.admin, 'no')).toThrow('no');
  });
  it("narrows a caller's grants by its API key scopes", () => {
    const grantable = grantablePermissions(scopeOf(['owner']), user({ task: ['update'] }));
    expect(() => assertCanGrant(grantable, { task: ['update'] }, 'no')).not.toThrow();
    expect(() => assertCanGrant(grantable, { task: ['delete'] }, 'no')).toThrow(ForbiddenException);
    expect(
      grantablePermissions(scopeOf(['owner']), user())
        .get('organization')
        ?.has('delete'),
    ).toBe(true);
  });
});

describe('parsePermission', () => {
  it('accepts an object or its JSON string, dropping duplicates and empty lists', () => {
    expect(parsePermission({ task: ['update', 'update'], label: [] })).toEqual({ task: ['update'] });
    expect(parsePermission('{"project":["read","update"]}')).toEqual({ project: ['read', 'update'] });
  });
  it('refuses unknown resources and actions with the contract message, and malformed input', () => {
    const invalid = 'The provided permission includes an invalid resource';
    expect(() => parsePermission({ rocket: ['launch'] })).toThrow(invalid);
    expect(() => parsePermission({ task: ['launch'] })).toThrow(invalid);
    expect(() => parsePermission({ task: 'update' })).toThrow(invalid);
    expect(() => parsePermission('not json')).toThrow(BadRequestException);
    expect(() => parsePermission('[]')).toThrow('permission must be an object or a JSON string of one');
    expect(() => parsePermission({})).toThrow('permission must grant at least one action');
  });
});

describe('isPermanentSmtpError', () => {
  it('stops only on 5xx refusals of recipient or message', () => {
    expect(isPermanentSmtpError({ code: 'EENVELOPE', responseCode: 550 })).toBe(true);
    expect(isPermanentSmtpError({ code: 'EMESSAGE', responseCode: 554 })).toBe(true);
    expect(isPermanentSmtpError({ code: 'EENVELOPE', responseCode: 451 })).toBe(false);
    expect(isPermanentSmtpError({ code: 'EAUTH', responseCode: 535 })).toBe(false);
    expect(isPermanentSmtpError({ code: 'ECONNECTION' })).toBe(false);
    expect(isPermanentSmtpError(new Error('boom'))).toBe(false);
  });
});
