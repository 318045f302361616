import { startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { statementsOf } from '../../support/query-counter';
import { until } from '../../support/until';
import { createProject, createTask, MISSING_ID, taskOnBoard } from '../../support/work-items';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

/**
 * The statements of `fn`, once the outbox relay (in this process) has committed what earlier
 * calls queued: its transaction's statements are not the request's.
 */
async function measured<T>(fn: () => Promise<T>) {
  await until('the outbox to be relayed', async () => (await sql(t.databaseUrl, `SELECT count(*)::int AS n FROM outbox`))[0].n === 0);
  return statementsOf(fn);
}

/**
 * The spec's PUTs are one write statement after the session check, which also does the
 * permission guard's lookup (docs/benchmarks.md, "Writes"): these tests count the statements and
 * check that folding the reads into the write kept every rule.
 */
describe('the cost of the spec PUTs', () => {
  it('PUT /label/:id: 2 statements; a catalogue label carries its copies along; a taken name is 409 and changes nothing', async () => {
    const { owner, workspaceId, project, task } = await taskOnBoard(t);
    const other = await createTask(t, owner.token, project.id);
    const bug = (await t.api.post('/label', { name: 'Bug', color: '#EF4444', workspaceId, taskId: task.id }, owner.token)).body;
    await t.api.put(`/label/${bug.id}/task`, { taskId: other.id }, owner.token);
    const [catalogue] = await sql(t.databaseUrl, `SELECT id FROM label WHERE workspace_id = $1 AND task_id IS NULL AND name = 'Bug'`, [workspaceId]);
    await t.api.post('/label', { name: 'Feature', color: '#22C55E', workspaceId }, owner.token);
    await t.api.put(`/label/${catalogue.id}`, { color: '#000000' }, owner.token); // warm-up

    const { result, statements } = await measured(() => t.api.put(`/label/${catalogue.id}`, { name: 'Defect', color: 'red' }, owner.token));
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ id: catalogue.id, name: 'Defect', taskId: null });
    expect(statements).toHaveLength(2);
    const copies = await sql(t.databaseUrl, `SELECT name, color FROM label WHERE catalog_label_id = $1 ORDER BY task_id`, [catalogue.id]);
    expect(copies).toEqual([
      { name: 'Defect', color: result.body.color },
      { name: 'Defect', color: result.body.color },
    ]);

    const taken = await t.api.put(`/label/${catalogue.id}`, { name: 'feature', color: '#111111' }, owner.token);
    expect([taken.status, taken.body]).toEqual([409, { message: 'A label named "feature" already exists' }]);
    const after = await sql(t.databaseUrl, `SELECT DISTINCT name, color FROM label WHERE id = $1 OR catalog_label_id = $1`, [catalogue.id]);
    expect(after).toEqual([{ name: 'Defect', color: result.body.color }]);
    expect((await t.api.put(`/label/${MISSING_ID}`, { name: 'x' }, owner.token)).status).toBe(404);
  });

  it('PUT /time-entry/:id: 2 statements; the duration follows the times in whole seconds; invalid results are 400 and change nothing', async () => {
    const { owner, task } = await taskOnBoard(t);
    const e = (await t.api.post('/time-entry', { taskId: task.id, startTime: '2025-03-01T09:00:00Z' }, owner.token)).body;
    await t.api.put(`/time-entry/${e.id}`, { description: 'warm-up' }, owner.token);

    const { result, statements } = await measured(() => t.api.put(`/time-entry/${e.id}`, { endTime: '2025-03-01T09:00:02.999Z' }, owner.token));
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ startTime: '2025-03-01T09:00:00.000Z', endTime: '2025-03-01T09:00:02.999Z', duration: 2, description: 'warm-up' });
    expect(statements).toHaveLength(2);

    const before = await sql(t.databaseUrl, `SELECT start_time, end_time, duration, description, updated_at FROM time_entry WHERE id = $1`, [e.id]);
    for (const [body, message] of [
      [{ startTime: '2025-03-01T09:00:03Z' }, 'Start time cannot be after end time'],
      [{ startTime: '1950-01-01T00:00:00Z', description: 'long' }, 'Time entry cannot be longer than 68 years'],
    ] as const) {
      const res = await t.api.put(`/time-entry/${e.id}`, body, owner.token);
      expect([res.status, res.body]).toEqual([400, { message }]);
    }
    expect(await sql(t.databaseUrl, `SELECT start_time, end_time, duration, description, updated_at FROM time_entry WHERE id = $1`, [e.id])).toEqual(before);

    // Clearing the description, then the end: a running timer again, duration 0.
    const cleared = await t.api.put(`/time-entry/${e.id}`, { description: null, endTime: null }, owner.token);
    expect(cleared.body).toMatchObject({ endTime: null, duration: 0, description: null });
    expect((await t.api.put(`/time-entry/${MISSING_ID}`, { description: 'x' }, owner.token)).body).toEqual({ message: 'Time entry not found' });
  });

  it('PUT /column/reorder/:projectId: 2 statements; concurrent reorders of one board all succeed and leave one of the orders asked for', async () => {
    const { owner, workspaceId } = await taskOnBoard(t);
    const p = await createProject(t, owner.token, workspaceId);
    const cols: { id: string }[] = (await t.api.get(`/column/${p.id}`, owner.token)).body;
    const ids = cols.map((c) => c.id);
    const order = (k: number) => ids.map((id, i) => ({ id, position: (i + k) % ids.length }));
    await t.api.put(`/column/reorder/${p.id}`, { columns: order(0) }, owner.token); // warm-up

    const { result, statements } = await measured(() => t.api.put(`/column/reorder/${p.id}`, { columns: order(1) }, owner.token));
    expect([result.status, result.body]).toEqual([200, {}]);
    expect(statements).toHaveLength(2);

    // Different orders of the same columns at once, each listing them in its own order: all 200 (no deadlock).
    const asks = Array.from({ length: 16 }, (_, k) => (k % 2 ? order(k) : [...order(k)].reverse()));
    const answers = await Promise.all(asks.map((columns) => t.api.put(`/column/reorder/${p.id}`, { columns }, owner.token)));
    expect(answers.map((a) => a.status)).toEqual(asks.map(() => 200));
    const final = await sql(t.databaseUrl, `SELECT id, position FROM board_column WHERE project_id = $1`, [p.id]);
    // Each order as the positions of `ids` in turn.
    const positions = (list: { id: string; position: number }[]) => ids.map((id) => list.find((c) => c.id === id)!.position).join(',');
    expect(asks.map(positions)).toContain(positions(final));

    // A column of another project: 400 naming it, and nothing moves.
    const q = await createProject(t, owner.token, workspaceId);
    const foreign = (await t.api.get(`/column/${q.id}`, owner.token)).body[0].id;
    const res = await t.api.put(`/column/reorder/${p.id}`, { columns: [...order(3), { id: foreign, position: 9 }] }, owner.token);
    expect([res.status, res.body]).toEqual([400, { message: `Column ${foreign} does not belong to this project` }]);
    expect(await sql(t.databaseUrl, `SELECT id, position FROM board_column WHERE project_id = $1`, [p.id])).toEqual(final);
  });

  it('the session check that also locates the resource answers 401 for a dead session, whether the resource exists, is foreign or is missing', async () => {
    const { owner, task } = await taskOnBoard(t);
    const other = await taskOnBoard(t);
    const u = await t.api.signUp();
    expect((await t.api.get(`/task/${other.task.id}`, u.token)).status).toBe(404);
    await t.api.post('/auth/sign-out', undefined, u.token);
    await t.api.post('/auth/sign-out', undefined, owner.token);
    for (const [token, id] of [
      [owner.token, task.id],
      [owner.token, MISSING_ID],
      [u.token, other.task.id],
    ]) {
      const res = await t.api.put(`/task/status/${id}`, { status: 'done' }, token);
      expect([res.status, res.body]).toEqual([401, { message: 'Unauthorized' }]);
    }
    const [{ status }] = await sql(t.databaseUrl, `SELECT status FROM task WHERE id = $1`, [task.id]);
    expect(status).toBe(task.status);
  });
});
