import { startTestApp, TestApp } from '../../support/app';
import { tableCounts } from '../../support/db-snapshot';
import { createProject, createTask, ownerWithWorkspace } from '../../support/work-items';
import { routeDtoClasses, unboundedFields, ValidatorFacts } from '../../support/dto-limits';
import { ImportTaskDto } from '../../../src/modules/task-bulk/dto/task-bulk.dto';

/**
 * The project's own validators (`ValidateBy` names) and what they bound. A new one must be added
 * here, which is the moment to give it a bound (docs/decisions-local.md, "Limits").
 */
const CUSTOM_VALIDATORS: Record<string, ValidatorFacts> = {
  isRequiredString: { string: true, stringBound: true }, // max, 1000 unless given
  isText: { string: true, stringBound: true },
  isClearableString: { string: true, stringBound: true },
  isTimestamp: { string: true, stringBound: true },
  isIdString: { string: true, stringBound: true },
  isBranchPattern: { string: true, stringBound: true },
  isRoleInput: { string: true, stringBound: true, array: true, arrayBound: true },
  isPermissionInput: { string: true, stringBound: true, object: true, objectBound: true }, // 10,000 characters as JSON
  maxJsonLength: { object: true, objectBound: true },
  isProjectIdList: { array: true, arrayBound: true, string: true, stringBound: true },
  bulkValue: { string: true, stringBound: true },
  isEvents: { object: true, objectBound: true }, // the event flags, booleans
  isIntInRange: {},
  isLeadTime: {}, // an integer from 0 to 43200
  isRequiredObject: { object: true },
  notificationLimit: {},
  deliveryLimit: {},
};

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ APP_ROLES: 'api' });
});
afterAll(() => t?.close());

it('every string field of every DTO has a maximum length and every array a maximum size', () => {
  const classes = routeDtoClasses(t.running.app, [ImportTaskDto]);

  const exempt = { 'ImportTasksDto.tasks': 'each task is validated as an ImportTaskDto, one of the classes checked here' };
  expect(unboundedFields(classes, CUSTOM_VALIDATORS, exempt)).toEqual([]);
});

it('a value past its limit is 400 {message} naming the field, and nothing is stored', async () => {
  const { owner, workspaceId: ws } = await ownerWithWorkspace(t);
  const tok = owner.token;
  const project = await createProject(t, tok, ws);
  const task = await createTask(t, tok, project.id);
  const before = await tableCounts(t.databaseUrl);
  const longId = 'a'.repeat(101);
  const cases: [string, string, unknown, string][] = [
    ['POST', `/task/${project.id}`, { title: 'x'.repeat(501) }, 'title'],
    ['POST', '/label', { name: 'L', color: '#000000', workspaceId: ws, taskId: longId }, 'taskId'],
    ['POST', '/time-entry', { taskId: task.id, startTime: `2024-01-01T00:00:00.${'0'.repeat(60)}Z` }, 'startTime'],
    ['POST', '/auth/organization/create-role', { role: 'r', permission: { task: ['read'] }, organizationId: ws, additionalFields: { a: 'x'.repeat(10_001) } }, 'additionalFields'],
    ['POST', '/auth/organization/create-role', { role: 'r', permission: { task: Array(2000).fill('read') }, organizationId: ws }, 'permission'],
    ['POST', '/auth/api-key/create', { permissions: { task: Array(2000).fill('read') } }, 'permissions'],
    ['POST', '/auth/organization/invite-member', { email: 'a@b.io', role: Array(21).fill('member'), organizationId: ws }, 'role'],
    ['POST', '/auth/organization/invite-member', { email: 'a@b.io', role: 'member,'.repeat(200), organizationId: ws }, 'role'],
    ['PUT', `/notification-preferences/workspaces/${ws}`, { selectedProjectIds: [longId] }, 'selectedProjectIds'],
    ['PUT', `/notification-preferences/workspaces/${ws}`, { selectedProjectIds: Array(501).fill(project.id) }, 'selectedProjectIds'],
    ['POST', '/auth/revoke-session', { id: longId }, 'id'],
    ['POST', '/auth/api-key/delete', { keyId: longId }, 'keyId'],
    ['GET', `/search?q=a&projectId=${longId}`, undefined, 'projectId'],
    ['GET', `/notification?before=${longId}`, undefined, 'before'],
  ];
  for (const [method, path, body, field] of cases) {
    const res = await t.api.request(method, path, body, { token: tok });
    expect([path, field, res.status, Object.keys(res.body ?? {})]).toEqual([path, field, 400, ['message']]);
    expect([path, res.body.message]).toEqual([path, expect.stringContaining(field)]);
  }
  // An id the permission guard resolves (here the workspace of a new project) is looked up before
  // validation: any malformed one, however long, is 404 like an unknown one.
  const guarded = await t.api.post('/project', { name: 'P', workspaceId: longId }, tok);
  expect([guarded.status, guarded.body]).toEqual([404, { message: 'Workspace not found' }]);
  expect(await tableCounts(t.databaseUrl)).toEqual(before);
});

it('a body over 1 MiB is 413 {message} before any route reads it', async () => {
  const { owner, workspaceId } = await ownerWithWorkspace(t);
  const project = await createProject(t, owner.token, workspaceId);
  const before = await tableCounts(t.databaseUrl);
  const res = await t.api.post(`/task/${project.id}`, { title: 't', description: 'x'.repeat(1024 * 1024) }, owner.token);
  expect([res.status, res.body]).toEqual([413, { message: 'Request body too large' }]);
  expect(await tableCounts(t.databaseUrl)).toEqual(before);
});
