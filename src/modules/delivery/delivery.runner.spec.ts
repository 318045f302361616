import { Logger } from '@nestjs/common';
import { Job, UnrecoverableError } from 'bullmq';
import { OutboundError } from '../../common/net/outbound-http';
import { Channel, DeliveryJobData } from './channels';
import { UnusableTargetError } from './delivery-policy';
import { DeliveryRecorder } from './delivery-recorder';
import { DeliveryAttempt, DeliveryStatus } from './delivery.repository';
import { DeliveryRunner, TransientDeliveryError } from './delivery.runner';
import { DeliveryTargetKinds } from './delivery-target-kinds';
import { AttemptPlan, Preparation, SendOutcome } from './target-kinds';

/**
 * One attempt of a delivery job, with the target kind and the recorder stood in for: what is
 * recorded, with which status, and what BullMQ is told (a retry with the receiver's Retry-After,
 * or no retry at all).
 */

const job = (over: { name?: string; data?: unknown; attemptsMade?: number; attempts?: number } = {}) =>
  ({
    name: over.name ?? 'deliver',
    data: 'data' in over ? over.data : { deliveryId: 'd-1' },
    attemptsMade: over.attemptsMade ?? 0,
    opts: { attempts: over.attempts ?? 12 },
  }) as unknown as Job<DeliveryJobData>;

function setUp(preparation: Preparation | (() => Preparation)) {
  const records: Array<{ ids: readonly string[]; attempt: DeliveryAttempt; status: DeliveryStatus }> = [];
  const prepared: Array<[string, Channel]> = [];
  const kinds = {
    of: () => ({
      prepare: async (id: string, channel: Channel) => {
        prepared.push([id, channel]);
        return typeof preparation === 'function' ? preparation() : preparation;
      },
    }),
  };
  const recorder = { record: async (ids: readonly string[], attempt: DeliveryAttempt, status: DeliveryStatus) => void records.push({ ids, attempt, status }) };
  const runner = new DeliveryRunner(kinds as unknown as DeliveryTargetKinds, recorder as unknown as DeliveryRecorder);
  return { runner, records, prepared };
}

const plan = (send: () => Promise<SendOutcome>, over: Partial<AttemptPlan> = {}): AttemptPlan & { settledCalls: number } => {
  const p = { label: 'delivery d-1', dropped: [], ids: ['d-1'], send, settledCalls: 0, ...over };
  p.settled = async () => void p.settledCalls++;
  return p;
};

/** What the runner logged: level, message, context (the last argument; an error's stack, when any, comes before it). */
const logged: Array<[string, string, string]> = [];
const collect =
  (level: string) =>
  (message: string, ...rest: unknown[]): void =>
    void logged.push([level, message, rest.filter((x) => x !== undefined).at(-1) as string]);
beforeAll(() => Logger.overrideLogger({ log: collect('log'), warn: collect('warn'), error: collect('error'), debug: collect('debug'), verbose: collect('verbose') }));
beforeEach(() => (logged.length = 0));

describe('DeliveryRunner', () => {
  it('a delivered attempt is recorded with its status code and settles the delivery', async () => {
    const p = plan(async () => ({ statusCode: 204, verdict: { outcome: 'delivered' } }));
    const { runner, records, prepared } = setUp(p);
    await expect(runner.run(job(), 'generic-webhook')).resolves.toEqual({ delivered: 1, statusCode: 204 });
    expect(prepared).toEqual([['d-1', 'generic-webhook']]);
    expect(records).toEqual([{ ids: ['d-1'], attempt: expect.objectContaining({ statusCode: 204, error: null }), status: 'delivered' }]);
    expect(new Date(records[0].attempt.at).toISOString()).toBe(records[0].attempt.at);
    expect(records[0].attempt.durationMs).toBeGreaterThanOrEqual(0);
    expect(p.settledCalls).toBe(1);
  });

  it('a transient failure stays pending and is retried with the Retry-After the receiver sent; not settled yet', async () => {
    const p = plan(async () => ({ statusCode: 429, verdict: { outcome: 'transient', error: 'HTTP 429: slow down', retryAfterMs: 7000 } }));
    const { runner, records } = setUp(p);
    const err = await runner.run(job({ attemptsMade: 3 }), 'teamchat').catch((e) => e);
    expect(err).toBeInstanceOf(TransientDeliveryError);
    expect(err).toMatchObject({ message: 'HTTP 429: slow down', retryAfterMs: 7000 });
    expect(records.map((r) => [r.status, r.attempt.statusCode, r.attempt.error])).toEqual([['pending', 429, 'HTTP 429: slow down']]);
    expect(p.settledCalls).toBe(0);
  });

  it('the last attempt that fails fails the delivery for good, and settles it', async () => {
    const p = plan(async () => ({ statusCode: 503, verdict: { outcome: 'transient', error: 'HTTP 503', retryAfterMs: null } }));
    const { runner, records } = setUp(p);
    await expect(runner.run(job({ attemptsMade: 11, attempts: 12 }), 'teamchat')).rejects.toBeInstanceOf(TransientDeliveryError);
    expect(records.map((r) => r.status)).toEqual(['failed']);
    expect(p.settledCalls).toBe(1);
    // The one before the last is not the last.
    const { runner: r2, records: rec2 } = setUp(plan(async () => ({ statusCode: 503, verdict: { outcome: 'transient', error: 'HTTP 503', retryAfterMs: null } })));
    await expect(r2.run(job({ attemptsMade: 10, attempts: 12 }), 'teamchat')).rejects.toBeInstanceOf(TransientDeliveryError);
    expect(rec2.map((r) => r.status)).toEqual(['pending']);
    // A job without an attempts option has one attempt.
    const { runner: r3, records: rec3 } = setUp(plan(async () => ({ statusCode: 503, verdict: { outcome: 'transient', error: 'HTTP 503', retryAfterMs: null } })));
    const once = { ...job(), opts: {} } as unknown as Job<DeliveryJobData>;
    await expect(r3.run(once, 'teamchat')).rejects.toBeInstanceOf(TransientDeliveryError);
    expect(rec3.map((r) => r.status)).toEqual(['failed']);
  });

  it('a permanent failure fails at once and tells BullMQ not to retry', async () => {
    const p = plan(async () => ({ statusCode: 404, verdict: { outcome: 'permanent', error: 'HTTP 404' } }));
    const { runner, records } = setUp(p);
    const err = await runner.run(job(), 'teamchat').catch((e) => e);
    expect(err).toBeInstanceOf(UnrecoverableError);
    expect(err.message).toBe('HTTP 404');
    expect(records.map((r) => [r.status, r.attempt.error])).toEqual([['failed', 'HTTP 404']]);
    expect(p.settledCalls).toBe(1);
  });

  it('a send that throws is judged by the delivery policy: refused destination permanent, network error transient, no status code', async () => {
    const refused = setUp(
      plan(async () => {
        throw new OutboundError('Webhook destination resolves to a non-routable address', true);
      }),
    );
    await expect(refused.runner.run(job(), 'generic-webhook')).rejects.toBeInstanceOf(UnrecoverableError);
    expect(refused.records.map((r) => [r.status, r.attempt.statusCode, r.attempt.error])).toEqual([['failed', null, 'Webhook destination resolves to a non-routable address']]);
    const unusable = setUp(
      plan(async () => {
        throw new UnusableTargetError('The integration has no webhook URL');
      }),
    );
    await expect(unusable.runner.run(job(), 'generic-webhook')).rejects.toBeInstanceOf(UnrecoverableError);
    const reset = setUp(
      plan(async () => {
        throw new OutboundError('Connection reset by the receiver', false);
      }),
    );
    const err = await reset.runner.run(job(), 'generic-webhook').catch((e) => e);
    expect(err).toBeInstanceOf(TransientDeliveryError);
    expect(err.retryAfterMs).toBeNull();
    expect(reset.records.map((r) => [r.status, r.attempt.statusCode])).toEqual([['pending', null]]);
  });

  it('deliveries the plan drops are recorded as failed with the reason, and nothing is sent when none is left', async () => {
    const send = jest.fn();
    const p = plan(send, { ids: [], dropped: [{ ids: ['d-1', 'd-2'], reason: 'Integration inactive' }] });
    const { runner, records } = setUp(p);
    await expect(runner.run(job(), 'teamchat')).resolves.toEqual({ failed: 2, reason: 'Integration inactive' });
    expect(records).toEqual([{ ids: ['d-1', 'd-2'], attempt: expect.objectContaining({ statusCode: null, durationMs: 0, error: 'Integration inactive' }), status: 'failed' }]);
    expect(send).not.toHaveBeenCalled();
    expect(p.settledCalls).toBe(1);
    // Nothing dropped and nothing to send.
    const empty = setUp(plan(send, { ids: [] }));
    await expect(empty.runner.run(job(), 'teamchat')).resolves.toEqual({ failed: 0, reason: 'nothing to send' });
  });

  it('some dropped, some sent: both recorded, each with its own status', async () => {
    const p = plan(async () => ({ statusCode: 200, verdict: { outcome: 'delivered' } }), { ids: ['d-1'], dropped: [{ ids: ['d-2'], reason: 'Channel turned off' }] });
    const { runner, records } = setUp(p);
    await expect(runner.run(job(), 'email')).resolves.toEqual({ delivered: 1, statusCode: 200 });
    expect(records.map((r) => [r.ids, r.status])).toEqual([
      [['d-2'], 'failed'],
      [['d-1'], 'delivered'],
    ]);
  });

  it('a delivery gone or no longer pending is skipped; a job of another name or without an id is refused for good', async () => {
    const gone = setUp({ skipped: 'gone' });
    await expect(gone.runner.run(job({ name: 'redeliver' }), 'teamchat')).resolves.toEqual({ skipped: 'gone' });
    expect(gone.records).toEqual([]);
    const { runner, prepared } = setUp({ skipped: 'not-pending' });
    await expect(runner.run(job({ name: 'deliverr' }), 'teamchat')).rejects.toThrow(new UnrecoverableError('Unknown delivery job "deliverr"'));
    await expect(runner.run(job({ data: { deliveryId: 7 } }), 'teamchat')).rejects.toThrow(new UnrecoverableError('Delivery job without a delivery id'));
    await expect(runner.run(job({ data: undefined }), 'teamchat')).rejects.toThrow(new UnrecoverableError('Delivery job without a delivery id'));
    expect(prepared).toEqual([]);
  });

  it("logs each outcome under 'Delivery' with the plan's label and the attempt's number, never more than the verdict says", async () => {
    const outcomes: Array<[SendOutcome | Error, Partial<{ attemptsMade: number; attempts: number }>]> = [
      [{ statusCode: 204, verdict: { outcome: 'delivered' } }, {}],
      [{ statusCode: null, verdict: { outcome: 'delivered' } }, { attemptsMade: 2 }],
      [{ statusCode: 404, verdict: { outcome: 'permanent', error: 'HTTP 404' } }, {}],
      [{ statusCode: 503, verdict: { outcome: 'transient', error: 'HTTP 503', retryAfterMs: null } }, { attemptsMade: 3 }],
      [
        { statusCode: 503, verdict: { outcome: 'transient', error: 'HTTP 503', retryAfterMs: null } },
        { attemptsMade: 11, attempts: 12 },
      ],
      [new TypeError('cannot read SECRET-TOKEN'), {}],
    ];
    for (const [outcome, at] of outcomes) {
      const { runner } = setUp(
        plan(async () => {
          if (outcome instanceof Error) throw outcome;
          return outcome;
        }),
      );
      await runner.run(job(at), 'teamchat').catch(() => undefined);
    }
    expect(logged).toEqual([
      ['log', 'delivery d-1 delivered (attempt 1, 204)', 'Delivery'],
      ['log', 'delivery d-1 delivered (attempt 3)', 'Delivery'],
      ['warn', 'delivery d-1 failed for good (attempt 1): HTTP 404', 'Delivery'],
      ['warn', 'delivery d-1 attempt 4 failed, will retry: HTTP 503', 'Delivery'],
      ['warn', 'delivery d-1 attempt 12 failed, no attempt left: HTTP 503', 'Delivery'],
      ['error', 'delivery d-1: attempt failed unexpectedly: TypeError', 'Delivery'],
      ['warn', 'delivery d-1 attempt 1 failed, will retry: Internal error while sending', 'Delivery'],
    ]);
  });

  it('logs what a plan drops, with the reason', async () => {
    const { runner } = setUp(plan(jest.fn(), { ids: [], dropped: [{ ids: ['d-1', 'd-2'], reason: 'Integration inactive' }] }));
    await runner.run(job(), 'teamchat');
    expect(logged).toEqual([['log', 'delivery d-1: 2 not sent: Integration inactive', 'Delivery']]);
  });

  it("records how long the attempt took by the runner's clock", async () => {
    const clock = jest.spyOn(performance, 'now').mockReturnValueOnce(1_000.2).mockReturnValueOnce(1_250.6);
    try {
      const { runner, records } = setUp(plan(async () => ({ statusCode: 200, verdict: { outcome: 'delivered' } })));
      await runner.run(job(), 'teamchat');
      expect(records[0].attempt.durationMs).toBe(250);
    } finally {
      clock.mockRestore();
    }
  });
});
