import { DELIVERY_ATTEMPTS, deliveryBackoffMs } from '../../queue/queues';
import { TransientDeliveryError } from './delivery.runner';
import { WorkerHost } from '@nestjs/bullmq';
import { closeWorker, deliveryProcessorOptions } from './worker-options';

/** The wait BullMQ asks the delivery workers for before retry number `attemptsMade`, after `err`. */
const backoff = (attemptsMade: number, err?: Error) => deliveryProcessorOptions().settings!.backoffStrategy!(attemptsMade, 'delivery', err) as number;

describe('the retry schedule of deliveries', () => {
  it('5 s, doubling: eleven waits, about 2.8 h in all, at least the hour the docs promise', () => {
    const waits = Array.from({ length: DELIVERY_ATTEMPTS - 1 }, (_, i) => backoff(i + 1, new TransientDeliveryError('HTTP 503', null)));
    expect(waits).toEqual([5, 10, 20, 40, 80, 160, 320, 640, 1280, 2560, 5120].map((s) => s * 1000));
    expect(waits.reduce((a, b) => a + b, 0)).toBe(10_235_000);
  });

  it('what the receiver asked for with Retry-After instead, capped at an hour; 0 means at once', () => {
    expect(backoff(1, new TransientDeliveryError('HTTP 429', 42_000))).toBe(42_000);
    expect(backoff(7, new TransientDeliveryError('HTTP 429', 0))).toBe(0);
    expect(backoff(1, new TransientDeliveryError('HTTP 429', 3_600_000))).toBe(3_600_000);
    expect(backoff(1, new TransientDeliveryError('HTTP 429', 3_600_001))).toBe(3_600_000);
    expect(backoff(1, new TransientDeliveryError('HTTP 429', 86_400_000))).toBe(3_600_000);
  });

  it('without a Retry-After (none sent, a negative one, another error, no error) the doubling applies', () => {
    expect(backoff(3, new TransientDeliveryError('HTTP 503', null))).toBe(20_000);
    expect(backoff(3, Object.assign(new Error('x'), { retryAfterMs: -1 }))).toBe(20_000);
    expect(backoff(3, new Error('no retryAfterMs'))).toBe(20_000);
    expect(backoff(3)).toBe(20_000);
    expect(deliveryBackoffMs(2, undefined)).toBe(10_000);
    // Attempt counts below 1 (not given by BullMQ) wait the first retry's time.
    expect([deliveryBackoffMs(0), deliveryBackoffMs(-3)]).toEqual([5_000, 5_000]);
  });

  it('the workers are created without starting, with the lock settings of a quick recovery from a killed worker', () => {
    expect(deliveryProcessorOptions()).toMatchObject({ autorun: false, lockDuration: 15_000, stalledInterval: 5_000 });
  });
});

describe('closeWorker', () => {
  it("closes the processor's worker, waiting for it; a processor without a worker is left alone", async () => {
    const events: string[] = [];
    const worker = { close: async () => void events.push('closed') };
    await closeWorker({ _worker: worker } as unknown as WorkerHost);
    expect(events).toEqual(['closed']);
    await expect(closeWorker({} as unknown as WorkerHost)).resolves.toBeUndefined();
  });
});
