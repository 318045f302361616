import { startTestApp, TestApp } from '../../support/app';
import { createProject, createTask } from '../../support/work-items';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const ORG = '/auth/organization';

describe('a custom role granting task:update and nothing else', () => {
  it('may move and edit tasks, and is refused project settings, column reorder and task creation', async () => {
    const owner = await t.api.signUp();
    const ws = await t.api.createWorkspace(owner.token, 'Custom roles');
    const role = await t.api.post(`${ORG}/create-role`, { role: 'mover', permission: { task: ['update'] }, organizationId: ws.id }, owner.token);
    expect(role.status).toBe(200);
    expect(role.body.roleData).toMatchObject({ role: 'mover', organizationId: ws.id, permission: { task: ['update'] } });

    // The user joins through the real invitation flow, then gets only the custom role.
    const mover = await t.api.signUp();
    const invite = await t.api.post(`${ORG}/invite-member`, { email: mover.user.email, role: 'member', organizationId: ws.id }, owner.token);
    expect(invite.status).toBe(200);
    const accepted = await t.api.post(`${ORG}/accept-invitation`, { invitationId: invite.body.id }, mover.token);
    expect(accepted.status).toBe(200);
    const memberId = accepted.body.member.id;
    const demoted = await t.api.post(`${ORG}/update-member-role`, { role: 'mover', memberId, organizationId: ws.id }, owner.token);
    expect(demoted.status).toBe(200);
    expect(demoted.body.member).toMatchObject({ id: memberId, role: 'mover' });

    const a = await createProject(t, owner.token, ws.id, { name: 'Alpha', slug: 'ALP' });
    const b = await createProject(t, owner.token, ws.id, { name: 'Beta', slug: 'BET' });
    const task = await createTask(t, owner.token, a.id, { title: 'Move me' });

    // Allowed: what task:update covers.
    const moved = await t.api.put(`/task/move/${task.id}`, { destinationProjectId: b.id }, mover.token);
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ sourceProjectId: a.id, destinationProjectId: b.id, task: { id: task.id, projectId: b.id } });
    const renamed = await t.api.put(`/task/title/${task.id}`, { title: 'Moved by a custom role' }, mover.token);
    expect(renamed.status).toBe(200);
    expect(renamed.body.title).toBe('Moved by a custom role');
    // Reads need membership only.
    expect((await t.api.get(`/task/${task.id}`, mover.token)).status).toBe(200);

    // Refused: project settings, column order, creating tasks, assigning.
    const rename = await t.api.put(`/project/${a.id}`, { name: 'Renamed' }, mover.token);
    expect(rename.status).toBe(403);
    expect(rename.body).toEqual({ message: 'Insufficient permissions: project:update is needed' });
    const columns = (await t.api.get(`/column/${a.id}`, mover.token)).body;
    const reorder = await t.api.put(`/column/reorder/${a.id}`, { columns: columns.map((c: any, i: number) => ({ id: c.id, position: columns.length - i })) }, mover.token);
    expect(reorder.status).toBe(403);
    expect((await t.api.post(`/task/${a.id}`, { title: 'New' }, mover.token)).status).toBe(403);
    expect((await t.api.put(`/task/assignee/${task.id}`, { userId: mover.user.id }, mover.token)).status).toBe(403);

    // Nothing refused was changed.
    expect((await t.api.get(`/project/${a.id}`, owner.token)).body.name).toBe('Alpha');
    const after = (await t.api.get(`/column/${a.id}`, owner.token)).body;
    expect(after.map((c: any) => c.id)).toEqual(columns.map((c: any) => c.id));

    // The same role name means nothing in another workspace.
    const other = await t.api.createWorkspace(owner.token, 'Elsewhere');
    const elsewhere = await createProject(t, owner.token, other.id, { name: 'Gamma', slug: 'GAM' });
    const foreignTask = await createTask(t, owner.token, elsewhere.id, { title: 'Not yours' });
    expect((await t.api.put(`/task/title/${foreignTask.id}`, { title: 'x' }, mover.token)).status).toBe(404);
  });
});
