import { Logger } from '@nestjs/common';
import fc from 'fast-check';
import { isRoutableAddress, NON_ROUTABLE_MESSAGE } from '../../../src/common/net/destination-guard';
import { startTestApp, TestApp } from '../../support/app';
import { TestDnsServer } from '../../support/dns-server';
import { sql } from '../../support/fixtures';
import { fuzzDestination } from '../../support/fuzz';
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

describe('destination guard when a URL is saved: IPv6 addresses that carry an IPv4 address', () => {
  const refused = { message: NON_ROUTABLE_MESSAGE };
  const stored = async (projectId: string) => sql(t.databaseUrl, `SELECT id FROM integration WHERE project_id = $1`, [projectId]);

  it('http://[::127.0.0.1]/ and http://[::a9fe:a9fe]/ (IPv4-compatible: loopback, the metadata endpoint) are 400 and nothing is stored', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId);
    for (const webhookUrl of [
      'http://[::127.0.0.1]/',
      'http://[::a9fe:a9fe]/',
      `http://[::127.0.0.1]:${new URL(receiver.url).port}/hook`,
      'http://[::a9fe:a9fe]/latest/meta-data/',
    ]) {
      const res = await t.api.post(`/generic-webhook-integration/project/${project.id}`, { webhookUrl }, owner.token);
      expect([webhookUrl, res.status, res.body]).toEqual([webhookUrl, 400, refused]);
    }
    expect(await stored(project.id)).toEqual([]);

    // Nor can a saved integration be pointed there.
    const ok = await t.api.post(`/generic-webhook-integration/project/${project.id}`, { webhookUrl: 'http://[2002:5db8:d822::1]/hook' }, owner.token);
    expect(ok.status).toBe(200);
    const patched = await t.api.patch(`/generic-webhook-integration/project/${project.id}`, { webhookUrl: 'http://[::a9fe:a9fe]/' }, owner.token);
    expect([patched.status, patched.body]).toEqual([400, refused]);
    expect((await t.api.get(`/generic-webhook-integration/project/${project.id}`, owner.token)).body).toEqual(ok.body);
  });

  it('every generated IPv4-compatible, IPv4-mapped, NAT64, 6to4 and Teredo form of a refused IPv4 address is 400 (fixed seed)', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId);
    await fc.assert(
      fc.asyncProperty(
        fuzzDestination.filter((d) => !isRoutableAddress(d.ipv4)),
        async ({ url, form }) => {
          const res = await t.api.post(`/teamchat-integration/project/${project.id}`, { webhookUrl: url }, owner.token);
          expect([form, url, res.status, res.body]).toEqual([form, url, 400, refused]);
        },
      ),
      { seed: 42, numRuns: 40 },
    );
    expect(await stored(project.id)).toEqual([]);
  });
});
