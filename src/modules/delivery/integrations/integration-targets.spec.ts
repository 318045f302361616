import { taskEvent } from '../../../../test/support/task-event';
import { createHmac } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { CryptoService } from '../../../common/crypto/crypto.service';
import { OutboundHttp, OutboundRequest, OutboundResponse } from '../../../common/net/outbound-http';
import { AppConfig } from '../../../config/app-config';
import { TaskEvent } from '../../task/task-event';
import { DELIVER_JOB } from '../channels';
import { UnusableTargetError } from '../delivery-policy';
import { DeliveryQueues } from '../delivery-queues';
import { AttemptPlan } from '../target-kinds';
import { DeliveryWithTarget, IntegrationDeliveriesRepository } from './integration-deliveries.repository';
import { IntegrationTargets } from './integration-targets';

/**
 * The project integrations as delivery targets, with the database, the queues and the network
 * stood in for: what one attempt sends (signed with the attempt's own time), where, and how the
 * fan-out queues the deliveries. The clock is set per attempt (Date.now), nothing waits.
 */

const DELIVERY = '11111111-0000-4000-8000-000000000001';
const WEBHOOK_URL = 'https://hooks.example.test/in/PATH-SECRET?k=QUERY-SECRET';
const SEALED = (plain: string) => `sealed:${plain}`;

const event = taskEvent;

const delivery = (over: Partial<DeliveryWithTarget> = {}): DeliveryWithTarget => ({
  id: DELIVERY,
  workspace_id: '33333333-0000-4000-8000-000000000003',
  project_id: '44444444-0000-4000-8000-000000000004',
  event_id: '22222222-0000-4000-8000-000000000002',
  event: 'task.created',
  target_type: 'generic-webhook',
  target_id: '66666666-0000-4000-8000-000000000006',
  payload: event(),
  status: 'pending',
  integration_id: '66666666-0000-4000-8000-000000000006',
  is_active: true,
  chat_id: null,
  thread_id: null,
  bot_token: null,
  webhook_url: SEALED(WEBHOOK_URL),
  secret: SEALED('current-secret'),
  previous_secret: SEALED('previous-secret'),
  previous_secret_current: false,
  ...over,
});

function setUp(rows: DeliveryWithTarget[], answer: Partial<OutboundResponse> = {}) {
  const sent: Array<{ via: 'guarded' | 'operator'; request: OutboundRequest }> = [];
  const queued: Array<{ channel: string; jobs: unknown[] }> = [];
  const listened: unknown[] = [];
  const respond = (via: 'guarded' | 'operator') => async (request: OutboundRequest) => {
    sent.push({ via, request });
    return { statusCode: 200, headers: {}, body: '', truncated: false, ...answer };
  };
  const deliveries = {
    withTargets: async (ids: readonly string[]) => ids.map((id) => rows.find((r) => r.id === id)),
    fanOutMany: async (events: readonly TaskEvent[]) => events.map((e, i) => ({ id: `d-${e.id}`, target_type: i % 2 ? 'teamchat' : 'generic-webhook' })),
    listening: async (pairs: unknown[]) => {
      listened.push(pairs);
      return new Set(['44444444-0000-4000-8000-000000000004 taskCreated', 'abcdef44-0000-4000-8000-000000000004 taskCreated']);
    },
  };
  const queues = { of: (channel: string) => ({ addBulk: async (jobs: unknown[]) => void queued.push({ channel, jobs }) }) };
  const crypto = {
    decryptNullable: (sealed: string | null) => {
      if (sealed === null) return null;
      if (!sealed.startsWith('sealed:')) throw new Error('bad key');
      return sealed.slice('sealed:'.length);
    },
  };
  const http = { postGuarded: respond('guarded'), postOperator: respond('operator') };
  const config = { clientUrl: 'https://app.example.test', messengerApiBaseUrl: 'https://messenger.example.test' } as AppConfig;
  const targets = new IntegrationTargets(
    deliveries as unknown as IntegrationDeliveriesRepository,
    queues as unknown as DeliveryQueues,
    crypto as unknown as CryptoService,
    http as unknown as OutboundHttp,
    config,
  );
  return { targets, sent, queued, listened };
}

/** One attempt at `seconds` (Unix time): the job prepares, then sends. */
async function attemptAt(targets: IntegrationTargets, seconds: number) {
  const now = jest.spyOn(Date, 'now').mockReturnValue(seconds * 1000 + 999);
  try {
    const plan = (await targets.prepare(DELIVERY, 'generic-webhook')) as AttemptPlan;
    return await plan.send();
  } finally {
    now.mockRestore();
  }
}

const signature = (secret: string, id: string, seconds: number, body: string) =>
  `v1,${createHmac('sha256', Buffer.from(secret)).update(`${id}.${seconds}.${body}`).digest('base64')}`;

describe('IntegrationTargets: one attempt', () => {
  it('each attempt is signed with its own time: a retry is not signed with the first attempt’s', async () => {
    const { targets, sent } = setUp([delivery()]);
    const first = 1_900_000_000;
    const retry = first + 5; // the first retry, 5 s later
    const later = first + 2 * 3600; // a redelivery hours later
    for (const at of [first, retry, later]) await attemptAt(targets, at);
    expect(sent.map((s) => s.request.headers['webhook-timestamp'])).toEqual([String(first), String(retry), String(later)]);
    // The same bytes every time (the body is the event's), each signed with its attempt's time.
    const body = sent[0].request.body;
    expect(sent.map((s) => s.request.body)).toEqual([body, body, body]);
    expect(sent.map((s) => s.request.headers['webhook-signature'])).toEqual([first, retry, later].map((at) => signature('current-secret', DELIVERY, at, body)));
    expect(sent.map((s) => [s.via, s.request.url, s.request.headers['webhook-id']])).toEqual(Array(3).fill(['guarded', WEBHOOK_URL, DELIVERY]));
  });

  it('signs with the previous secret too while it is honoured, the current one first', async () => {
    const { targets, sent } = setUp([delivery({ previous_secret_current: true })]);
    await attemptAt(targets, 1_900_000_000);
    const { body, headers } = sent[0].request;
    expect(headers['webhook-signature']).toBe(`${signature('current-secret', DELIVERY, 1_900_000_000, body)} ${signature('previous-secret', DELIVERY, 1_900_000_000, body)}`);
  });

  it("the messenger goes to the operator's API, not through the guarded agents", async () => {
    const row = delivery({ target_type: 'messenger', bot_token: SEALED('123:BOT'), chat_id: '42', webhook_url: null, secret: null, previous_secret: null });
    const { targets, sent } = setUp([row], { body: '{"ok":true}' });
    const plan = (await targets.prepare(DELIVERY, 'messenger')) as AttemptPlan;
    expect(await plan.send()).toEqual({ statusCode: 200, verdict: { outcome: 'delivered' } });
    expect(sent.map((s) => [s.via, s.request.url])).toEqual([['operator', 'https://messenger.example.test/bot123:BOT/sendMessage']]);
  });

  it('an answer that quotes the URL, its path or a secret has them cut out of the recorded error', async () => {
    const echo = `bad hook ${WEBHOOK_URL} (/in/PATH-SECRET?k=QUERY-SECRET) signed with current-secret`;
    const { targets } = setUp([delivery()], { statusCode: 400, body: echo });
    expect(await attemptAt(targets, 1_900_000_000)).toEqual({
      statusCode: 400,
      verdict: { outcome: 'permanent', error: 'HTTP 400: bad hook [redacted] ([redacted]) signed with [redacted]' },
    });
    const bot = delivery({ target_type: 'messenger', bot_token: SEALED('123:BOT'), chat_id: '42', webhook_url: null });
    const messenger = setUp([bot], { statusCode: 401, body: '{"ok":false,"description":"Unauthorized 123:BOT"}' });
    const plan = (await messenger.targets.prepare(DELIVERY, 'messenger')) as AttemptPlan;
    expect((await plan.send()).verdict).toEqual({ outcome: 'permanent', error: 'HTTP 401: Unauthorized [redacted]' });
  });

  it('a URL whose secret is only in its query: the query is cut out of an answer that quotes it', async () => {
    const url = 'https://hooks.example.test/?token=QUERY-SECRET';
    const { targets } = setUp([delivery({ webhook_url: SEALED(url) })], { statusCode: 403, body: 'no hook at /?token=QUERY-SECRET' });
    expect((await attemptAt(targets, 1_900_000_000)).verdict).toEqual({ outcome: 'permanent', error: 'HTTP 403: no hook at [redacted]' });
  });

  it('secrets that cannot be decrypted make the target unusable (a permanent failure, no request)', async () => {
    const { targets, sent } = setUp([delivery({ secret: 'sealed-with-another-key' })]);
    const plan = (await targets.prepare(DELIVERY, 'generic-webhook')) as AttemptPlan;
    await expect(plan.send()).rejects.toBeInstanceOf(UnusableTargetError);
    await expect(plan.send()).rejects.toThrow('(was ENCRYPTION_KEY changed?)');
    expect(sent).toEqual([]);
  });

  it('a delivery that is gone, no longer pending, or whose integration is inactive or removed sends nothing', async () => {
    const label = `delivery ${DELIVERY} (generic-webhook, event 22222222-0000-4000-8000-000000000002)`;
    expect(await setUp([]).targets.prepare(DELIVERY, 'generic-webhook')).toEqual({ skipped: 'gone' });
    expect(await setUp([delivery({ status: 'delivered' })]).targets.prepare(DELIVERY, 'generic-webhook')).toEqual({ skipped: 'not-pending' });
    const inactive = await setUp([delivery({ is_active: false })]).targets.prepare(DELIVERY, 'generic-webhook');
    expect(inactive).toMatchObject({ label, ids: [], dropped: [{ ids: [DELIVERY], reason: 'Integration inactive' }] });
    const removed = await setUp([delivery({ integration_id: null, is_active: null })]).targets.prepare(DELIVERY, 'generic-webhook');
    expect(removed).toMatchObject({ label, ids: [], dropped: [{ ids: [DELIVERY], reason: 'Integration removed' }] });
    const ready = await setUp([delivery()]).targets.prepare(DELIVERY, 'generic-webhook');
    expect(ready).toMatchObject({ label, ids: [DELIVERY], dropped: [] });
  });
});

describe('IntegrationTargets: the fan-out', () => {
  it("queues one job per pending delivery on its channel's queue, with the delivery id as job id", async () => {
    const { targets, queued } = setUp([]);
    const events = [event({ id: 'e1' }), event({ id: 'e2' }), event({ id: 'e3' }), event({ id: 'a1', kind: 'timeEntryCreated' })];
    // The stand-in repository answers one delivery per integration event, alternating channels.
    expect(await targets.fanOut(events)).toBe(3);
    const job = (id: string) => ({ name: DELIVER_JOB, data: { deliveryId: id }, opts: { jobId: id } });
    expect(queued).toEqual([
      { channel: 'generic-webhook', jobs: [job('d-e1'), job('d-e3')] },
      { channel: 'teamchat', jobs: [job('d-e2')] },
    ]);
  });

  it('may deliver only events of the integration kinds whose project has an integration whose flag for the kind is on', async () => {
    const { targets, listened } = setUp([]);
    const wanted = event();
    const otherKind = event({ kind: 'taskStatusChanged' });
    const personOnly = event({ kind: 'timeEntryCreated' });
    // An assignment is selected by the taskAssigneeChanged flag.
    const assigned = event({ kind: 'taskAssigned' });
    // The project id as the event has it, whatever its case.
    const upper = event({ project: { id: '44444444-0000-4000-8000-00000000000A'.toUpperCase(), name: 'Apollo', slug: 'APO' } });
    const upperKnown = event({ project: { id: 'ABCDEF44-0000-4000-8000-000000000004', name: 'Apollo', slug: 'APO' } });
    const found = await targets.mayDeliver([wanted, otherKind, personOnly, assigned, upper, upperKnown], {} as EntityManager);
    expect([...found]).toEqual([wanted, upperKnown]);
    expect(listened).toEqual([
      [
        { projectId: wanted.project.id, flag: 'taskCreated' },
        { projectId: wanted.project.id, flag: 'taskStatusChanged' },
        { projectId: wanted.project.id, flag: 'taskAssigneeChanged' },
        { projectId: upper.project.id, flag: 'taskCreated' },
        { projectId: upperKnown.project.id, flag: 'taskCreated' },
      ],
    ]);
    // No event of an integration kind: no statement at all.
    expect(await targets.mayDeliver([personOnly], {} as EntityManager)).toEqual(new Set());
    expect(listened).toHaveLength(1);
  });
});
