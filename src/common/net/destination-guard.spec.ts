import { createServer, request, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { TestDnsServer } from '../../../test/support/dns-server';
import { DestinationGuard, DestinationRefusedError, isRoutableAddress, NON_ROUTABLE_MESSAGE } from './destination-guard';

describe('isRoutableAddress', () => {
  it.each(['8.8.8.8', '93.184.216.34', '2001:4860:4860::8888', '::ffff:8.8.8.8'])('lets %s through', (ip) => {
    expect(isRoutableAddress(ip)).toBe(true);
  });
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd12::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '64:ff9b::a00:1',
    '2002:7f00:1::',
    'not-an-ip',
  ])('refuses %s', (ip) => {
    expect(isRoutableAddress(ip)).toBe(false);
  });
});

describe('DestinationGuard', () => {
  let dns: TestDnsServer;
  let target: Server;
  let port: number;
  let hits = 0;

  beforeAll(async () => {
    dns = await new TestDnsServer().start();
    target = createServer((_req, res) => {
      hits++;
      res.end('ok');
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    port = (target.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await dns.stop();
    await new Promise((resolve) => target.close(resolve));
  });

  const get = (agent: import('node:http').Agent, host: string) =>
    new Promise<number>((resolve, reject) => {
      const req = request({ host, port, path: '/', agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      });
      req.on('error', reject);
      req.end();
    });

  it('save-time check: http(s) only; names resolving to non-routable addresses are refused', async () => {
    const guard = new DestinationGuard({ allowPrivate: false, dnsServers: [dns.server] });
    dns.records.set('public.test', '93.184.216.34');
    dns.records.set('inside.test', '10.0.0.5');
    await expect(guard.check('https://public.test/hook')).resolves.toBeUndefined();
    await expect(guard.check('https://inside.test/hook')).rejects.toThrow(NON_ROUTABLE_MESSAGE);
    await expect(guard.check('http://127.0.0.1:8080/')).rejects.toThrow(NON_ROUTABLE_MESSAGE);
    await expect(guard.check('http://[::ffff:7f00:1]/')).rejects.toThrow(NON_ROUTABLE_MESSAGE);
    await expect(guard.check('ftp://public.test/')).rejects.toBeInstanceOf(DestinationRefusedError);
    await expect(guard.check('https://nowhere.test/')).rejects.toBeInstanceOf(DestinationRefusedError);
  });

  it('connect time: a name that now resolves to loopback is refused before anything is sent (DNS rebinding)', async () => {
    const guard = new DestinationGuard({ allowPrivate: false, dnsServers: [dns.server] });
    const agents = guard.createAgents();
    dns.records.set('rebind.test', '93.184.216.34');
    await guard.check('http://rebind.test/hook');
    dns.records.set('rebind.test', '127.0.0.1');
    const before = hits;
    await expect(get(agents.http, 'rebind.test')).rejects.toThrow(NON_ROUTABLE_MESSAGE);
    await expect(get(agents.http, '127.0.0.1')).rejects.toThrow(NON_ROUTABLE_MESSAGE);
    expect(hits).toBe(before);
    agents.http.destroy();
  });

  it('ALLOW_PRIVATE_DESTINATIONS: the same requests go through', async () => {
    const guard = new DestinationGuard({ allowPrivate: true, dnsServers: [dns.server] });
    const agents = guard.createAgents();
    dns.records.set('rebind.test', '127.0.0.1');
    await expect(guard.check('http://rebind.test/hook')).resolves.toBeUndefined();
    const before = hits;
    await expect(get(agents.http, 'rebind.test')).resolves.toBe(200);
    await expect(get(agents.http, '127.0.0.1')).resolves.toBe(200);
    expect(hits).toBe(before + 2);
    agents.http.destroy();
  });
});
