import { startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { createProject, createTask, ownerWithWorkspace } from '../../support/work-items';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ APP_ROLES: 'api' });
});
afterAll(() => t?.close());

const foundByKey = async (key: string, token: string) => {
  const res = await t.api.get(`/search?q=${encodeURIComponent(key)}&type=tasks`, token);
  expect(res.status).toBe(200);
  return (res.body.tasks as { id: string; number: number }[]).map((x) => x.id);
};

describe('keys of moved tasks (docs/decisions-local.md, "Work items", keys of moved tasks)', () => {
  it('the old key still finds a moved task, in its workspace only; a task holding that number in the old project wins', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const old = await createProject(t, owner.token, workspaceId, { slug: 'OLDKEY' });
    const dest = await createProject(t, owner.token, workspaceId, { slug: 'NEWKEY' });
    await createTask(t, owner.token, dest.id, { title: 'Already there' });
    await createTask(t, owner.token, old.id, { title: 'Stays' });
    const task = await createTask(t, owner.token, old.id, { title: 'Travels' });
    expect(task.number).toBe(2);

    const moved = await t.api.put(`/task/move/${task.id}`, { destinationProjectId: dest.id }, owner.token);
    expect([moved.status, moved.body.task.number]).toEqual([200, 2]);
    // NEWKEY-2 is its key now; OLDKEY-2, its key before the move, finds it too (any case).
    expect(await foundByKey('NEWKEY-2', owner.token)).toEqual([task.id]);
    expect(await foundByKey('OLDKEY-2', owner.token)).toEqual([task.id]);
    expect(await foundByKey('oldkey-2', owner.token)).toEqual([task.id]);

    // Moved on again: both earlier keys still find it.
    const third = await createProject(t, owner.token, workspaceId, { slug: 'THIRDKEY' });
    expect((await t.api.put(`/task/move/${task.id}`, { destinationProjectId: third.id }, owner.token)).status).toBe(200);
    expect(await foundByKey('OLDKEY-2', owner.token)).toEqual([task.id]);
    expect(await foundByKey('NEWKEY-2', owner.token)).toEqual([task.id]);
    expect(await foundByKey('THIRDKEY-1', owner.token)).toEqual([task.id]);

    // Another workspace with a project keyed OLDKEY sees nothing of it.
    const other = await ownerWithWorkspace(t);
    await createProject(t, other.owner.token, other.workspaceId, { slug: 'OLDKEY' });
    expect(await foundByKey('OLDKEY-2', other.owner.token)).toEqual([]);

    // A task that holds number 2 of OLDKEY now (numbers are not reused by the service; put in place
    // with SQL) is what OLDKEY-2 names.
    const [holder] = await sql(t.databaseUrl, `INSERT INTO task (workspace_id, project_id, number, title, status) VALUES ($1, $2, 2, 'Holder', 'to-do') RETURNING id`, [
      workspaceId,
      old.id,
    ]);
    expect(await foundByKey('OLDKEY-2', owner.token)).toEqual([holder.id]);
  });

  it('deleting the moved task forgets its old key', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const old = await createProject(t, owner.token, workspaceId, { slug: 'GONEA' });
    const dest = await createProject(t, owner.token, workspaceId, { slug: 'GONEB' });
    const task = await createTask(t, owner.token, old.id);
    expect((await t.api.put(`/task/move/${task.id}`, { destinationProjectId: dest.id }, owner.token)).status).toBe(200);
    expect(await foundByKey('GONEA-1', owner.token)).toEqual([task.id]);
    expect((await t.api.delete(`/task/${task.id}`, owner.token)).status).toBe(200);
    expect(await foundByKey('GONEA-1', owner.token)).toEqual([]);
    expect(await sql(t.databaseUrl, `SELECT 1 FROM task_former_key WHERE task_id = $1`, [task.id])).toEqual([]);
  });
});
