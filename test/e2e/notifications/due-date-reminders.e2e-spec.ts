import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { Auth } from '../../support/api';
import { startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { HttpReceiver } from '../../support/http-receiver';
import { Launched, launchWorker } from '../../support/launcher';
import { until } from '../../support/until';
import { createProject, createTask, ownerWithWorkspace, userWithRole } from '../../support/work-items';
import { addIntegration, rand } from '../integrations/delivery-support';
import { notificationRows, savePreferences } from './notification-support';

/**
 * Due-date reminders and overdue notices (docs/notifications.md, "Due dates"): on time, to the
 * assignee and the watchers who want them, once per (task, due date, kind, person) with several
 * workers and a worker killed at the due time; re-armed by a new due date; none for a finished or
 * deleted task; integrations that chose `dueDateReminder` get `task.due_date_reminder`.
 */
jest.setTimeout(120_000);

const TICK = '200';
const receiver = new HttpReceiver();
beforeAll(() => receiver.start());
afterAll(() => receiver.stop());

const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();
const reminders = async (t: TestApp, u: Auth) => (await notificationRows(t, u.user.id)).filter((n: any) => n.type === 'due_date_reminder' || n.type === 'task_overdue');
/** Waits until a scan has covered `at` and then some: whatever was due by then has been written. */
const scannedPast = (t: TestApp, at: string) =>
  until(`the reminder scan past ${at}`, async () => {
    const [{ ok }] = await sql(t.databaseUrl, `SELECT scanned_to > $1::timestamptz + interval '1 second' AS ok FROM reminder_clock`, [at]);
    return ok;
  });
const ledger = (t: TestApp, taskId: string) =>
  sql(t.databaseUrl, `SELECT kind, recipient_type, recipient_id, due_date FROM reminder_sent WHERE task_id = $1 ORDER BY created_at, kind, recipient_id`, [taskId]);

async function team(t: TestApp) {
  const { owner, workspaceId } = await ownerWithWorkspace(t);
  const bob = await userWithRole(t, workspaceId, 'member');
  const carol = await userWithRole(t, workspaceId, 'member');
  const dave = await userWithRole(t, workspaceId, 'member');
  const project = await createProject(t, owner.token, workspaceId, { name: 'Apollo' });
  // A minute ahead: a due date set less than a minute away is reminded of at once.
  for (const u of [owner, bob, carol]) await savePreferences(t, u.token, { dueDateReminderLeadTimeMinutes: 1 });
  await savePreferences(t, dave.token, { dueDateReminderEnabled: false });
  return { owner, bob, carol, dave, workspaceId, project };
}

describe('due-date reminders in one process', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ REMINDER_TICK_MS: TICK, NOTIFICATION_BATCH_WINDOW_MS: '0', ALLOW_PRIVATE_DESTINATIONS: 'true' });
  });
  afterAll(() => t?.close());

  it('the preferences hold the choice and the lead time, validated', async () => {
    const { owner } = await ownerWithWorkspace(t);
    const first = await t.api.get('/notification-preferences', owner.token);
    expect(first.body).toMatchObject({ dueDateReminderEnabled: true, dueDateReminderLeadTimeMinutes: 1440 });
    const saved = await savePreferences(t, owner.token, { dueDateReminderEnabled: false, dueDateReminderLeadTimeMinutes: 43200 });
    expect(saved).toMatchObject({ dueDateReminderEnabled: false, dueDateReminderLeadTimeMinutes: 43200 });
    for (const [body, message] of [
      [{ dueDateReminderLeadTimeMinutes: 43201 }, 'dueDateReminderLeadTimeMinutes must be an integer from 0 to 43200'],
      [{ dueDateReminderLeadTimeMinutes: -1 }, 'dueDateReminderLeadTimeMinutes must be an integer from 0 to 43200'],
      [{ dueDateReminderLeadTimeMinutes: 1.5 }, 'dueDateReminderLeadTimeMinutes must be an integer from 0 to 43200'],
      [{ dueDateReminderLeadTimeMinutes: '60' }, 'dueDateReminderLeadTimeMinutes must be an integer from 0 to 43200'],
      [{ dueDateReminderEnabled: 'yes' }, 'dueDateReminderEnabled must be a boolean value'],
    ] as const) {
      const res = await t.api.put('/notification-preferences', body, owner.token);
      expect([res.status, res.body.message]).toEqual([400, message]);
    }
    expect((await t.api.get('/notification-preferences', owner.token)).body).toMatchObject({ dueDateReminderEnabled: false, dueDateReminderLeadTimeMinutes: 43200 });
  });

  it('a reminder before the due date and an overdue notice when it passes, to the assignee and the watchers who want them, once each', async () => {
    const { owner, bob, carol, dave, project } = await team(t);
    const hook = `/hook-${rand()}`;
    await savePreferences(t, bob.token, { webhookEnabled: true, webhookUrl: `${receiver.url}${hook}` });
    const due = inSeconds(3);
    const task = await createTask(t, owner.token, project.id, { title: 'Launch', userId: bob.user.id, dueDate: due });
    for (const u of [carol, dave]) expect((await t.api.post(`/task/${task.id}/watch`, {}, u.token)).status).toBe(200);

    // Due in 3 s, with a minute's lead: the reminder comes at once; the overdue notice once the due date passed.
    const [reminder] = await until('bob reminded', async () => (await reminders(t, bob)).length >= 1 && reminders(t, bob));
    expect(reminder).toMatchObject({ type: 'due_date_reminder', title: `Your task is due ${due.slice(0, 10)} ${due.slice(11, 16)} UTC`, task_id: task.id, actor_id: null });
    expect(Date.now()).toBeLessThan(Date.parse(due));
    const [, overdue] = await until('bob told it is overdue', async () => (await reminders(t, bob)).length >= 2 && reminders(t, bob), 30_000);
    expect(overdue).toMatchObject({ type: 'task_overdue', title: 'Your task is overdue' });
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(due));
    await scannedPast(t, inSeconds(0));

    // Carol watches: the same two, as a watcher; the owner (creator) too; Dave turned them off.
    expect((await reminders(t, carol)).map((n: any) => [n.type, n.title])).toEqual([
      ['due_date_reminder', `A task you watch is due ${due.slice(0, 10)} ${due.slice(11, 16)} UTC`],
      ['task_overdue', 'A task you watch is overdue'],
    ]);
    expect((await reminders(t, owner)).map((n: any) => n.type)).toEqual(['due_date_reminder', 'task_overdue']);
    expect(await reminders(t, dave)).toEqual([]);
    expect((await reminders(t, bob)).map((n: any) => n.type)).toEqual(['due_date_reminder', 'task_overdue']);
    // Bob's webhook got both, named as the notifications, with the due date (not whom else it was for).
    const hooks = (await receiver.waitFor(hook, 3)).filter((h) => h.json.event !== 'task.created');
    expect(hooks.map((h) => h.json.event).sort()).toEqual(['due_date_reminder', 'task_overdue']);
    expect(hooks.map((h) => h.json.data)).toEqual([{ dueDate: due }, { dueDate: due }]);
    expect(await ledger(t, task.id)).toHaveLength(6);
  });

  it('a due date moved twice re-arms them; an earlier due date never passed tells nothing of being overdue', async () => {
    const { owner, bob, project } = await team(t);
    const first = inSeconds(2);
    const task = await createTask(t, owner.token, project.id, { title: 'Moving', userId: bob.user.id, dueDate: first });
    await until('the first reminder', async () => (await reminders(t, bob)).length >= 1);
    // Moved a week on (no reminder yet), then back to 3 s from now (a reminder at once, then overdue).
    expect((await t.api.put(`/task/due-date/${task.id}`, { dueDate: inSeconds(7 * 86400) }, owner.token)).status).toBe(200);
    const last = inSeconds(3);
    expect((await t.api.put(`/task/due-date/${task.id}`, { dueDate: last }, owner.token)).status).toBe(200);
    await until('the last overdue notice', async () => (await reminders(t, bob)).some((n: any) => n.type === 'task_overdue'), 30_000);
    await scannedPast(t, inSeconds(0));
    const rows = await ledger(t, task.id);
    const bobs = rows.filter((r) => r.recipient_id === bob.user.id).map((r) => [r.kind, r.due_date.toISOString()]);
    expect(bobs).toEqual([
      ['reminder', first],
      ['reminder', last],
      ['overdue', last],
    ]);
    expect((await reminders(t, bob)).map((n: any) => n.type)).toEqual(['due_date_reminder', 'due_date_reminder', 'task_overdue']);
  });

  it('a task finished or deleted before its due date tells nobody it is overdue', async () => {
    const { owner, bob, project } = await team(t);
    const columns = await t.api.get(`/column/${project.id}`, owner.token);
    const final = columns.body.find((c: any) => c.isFinal) ?? columns.body[columns.body.length - 1];
    if (!final.isFinal) expect((await t.api.put(`/column/${final.id}`, { isFinal: true }, owner.token)).status).toBe(200);
    const due = inSeconds(3);
    const done = await createTask(t, owner.token, project.id, { title: 'Done', userId: bob.user.id, dueDate: due });
    const gone = await createTask(t, owner.token, project.id, { title: 'Gone', userId: bob.user.id, dueDate: due });
    await until('both reminded', async () => (await reminders(t, bob)).length >= 2);
    expect((await t.api.put(`/task/status/${done.id}`, { status: final.slug }, owner.token)).status).toBe(200);
    expect((await t.api.delete(`/task/${gone.id}`, owner.token)).status).toBe(200);
    await until('the due date passed', async () => Date.now() > Date.parse(due) + 500);
    await scannedPast(t, inSeconds(0));
    expect((await reminders(t, bob)).map((n: any) => n.type)).toEqual(['due_date_reminder', 'due_date_reminder']);
    expect((await ledger(t, done.id)).map((r) => r.kind)).toEqual(['reminder', 'reminder']);
    expect(await ledger(t, gone.id)).toEqual([]);
  });

  it('an integration that chose dueDateReminder gets task.due_date_reminder its lead time before; others get nothing', async () => {
    const { owner, project } = await team(t);
    const chosen = `/chosen-${rand()}`;
    const plain = `/plain-${rand()}`;
    const id = await addIntegration(t, owner.token, project.id, { type: 'generic-webhook', webhookUrl: `${receiver.url}${chosen}`, events: { dueDateReminder: true } });
    const patched = await t.api.patch(`/generic-webhook-integration/project/${project.id}`, { dueDateReminderLeadTimeMinutes: 2 }, owner.token);
    expect(patched.body).toMatchObject({ id, dueDateReminderLeadTimeMinutes: 2, events: { dueDateReminder: true } });
    const bad = await t.api.patch(`/generic-webhook-integration/project/${project.id}`, { dueDateReminderLeadTimeMinutes: 50000 }, owner.token);
    expect([bad.status, bad.body.message]).toEqual([400, 'dueDateReminderLeadTimeMinutes must be an integer from 0 to 43200']);
    await addIntegration(t, owner.token, project.id, { type: 'teamchat', webhookUrl: `${receiver.url}${plain}`, events: { taskCreated: false } });
    // Due in 90 s: inside the webhook's 2 minutes, so at once; a second task due in a day is not yet.
    const due = inSeconds(90);
    const task = await createTask(t, owner.token, project.id, { title: 'Launch', dueDate: due });
    await createTask(t, owner.token, project.id, { title: 'Later', dueDate: inSeconds(86400) });
    const [req] = await receiver.waitFor(chosen, 1);
    expect(req.json).toMatchObject({ event: 'task.due_date_reminder', task: { id: task.id, title: 'Launch' }, actor: null, data: { dueDate: due } });
    await scannedPast(t, inSeconds(0));
    expect(receiver.to(chosen)).toHaveLength(1);
    expect(receiver.to(plain)).toHaveLength(0);
  });
});

describe('due-date reminders with several workers', () => {
  const ENCRYPTION_KEY = randomBytes(32).toString('hex');
  let api: TestApp;
  const workers: Launched[] = [];
  const startWorker = async () => {
    const w = await launchWorker(api, ENCRYPTION_KEY, { REMINDER_TICK_MS: TICK, NOTIFICATION_BATCH_WINDOW_MS: '0' });
    workers.push(w);
    return w;
  };
  beforeAll(async () => {
    api = await startTestApp({ APP_ROLES: 'api', ENCRYPTION_KEY });
  });
  afterAll(async () => {
    await Promise.all(workers.splice(0).map((w) => w.kill('SIGKILL')));
    await api?.close();
  });

  it('a worker killed at the due time while its scan is in flight, another started, a third beside it: each reminder once', async () => {
    const { owner, bob, project } = await team(api);
    const first = await startWorker();
    const due = inSeconds(4);
    const tasks = await Promise.all(Array.from({ length: 20 }, (_, i) => createTask(api, owner.token, project.id, { title: `T${i}`, userId: bob.user.id, dueDate: due })));
    await until('20 reminders', async () => (await reminders(api, bob)).length >= 20, 30_000);

    // Hold every write into the outbox: the scan that finds the tasks overdue writes its ledger rows
    // and then waits in its statement for the lock. Kill its worker right there.
    const blocker = new Client({ connectionString: api.databaseUrl });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE outbox IN SHARE ROW EXCLUSIVE MODE');
      await until('a scan waiting at the due time', async () => {
        if (Date.now() < Date.parse(due)) return false;
        const waiting = await sql(api.databaseUrl, `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%reminder_clock%'`);
        return waiting.length > 0;
      });
      await first.kill('SIGKILL');
      await Promise.all([startWorker(), startWorker()]);
    } finally {
      await blocker.query('ROLLBACK');
      await blocker.end();
    }
    await until('20 overdue notices', async () => (await reminders(api, bob)).filter((n: any) => n.type === 'task_overdue').length >= 20, 30_000);
    await scannedPast(api, inSeconds(0));
    // Two more scans of the workers that live, after everything settled: still nothing twice.
    const settledAt = inSeconds(0);
    await scannedPast(api, settledAt);
    const told = await reminders(api, bob);
    expect(told.filter((n: any) => n.type === 'due_date_reminder')).toHaveLength(20);
    expect(told.filter((n: any) => n.type === 'task_overdue')).toHaveLength(20);
    expect(new Set(told.map((n: any) => `${n.type} ${n.task_id}`)).size).toBe(40);
    const [{ n }] = await sql(api.databaseUrl, `SELECT count(*)::int AS n FROM reminder_sent WHERE task_id = ANY($1::uuid[]) AND recipient_id = $2`, [
      tasks.map((x) => x.id),
      bob.user.id,
    ]);
    expect(n).toBe(40);
  });
});
