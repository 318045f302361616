import { randomUUID } from 'node:crypto';
import { startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { insertDelivery } from '../../support/integrations';
import { createProject, ownerWithWorkspace } from '../../support/work-items';

let t: TestApp;
// API role only: no outbox relay runs, so the redelivery jobs stay in the outbox to be read.
beforeAll(async () => {
  t = await startTestApp({ APP_ROLES: 'api' });
});
afterAll(() => t?.close());

const QUEUES: Record<string, string> = {
  messenger: 'deliver-messenger',
  teamchat: 'deliver-teamchat',
  communitychat: 'deliver-communitychat',
  'generic-webhook': 'deliver-generic-webhook',
};

async function project() {
  const { owner, workspaceId } = await ownerWithWorkspace(t);
  const p = await createProject(t, owner.token, workspaceId);
  return { token: owner.token, workspaceId, projectId: p.id as string };
}

const list = (projectId: string, token: string, query = '', type = 'generic-webhook') => t.api.get(`/${type}-integration/project/${projectId}/deliveries${query}`, token);

const redeliveryJobs = (deliveryId: string) =>
  sql(t.databaseUrl, `SELECT id, queue, name, payload FROM outbox WHERE payload->>'deliveryId' = $1 ORDER BY created_at, id`, [deliveryId]);

describe('delivery log', () => {
  it('lists the deliveries of the project and type, newest first (ties by id), as records without the payload', async () => {
    const { token, workspaceId, projectId } = await project();
    const other = await createProject(t, token, workspaceId);
    const at = (minute: number) => `2026-01-01T10:${String(minute).padStart(2, '0')}:00.123456Z`;
    const attempts = [
      { at: '2026-01-01T10:03:00.200Z', statusCode: 500, durationMs: 120, error: 'HTTP 500', responseBody: 'not answered' },
      { at: '2026-01-01T10:03:05.300Z', statusCode: null, durationMs: 10000, error: 'timeout' },
      { at: '2026-01-01T10:03:25.000Z', statusCode: 204, durationMs: 35, error: null },
    ];
    const oldest = await insertDelivery(t, { workspaceId, projectId, targetType: 'generic-webhook', createdAt: at(1), status: 'failed', deliveredAt: null });
    const tieLow = await insertDelivery(t, { workspaceId, projectId, targetType: 'generic-webhook', createdAt: at(2), id: '00000000-0000-4000-8000-000000000001' });
    const tieHigh = await insertDelivery(t, { workspaceId, projectId, targetType: 'generic-webhook', createdAt: at(2), id: 'ffffffff-0000-4000-8000-000000000001' });
    const newest = await insertDelivery(t, {
      workspaceId,
      projectId,
      targetType: 'generic-webhook',
      createdAt: at(3),
      event: 'task.status_changed',
      status: 'delivered',
      attempts,
      deliveredAt: '2026-01-01T10:03:25.035Z',
    });
    // Not listed: another type of the same project, the same type of another project.
    await insertDelivery(t, { workspaceId, projectId, targetType: 'teamchat', createdAt: at(4) });
    await insertDelivery(t, { workspaceId, projectId: other.id, targetType: 'generic-webhook', createdAt: at(4) });

    const res = await list(projectId, token);
    expect(res.status).toBe(200);
    expect(res.body.deliveries.map((d: any) => d.id)).toEqual([newest, tieHigh, tieLow, oldest]);
    const [eventId] = (await sql(t.databaseUrl, `SELECT event_id FROM delivery WHERE id = $1`, [newest])).map((r) => r.event_id);
    expect(res.body.deliveries[0]).toEqual({
      id: newest,
      eventId,
      event: 'task.status_changed',
      status: 'delivered',
      attempts: attempts.map(({ at: when, statusCode, durationMs, error }) => ({ at: when, statusCode, durationMs, error })),
      createdAt: '2026-01-01T10:03:00.123Z',
      deliveredAt: '2026-01-01T10:03:25.035Z',
    });
    expect(Object.keys(res.body.deliveries[0])).toEqual(['id', 'eventId', 'event', 'status', 'attempts', 'createdAt', 'deliveredAt']);
    expect(res.body.deliveries[3]).toMatchObject({ id: oldest, status: 'failed', deliveredAt: null, attempts: [] });
    expect(res.text).not.toContain('secretPayload');
    expect(res.text).not.toContain('not answered');
    expect(Object.keys(res.body)).toEqual(['deliveries']);

    const teamchat = await list(projectId, token, '', 'teamchat');
    expect(teamchat.body.deliveries).toHaveLength(1);
    expect((await list(projectId, token, '', 'messenger')).body).toEqual({ deliveries: [] });
  });

  it('pages with limit (default 50, 1 to 100) and before, across ties of created_at', async () => {
    const { token, workspaceId, projectId } = await project();
    // 55 deliveries, three to each of some timestamps (microseconds apart elsewhere), so the
    // cursor must compare created_at at full precision and break ties by id.
    const ids = (
      await sql(
        t.databaseUrl,
        `INSERT INTO delivery (workspace_id, project_id, event_id, event, target_type, target_id, payload, status, created_at)
         SELECT $1, $2, gen_random_uuid(), 'task.created', 'communitychat', gen_random_uuid(), '{}', 'delivered',
                timestamptz '2026-02-01 00:00:00Z' + (i / 3) * interval '1 microsecond'
           FROM generate_series(1, 55) AS i
         RETURNING id, created_at`,
        [workspaceId, projectId],
      )
    ).map((r) => r.id as string);
    const expected = (await sql(t.databaseUrl, `SELECT id FROM delivery WHERE id = ANY($1) ORDER BY created_at DESC, id DESC`, [ids])).map((r) => r.id as string);

    const first = await list(projectId, token, '', 'communitychat');
    expect(first.body.deliveries.map((d: any) => d.id)).toEqual(expected.slice(0, 50));
    expect((await list(projectId, token, '?limit=100', 'communitychat')).body.deliveries).toHaveLength(55);

    const seen: string[] = [];
    let before = '';
    for (;;) {
      const page = await list(projectId, token, `?limit=7${before}`, 'communitychat');
      expect(page.status).toBe(200);
      const pageIds = page.body.deliveries.map((d: any) => d.id);
      seen.push(...pageIds);
      if (pageIds.length < 7) break;
      before = `&before=${pageIds[pageIds.length - 1]}`;
    }
    expect(seen).toEqual(expected);
    const last = await list(projectId, token, `?before=${expected[54]}`, 'communitychat');
    expect(last.body).toEqual({ deliveries: [] });
    // An upper-case id is the same id.
    expect((await list(projectId, token, `?limit=1&before=${expected[0].toUpperCase()}`, 'communitychat')).body.deliveries[0].id).toBe(expected[1]);

    for (const limit of ['0', '101', 'abc', '1.5', '', '-1', '1e1', '10&limit=20']) {
      const res = await list(projectId, token, `?limit=${limit}`, 'communitychat');
      expect([limit, res.status, res.body]).toEqual([limit, 400, { message: 'limit must be an integer from 1 to 100' }]);
    }
    const extra = await list(projectId, token, '?page=2', 'communitychat');
    expect([extra.status, extra.body]).toEqual([400, { message: 'property page should not exist' }]);
  });

  it('before must be a delivery of this project and type: otherwise 404 Delivery not found', async () => {
    const { token, workspaceId, projectId } = await project();
    const other = await createProject(t, token, workspaceId);
    const mine = await insertDelivery(t, { workspaceId, projectId, targetType: 'messenger' });
    const otherType = await insertDelivery(t, { workspaceId, projectId, targetType: 'teamchat' });
    const otherProject = await insertDelivery(t, { workspaceId, projectId: other.id, targetType: 'messenger' });
    expect((await list(projectId, token, `?before=${mine}`, 'messenger')).status).toBe(200);
    for (const before of ['nope', randomUUID(), otherType, otherProject, "1' OR '1'='1"]) {
      const res = await list(projectId, token, `?before=${encodeURIComponent(before)}`, 'messenger');
      expect([before, res.status, res.body]).toEqual([before, 404, { message: 'Delivery not found' }]);
    }
  });
});

describe('redelivery', () => {
  it.each(Object.keys(QUEUES))('%s: sets the delivery pending and queues one redeliver job on its queue', async (type) => {
    const { token, workspaceId, projectId } = await project();
    const attempts = [{ at: '2026-03-01T00:00:00.000Z', statusCode: 410, durationMs: 12, error: 'HTTP 410' }];
    const id = await insertDelivery(t, { workspaceId, projectId, targetType: type, status: 'failed', attempts, deliveredAt: null });
    const res = await t.api.post(`/${type}-integration/project/${projectId}/deliveries/${id}/redeliver`, undefined, token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id, eventId: expect.any(String), event: 'task.created', status: 'pending', attempts, createdAt: expect.any(String), deliveredAt: null });
    const [row] = await sql(t.databaseUrl, `SELECT status, delivered_at, attempts FROM delivery WHERE id = $1`, [id]);
    expect(row).toEqual({ status: 'pending', delivered_at: null, attempts });
    const jobs = await redeliveryJobs(id);
    expect(jobs).toEqual([{ id: expect.stringMatching(/^redeliver-[0-9a-f-]{36}$/), queue: QUEUES[type], name: 'redeliver', payload: { deliveryId: id } }]);
  });

  it('the status change and the job are one transaction: when the job cannot be written, the delivery stays as it was', async () => {
    const { token, workspaceId, projectId } = await project();
    const id = await insertDelivery(t, { workspaceId, projectId, targetType: 'teamchat', status: 'failed', deliveredAt: null });
    await sql(t.databaseUrl, `CREATE FUNCTION refuse_job() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$`);
    await sql(t.databaseUrl, `CREATE TRIGGER refuse_job BEFORE INSERT ON outbox FOR EACH ROW WHEN (NEW.queue = 'deliver-teamchat') EXECUTE FUNCTION refuse_job()`);
    try {
      const res = await t.api.post(`/teamchat-integration/project/${projectId}/deliveries/${id}/redeliver`, undefined, token);
      expect([res.status, res.body]).toEqual([500, { message: 'Internal server error' }]);
      expect(await sql(t.databaseUrl, `SELECT status FROM delivery WHERE id = $1`, [id])).toEqual([{ status: 'failed' }]);
    } finally {
      await sql(t.databaseUrl, `DROP TRIGGER refuse_job ON outbox; DROP FUNCTION refuse_job()`);
    }
    expect((await t.api.post(`/teamchat-integration/project/${projectId}/deliveries/${id}/redeliver`, undefined, token)).body.status).toBe('pending');
    expect(await redeliveryJobs(id)).toHaveLength(1);
  });

  it('a delivered delivery goes back to pending with delivered_at cleared; each redelivery is its own job', async () => {
    const { token, workspaceId, projectId } = await project();
    const id = await insertDelivery(t, { workspaceId, projectId, targetType: 'generic-webhook', status: 'delivered' });
    const path = `/generic-webhook-integration/project/${projectId}/deliveries/${id}/redeliver`;
    expect((await t.api.post(path, undefined, token)).body).toMatchObject({ status: 'pending', deliveredAt: null });
    expect((await t.api.post(path.replace(id, id.toUpperCase()), undefined, token)).status).toBe(200);
    const jobs = await redeliveryJobs(id);
    expect(jobs).toHaveLength(2);
    expect(jobs[0].id).not.toBe(jobs[1].id);
    const listed = await list(projectId, token);
    expect(listed.body.deliveries).toEqual([expect.objectContaining({ id, status: 'pending', deliveredAt: null })]);
  });

  it('a delivery of another type or project, an unknown or a malformed id: 404 Delivery not found, nothing changes or is queued', async () => {
    const { token, workspaceId, projectId } = await project();
    const other = await createProject(t, token, workspaceId);
    const otherType = await insertDelivery(t, { workspaceId, projectId, targetType: 'teamchat', status: 'failed', deliveredAt: null });
    const otherProject = await insertDelivery(t, { workspaceId, projectId: other.id, targetType: 'messenger', status: 'failed', deliveredAt: null });
    for (const id of [otherType, otherProject, randomUUID(), 'nope']) {
      const res = await t.api.post(`/messenger-integration/project/${projectId}/deliveries/${id}/redeliver`, undefined, token);
      expect([id, res.status, res.body]).toEqual([id, 404, { message: 'Delivery not found' }]);
    }
    const rows = await sql(t.databaseUrl, `SELECT status FROM delivery WHERE id = ANY($1)`, [[otherType, otherProject]]);
    expect(rows).toEqual([{ status: 'failed' }, { status: 'failed' }]);
    expect(await sql(t.databaseUrl, `SELECT id FROM outbox WHERE payload->>'deliveryId' = ANY($1)`, [[otherType, otherProject]])).toEqual([]);
  });
});
