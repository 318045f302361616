import { Logger } from '@nestjs/common';
import { NON_ROUTABLE_MESSAGE } from '../../../src/common/net/destination-guard';
import { startTestApp, TestApp } from '../../support/app';
import { TestDnsServer } from '../../support/dns-server';
import { until } from '../../support/until';
import { createProject, createTask, ownerWithWorkspace } from '../../support/work-items';
import { addIntegration, deliveriesOf, rand, ScriptedReceiver } from './delivery-support';

/**
 * The destination guard at delivery time, with private destinations refused as in production:
 * names resolve through a DNS server of the test's own, so a name can resolve publicly when the
 * integration is saved and to loopback when the delivery is sent (DNS rebinding).
 */
const receiver = new ScriptedReceiver();
const dns = new TestDnsServer();
let t: TestApp;

beforeAll(async () => {
  await receiver.start();
  await dns.start();
  t = await startTestApp({ ALLOW_PRIVATE_DESTINATIONS: 'false', OUTBOUND_DNS_SERVERS: dns.server });
});
afterAll(async () => {
  await t?.close();
  await dns.stop();
  await receiver.stop();
});

describe('destination guard at delivery time', () => {
  it('a name that resolved publicly when saved and to loopback when sending: nothing sent, the delivery fails as non-routable, a warning is logged', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn');
    try {
      const { owner, workspaceId } = await ownerWithWorkspace(t);
      const project = await createProject(t, owner.token, workspaceId);
      const host = `rebind-${rand()}.test`;
      const secretPath = `/hooks/SECRET-${rand()}`;
      const url = `http://${host}:${new URL(receiver.url).port}${secretPath}`;

      // Saved while the name resolves to a public address: the API's save-time check lets it through.
      dns.records.set(host, '93.184.216.34');
      const integrationId = await addIntegration(t, owner.token, project.id, { type: 'generic-webhook', webhookUrl: url, secret: 'guarded-secret' });

      // Later the name points inside, where a receiver listens.
      dns.records.set(host, '127.0.0.1');
      await createTask(t, owner.token, project.id);
      const [d] = await until('the delivery to fail', async () => {
        const r = await deliveriesOf(t, integrationId);
        return r[0]?.status === 'failed' && r;
      });
      expect(d.attempts).toEqual([{ at: expect.any(String), statusCode: null, durationMs: expect.any(Number), error: `${NON_ROUTABLE_MESSAGE}: ${host}` }]);
      expect(receiver.requests).toEqual([]);

      const warnings = warn.mock.calls.map((c) => String(c[0]));
      expect(warnings.some((w) => w.includes(d.id) && w.includes(NON_ROUTABLE_MESSAGE))).toBe(true);
      expect(warnings.filter((w) => w.includes('SECRET-'))).toEqual([]);
      expect(JSON.stringify(d)).not.toContain('SECRET-');
    } finally {
      warn.mockRestore();
    }
  });
});
