import { randomBytes } from 'node:crypto';
import { getQueueToken } from '@nestjs/bullmq';
import { ModulesContainer } from '@nestjs/core';
import Redis from 'ioredis';
import { FEATURE_MODULES } from '../../../src/app.module';
import { bootstrap, Running } from '../../../src/bootstrap';
import { loadConfig } from '../../../src/config/app-config';
import { QueueDashboard } from '../../../src/modules/admin/queue-dashboard.service';
import { DELIVERY_PROCESSORS as CHANNEL_PROCESSORS } from '../../../src/modules/delivery/delivery.processors';
import { FanOutProcessor } from '../../../src/modules/delivery/fan-out.processor';
import { OutboxRelay } from '../../../src/queue/outbox.relay';
import { QueueName } from '../../../src/queue/queues';
import { WorkerModule } from '../../../src/worker.module';
import { runRedisUrl, startTestApp, TestApp } from '../../support/app';
import { TestSmtpServer } from '../../support/smtp';

const DELIVERY_PROCESSORS = [FanOutProcessor, ...Object.values(CHANNEL_PROCESSORS)];

/** The modules a running app loaded, the controllers they declare and the providers they hold. */
function loaded(running: Running): { modules: Function[]; controllers: string[]; providers: unknown[] } {
  const container = running.app.get(ModulesContainer);
  const modules = [...container.values()];
  return {
    modules: modules.map((m) => m.metatype),
    controllers: modules.flatMap((m) => [...m.controllers.values()].map((c) => c.name)),
    // (app.get of a provider that is not there ends the process: Nest's abortOnError.)
    providers: modules.flatMap((m) => [...m.providers.keys()]),
  };
}

/**
 * Production runs the roles as separate processes: the API writes outbox rows, a worker-only
 * process (no HTTP at all) relays them and sends the emails. Here they share one database and
 * one queue prefix, as they would share Postgres and Redis.
 */
describe('APP_ROLES=api and APP_ROLES=worker as separate processes', () => {
  const smtp = new TestSmtpServer();
  let api: TestApp;
  let worker: Running;
  beforeAll(async () => {
    const smtpPort = await smtp.start();
    api = await startTestApp({ APP_ROLES: 'api' });
    worker = await bootstrap(
      loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        APP_ROLES: 'worker',
        DATABASE_URL: api.databaseUrl,
        REDIS_URL: runRedisUrl(),
        DATABASE_POOL_SIZE: '2',
        QUEUE_PREFIX: api.queuePrefix,
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(smtpPort),
        CLIENT_URL: 'https://client.example.test',
      }),
      { migrate: false },
    );
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await smtp.stop();
  });

  it('the worker serves no HTTP: no server, no controller, no feature module', () => {
    expect(worker.url).toBeUndefined();
    expect((worker.app as any).getHttpServer).toBeUndefined();
    expect((worker.app as any).getHttpAdapter).toBeUndefined();
    const { modules, controllers, providers } = loaded(worker);
    expect(controllers).toEqual([]);
    for (const feature of FEATURE_MODULES) expect([feature.name, modules.includes(feature)]).toEqual([feature.name, false]);
    expect(modules).toContain(WorkerModule);
    expect(providers).toEqual(expect.arrayContaining([OutboxRelay, getQueueToken(QueueName.Email), ...DELIVERY_PROCESSORS]));
  });

  it('the API runs no relay and no queue', async () => {
    const { modules, controllers, providers } = loaded(api.running);
    expect(controllers.length).toBeGreaterThan(10);
    expect(modules).not.toContain(WorkerModule);
    expect(providers).not.toContain(OutboxRelay);
    expect(providers).not.toContain(getQueueToken(QueueName.Email));
    for (const processor of DELIVERY_PROCESSORS) expect([processor.name, providers.includes(processor)]).toEqual([processor.name, false]);
    // The queue dashboard makes its queues on its first authorised request only (test/e2e/admin).
    const redis = new Redis(runRedisUrl());
    try {
      const name = api.running.app.get(QueueDashboard).connectionName;
      expect(((await redis.client('LIST')) as string).split('\n').filter((c) => c.includes(` name=${name} `))).toEqual([]);
    } finally {
      redis.disconnect();
    }
  });

  it('an invitation made through the API is emailed by the worker-only process', async () => {
    const owner = await api.api.signUp({ name: 'Wanda Worker' });
    const ws = await api.api.createWorkspace(owner.token, `Split ${randomBytes(2).toString('hex')}`);
    const to = `split.${randomBytes(4).toString('hex')}@example.test`;
    const inv = await api.api.post('/auth/organization/invite-member', { email: to, role: 'member', organizationId: ws.id }, owner.token);
    expect(inv.status).toBe(200);
    const [mail] = await smtp.waitFor(to);
    expect(mail.parsed.subject).toBe(`Wanda Worker invited you to join ${ws.name} on Tandem`);
    expect(mail.parsed.text).toContain(`https://client.example.test/invitation/accept/${inv.body.id}`);
  });
});
