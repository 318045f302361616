import { randomBytes, randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../../src/database/data-source-options';
import { MIGRATIONS } from '../../../src/database/migrations';
import { OUTBOX_LISTENER_NAME } from '../../../src/queue/outbox-listener';
import { OutboxService } from '../../../src/queue/outbox.service';
import { QueueName } from '../../../src/queue/queues';
import { redisOptionsFromUrl } from '../../../src/redis/redis-options';
import { runRedisUrl, startTestApp, TestApp } from '../../support/app';
import { DB_PREFIX, urlFor, withAdmin } from '../../support/db';
import { addMember, sql } from '../../support/fixtures';
import { until as waitUntil } from '../../support/until';
import { jobOfEvent } from '../integrations/delivery-support';

const REDIS_URL = runRedisUrl();
/** Far longer than any wait below: a row that arrives did not wait for a poll. */
const LONG_POLL_MS = 600_000;
/** How long a test waits for something that should take milliseconds (a deadline, not a measurement). */
const DEADLINE_MS = 10_000;

const until = <T>(what: string, probe: () => Promise<T | null | undefined | false>) => waitUntil(what, probe, DEADLINE_MS);

function emailQueue(t: TestApp): Queue {
  return new Queue(QueueName.Email, { connection: redisOptionsFromUrl(REDIS_URL), prefix: `${t.queuePrefix}:bull` });
}

/** An email job no composer can send (no such invitation): the worker skips it, which is all these tests need. */
const job = (id?: string) => ({ queue: QueueName.Email, name: 'invitation', payload: { invitationId: randomUUID(), send: 1 }, id });

/** The listening connection's backend, once it has issued LISTEN. */
async function listenerPid(databaseUrl: string): Promise<number | undefined> {
  const [row] = await sql(
    databaseUrl,
    `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1 AND query ILIKE 'LISTEN%' AND state = 'idle'`,
    [OUTBOX_LISTENER_NAME],
  );
  return row?.pid;
}

describe('with polling practically off (OUTBOX_POLL_MS = 10 minutes)', () => {
  let t: TestApp;
  let queue: Queue;
  let ds: DataSource;
  let outbox: OutboxService;
  beforeAll(async () => {
    t = await startTestApp({ OUTBOX_POLL_MS: String(LONG_POLL_MS) });
    queue = emailQueue(t);
    ds = t.running.app.get(DataSource);
    outbox = t.running.app.get(OutboxService);
    await until('the outbox listener', () => listenerPid(t.databaseUrl));
  });
  afterAll(async () => {
    await queue?.close();
    await t?.close();
  });

  it('a committed row reaches its queue at once, with the row id as job id, and leaves the outbox', async () => {
    const id = await ds.transaction((m) => outbox.enqueue(m, job()));
    const queued = await until('the job', () => queue.getJob(id));
    expect(queued.name).toBe('invitation');
    await until('the row to leave the outbox', async () => (await sql(t.databaseUrl, `SELECT 1 FROM outbox WHERE id = $1`, [id])).length === 0);
  });

  it('a row of a rolled-back transaction is never published; one committed after it is', async () => {
    const rolledBack = `rolled-back-${randomBytes(4).toString('hex')}`;
    await expect(
      ds.transaction(async (m) => {
        await outbox.enqueue(m, job(rolledBack));
        throw new Error('the change fails');
      }),
    ).rejects.toThrow('the change fails');
    const committed = await ds.transaction((m) => outbox.enqueue(m, job()));
    await until('the committed job', () => queue.getJob(committed));
    expect(await queue.getJob(rolledBack)).toBeUndefined();
    expect(await sql(t.databaseUrl, `SELECT 1 FROM outbox WHERE id = $1`, [rolledBack])).toHaveLength(0);
  });

  it('asking twice for the same job id keeps one row and one job', async () => {
    const id = `same-${randomBytes(4).toString('hex')}`;
    await ds.transaction(async (m) => {
      expect(await outbox.enqueue(m, job(id))).toBe(id);
      expect(await outbox.enqueue(m, job(id))).toBe(id);
      expect(await m.query(`SELECT count(*)::int AS n FROM outbox WHERE id = $1`, [id])).toEqual([{ n: 1 }]);
    });
    await until('the job', () => queue.getJob(id));
    await expect(outbox.enqueue(ds.manager, job('a:b'))).rejects.toThrow(/must not/);
  });

  it('an auto-committed task change wakes the relay after its commit; nothing notifies from inside a transaction', async () => {
    const owner = await t.api.signUp();
    const ws = await t.api.createWorkspace(owner.token);
    const project = (await t.api.post('/project', { name: 'Wake', workspaceId: ws.id }, owner.token)).body;
    // Someone must hear of the event, or the relay drops it without a job (next test).
    expect((await t.api.post(`/generic-webhook-integration/project/${project.id}`, { webhookUrl: 'https://hooks.example.com/wake' }, owner.token)).status).toBe(200);
    const task = (await t.api.post(`/task/${project.id}`, { title: 'Wake up' }, owner.token)).body;
    const [created] = await sql(t.databaseUrl, `SELECT id FROM activity WHERE task_id = $1 AND type = 'created'`, [task.id]);
    const events = new Queue(QueueName.TaskEvents, { connection: redisOptionsFromUrl(REDIS_URL), prefix: `${t.queuePrefix}:bull` });
    try {
      await until('the task event job', () => jobOfEvent(events, created.id));
    } finally {
      await events.close();
    }
    // A notifying transaction would serialise every commit that writes an event: no trigger may notify.
    expect(await sql(t.databaseUrl, `SELECT tgname FROM pg_trigger WHERE tgrelid = 'outbox'::regclass AND NOT tgisinternal`)).toEqual([]);
  });

  it('a task event nobody hears of leaves the outbox without a job; one an integration or the assignee hears of is queued', async () => {
    const owner = await t.api.signUp();
    const ws = await t.api.createWorkspace(owner.token);
    const bob = await t.api.signUp();
    await addMember(t.databaseUrl, ws.id, bob.user.id, 'member');
    const quiet = (await t.api.post('/project', { name: 'Quiet', workspaceId: ws.id }, owner.token)).body;
    const hooked = (await t.api.post('/project', { name: 'Hooked', workspaceId: ws.id }, owner.token)).body;
    // Only comments reach this integration.
    const events = { taskCreated: false, taskStatusChanged: false, taskCommentCreated: true };
    expect((await t.api.post(`/generic-webhook-integration/project/${hooked.id}`, { webhookUrl: 'https://hooks.example.com/q', events }, owner.token)).status).toBe(200);

    const eventId = async (taskId: string, type: string) => (await sql(t.databaseUrl, `SELECT id FROM activity WHERE task_id = $1 AND type = $2`, [taskId, type]))[0].id;
    const a = (await t.api.post(`/task/${quiet.id}`, { title: 'Nobody hears', userId: owner.user.id }, owner.token)).body; // the actor is not told of their own change
    const b = (await t.api.post(`/task/${hooked.id}`, { title: 'Created, not selected' }, owner.token)).body;
    expect((await t.api.post(`/comment/${b.id}`, { content: 'selected' }, owner.token)).status).toBe(200);
    const c = (await t.api.post(`/task/${quiet.id}`, { title: 'For Bob', userId: bob.user.id }, owner.token)).body;
    const heard = [await eventId(b.id, 'comment'), await eventId(c.id, 'created')];
    const unheard = [await eventId(a.id, 'created'), await eventId(b.id, 'created')];

    const jobs = new Queue(QueueName.TaskEvents, { connection: redisOptionsFromUrl(REDIS_URL), prefix: `${t.queuePrefix}:bull` });
    try {
      for (const id of heard) await until(`the job of event ${id}`, () => jobOfEvent(jobs, id));
      await until('the outbox to empty', async () => (await sql(t.databaseUrl, `SELECT 1 FROM outbox WHERE id = ANY($1::text[])`, [[...heard, ...unheard]])).length === 0);
      for (const id of unheard) expect(await jobOfEvent(jobs, id)).toBeUndefined();
    } finally {
      await jobs.close();
    }
  });

  it("a batch's delete and commit do not hold up the next batch: its claim passes over the rows still being deleted", async () => {
    // Deleting a marked row waits for an advisory lock the test holds: the transaction of its
    // batch stays open, after its job is queued, until the test lets it go.
    const LOCK = 3_117_001;
    await sql(
      t.databaseUrl,
      `CREATE FUNCTION outbox_held_delete() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN IF OLD.payload->>'held' = 'yes' THEN PERFORM pg_advisory_xact_lock_shared(${LOCK}); END IF; RETURN OLD; END $$`,
    );
    await sql(t.databaseUrl, `CREATE TRIGGER outbox_held_delete BEFORE DELETE ON outbox FOR EACH ROW EXECUTE FUNCTION outbox_held_delete()`);
    const waitingForTheLock = async () =>
      (
        await sql(
          t.databaseUrl,
          `SELECT 1 FROM pg_locks l JOIN pg_database d ON d.oid = l.database
            WHERE d.datname = current_database() AND l.locktype = 'advisory' AND l.objid = $1 AND NOT l.granted`,
          [LOCK],
        )
      ).length > 0;
    const holder = new Client({ connectionString: t.databaseUrl });
    await holder.connect();
    let held = true;
    const release = async () => {
      if (held) await holder.query('SELECT pg_advisory_unlock($1)', [LOCK]);
      held = false;
    };
    try {
      await holder.query('SELECT pg_advisory_lock($1)', [LOCK]);
      const first = await ds.transaction((m) => outbox.enqueue(m, { ...job(), payload: { invitationId: randomUUID(), send: 1, held: 'yes' } }));
      await until('the first job', () => queue.getJob(first));
      // Its batch is now deleting the row, blocked on the lock.
      await until('the first batch to wait for the lock', waitingForTheLock);
      const next = await ds.transaction((m) => outbox.enqueue(m, job()));
      await until('the next job', () => queue.getJob(next));
      // Queued while the first batch's transaction was still open.
      expect(await sql(t.databaseUrl, `SELECT 1 FROM outbox WHERE id = $1`, [first])).toHaveLength(1);
      await release();
      await until('both rows to leave the outbox', async () => (await sql(t.databaseUrl, `SELECT 1 FROM outbox WHERE id = ANY($1::text[])`, [[first, next]])).length === 0);
    } finally {
      await release();
      await holder.end();
      await sql(t.databaseUrl, `DROP TRIGGER IF EXISTS outbox_held_delete ON outbox`);
      await sql(t.databaseUrl, `DROP FUNCTION IF EXISTS outbox_held_delete()`);
    }
  });

  it('listens again after its database connection is cut, and then relays at once', async () => {
    const before = await until('the outbox listener', () => listenerPid(t.databaseUrl));
    await sql(t.databaseUrl, `SELECT pg_terminate_backend($1)`, [before]);
    const after = await until('a new listening connection', async () => {
      const pid = await listenerPid(t.databaseUrl);
      return pid !== before && pid;
    });
    expect(after).not.toBe(before);
    const id = await ds.transaction((m) => outbox.enqueue(m, job()));
    await until('the job', () => queue.getJob(id));
  });
});

describe('polling', () => {
  let t: TestApp;
  let queue: Queue;
  beforeAll(async () => {
    t = await startTestApp({ OUTBOX_POLL_MS: '200' });
    queue = emailQueue(t);
  });
  afterAll(async () => {
    await queue?.close();
    await t?.close();
  });

  it('relays a row whose notification never came', async () => {
    const id = `unannounced-${randomBytes(4).toString('hex')}`;
    // Written by hand, outside the service: no wake follows the commit.
    await sql(t.databaseUrl, `INSERT INTO outbox (id, queue, name, payload) VALUES ('${id}', 'email', 'invitation', '{}')`);
    await until('the job', () => queue.getJob(id));
  });
});

describe('the Outbox migration', () => {
  it('moves waiting email_outbox rows into the outbox and drops email_outbox', async () => {
    const db = `${DB_PREFIX}outbox_${randomBytes(4).toString('hex')}`;
    await withAdmin((c) => c.query(`CREATE DATABASE "${db}"`));
    const index = MIGRATIONS.findIndex((m) => new m().name === 'Outbox1763780900000');
    const run = async (migrations: typeof MIGRATIONS) => {
      const ds = new DataSource({ ...dataSourceOptions(urlFor(db), 1), migrations });
      await ds.initialize();
      try {
        await ds.runMigrations({ transaction: 'each' });
      } finally {
        await ds.destroy();
      }
    };
    try {
      await run(MIGRATIONS.slice(0, index));
      await sql(urlFor(db), `INSERT INTO email_outbox (job_name, job_id, payload) VALUES ('invitation', 'invitation-x-1', '{"send": 1}')`);
      await run(MIGRATIONS.slice(0, index + 1));
      expect(await sql(urlFor(db), `SELECT id, queue, name, payload, attempts FROM outbox`)).toEqual([
        { id: 'invitation-x-1', queue: 'email', name: 'invitation', payload: { send: 1 }, attempts: 0 },
      ]);
      expect(await sql(urlFor(db), `SELECT to_regclass('email_outbox') AS t`)).toEqual([{ t: null }]);
      // The EmailJobs migration then moves what a waiting email job carries into its email_job row,
      // and the job keeps only the row's random id (docs/decisions-local.md, "Queued emails").
      await run(MIGRATIONS);
      const [job] = await sql(urlFor(db), `SELECT id, kind, reference FROM email_job`);
      expect(job).toEqual({ id: expect.any(String), kind: 'invitation', reference: { send: 1 } });
      expect(await sql(urlFor(db), `SELECT id, queue, name, payload, attempts FROM outbox`)).toEqual([
        { id: job.id, queue: 'email', name: 'invitation', payload: { emailJobId: job.id }, attempts: 0 },
      ]);
      // BullMQ refuses integer job ids and ':' in them: the table does too.
      await expect(sql(urlFor(db), `INSERT INTO outbox (id, queue, name, payload) VALUES ('42', 'email', 'x', '{}')`)).rejects.toThrow(/outbox_id_is_job_id/);
      await expect(sql(urlFor(db), `INSERT INTO outbox (id, queue, name, payload) VALUES ('a:b', 'email', 'x', '{}')`)).rejects.toThrow(/outbox_id_is_job_id/);
    } finally {
      await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`));
    }
  });
});
