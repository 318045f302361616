import { Logger } from '@nestjs/common';
import { EmailProcessor } from '../../../src/modules/mail/email.processor';
import { runRedisUrl, startTestApp, TestApp } from '../../support/app';
import { TcpProxy } from '../../support/tcp-proxy';
import { until } from '../../support/until';

/**
 * A Redis outage is logged by the queue workers once when it starts and once when it ends, not
 * at each of BullMQ's reconnection attempts (docs/decisions-local.md, "Local Postgres and Redis").
 */

const REDIS_URL = runRedisUrl();
const target = new URL(REDIS_URL);
const proxy = new TcpProxy(target.hostname, Number(target.port || 6379));
const warn = jest.spyOn(Logger.prototype, 'warn');
const log = jest.spyOn(Logger.prototype, 'log');
const lines = (spy: jest.SpyInstance, re: RegExp) => spy.mock.calls.map((c) => String(c[0])).filter((m) => re.test(m));
/** Every warning of the queue workers and the email processor, whatever it says. */
const workerWarnings = () => warn.mock.calls.filter((_, i) => ['QueueWorker', 'EmailProcessor'].includes((warn.mock.contexts[i] as any)?.context));
const LOST = /^queue workers: Redis is unreachable/;
const BACK = /^queue workers: Redis is reachable again/;

let t: TestApp;
beforeAll(async () => {
  const proxied = new URL(REDIS_URL); // credentials kept, address replaced
  proxied.host = `127.0.0.1:${await proxy.start()}`;
  t = await startTestApp({ REDIS_URL: proxied.toString() });
});
afterAll(async () => {
  await proxy.restore();
  await t?.close();
  await proxy.stop();
  warn.mockRestore();
  log.mockRestore();
});

describe('queue workers and a Redis outage', () => {
  it('log the loss once however often they retry, and the recovery once; the next outage again once', async () => {
    const worker = t.running.app.get(EmailProcessor).worker;
    await until('the email worker to be connected', async () => worker.isRunning() && (await worker.client).status === 'ready');
    let errors = 0;
    worker.on('error', () => errors++);

    for (let outage = 1; outage <= 2; outage++) {
      warn.mockClear();
      log.mockClear();
      const before = errors;
      await proxy.cut();
      // Several failed reconnections (each connection of the worker retries on its own).
      await until('several worker errors while Redis is cut', () => errors >= before + 4, 30_000);
      expect(lines(warn, LOST)).toHaveLength(1);
      // One line for all the process's workers (email, task-events, the deliveries): whichever failed first.
      expect(lines(warn, LOST)[0]).toMatch(/\(queue [a-z-]+: .+\); jobs wait in Redis and the workers reconnect by themselves$/);
      expect(workerWarnings()).toHaveLength(1);
      expect(lines(log, BACK)).toHaveLength(0);

      await proxy.restore();
      await until('the recovery to be logged', () => lines(log, BACK).length > 0, 30_000);
      await until('the worker to be connected again', async () => (await worker.client).status === 'ready');
      expect(lines(log, BACK)).toEqual(['queue workers: Redis is reachable again; jobs are processed']);
      expect(workerWarnings()).toHaveLength(1);
    }
  }, 90_000);
});
