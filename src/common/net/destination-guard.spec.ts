import fc from 'fast-check';
import { createServer, request, Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { AddressInfo, createServer as createNetServer } from 'node:net';
import { TestDnsServer } from '../../../test/support/dns-server';
import { fuzzDestination, fuzzIPv4, ipv6Carrying, REFUSED_IPV4 } from '../../../test/support/fuzz';
import ipaddr from 'ipaddr.js';
import { DestinationGuard, DestinationRefusedError, embeddedIPv4, isRoutableAddress, NON_ROUTABLE_MESSAGE, parseAddress } from './destination-guard';

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

describe('isRoutableAddress: IPv6 addresses that carry an IPv4 address are judged by it', () => {
  it.each([
    // IPv4-compatible (::/96); ipaddr.js alone reads `::a.b.c.d` as IPv4-mapped, the network stack does not.
    ['IPv4-compatible, dotted', '::127.0.0.1'],
    ['IPv4-compatible, hex', '::7f00:1'],
    ['IPv4-compatible, metadata endpoint', '::a9fe:a9fe'],
    ['IPv4-compatible, in full', '0:0:0:0:0:0:10.0.0.1'],
    ['IPv4-compatible, with a zone', '::127.0.0.1%lo'],
    ['IPv4-compatible, 0.0.0.2', '::2'],
    // IPv4-mapped (::ffff:0:0/96)
    ['IPv4-mapped', '::ffff:169.254.169.254'],
    ['IPv4-mapped, hex', '::ffff:c0a8:101'],
    // NAT64, well-known prefix (64:ff9b::/96)
    ['NAT64', '64:ff9b::127.0.0.1'],
    ['NAT64, metadata endpoint', '64:ff9b::a9fe:a9fe'],
    // NAT64, local-use prefix (64:ff9b:1::/48): refused whatever it carries
    ['NAT64 local use, private', '64:ff9b:1::a00:1'],
    ['NAT64 local use, public', '64:ff9b:1::808:808'],
    ['NAT64 local use, /56 layout', '64:ff9b:1:808:8:800::'],
    // 6to4 (2002::/16): bits 16..47
    ['6to4, loopback', '2002:7f00:1::1'],
    ['6to4, private with subnet and host', '2002:a00:1:beef:1:2:3:4'],
    ['6to4, metadata endpoint', '2002:a9fe:a9fe::'],
    // Teredo (2001::/32): server bits 32..63, client the last 32 bits inverted
    ['Teredo, private server', '2001:0:a00:1:0:0:f7f7:f7f7'],
    ['Teredo, loopback client (inverted 127.0.0.1)', '2001:0:4136:e378:8000:63bf:80ff:fffe'],
    ['Teredo, metadata client', '2001:0:4136:e378:8000:63bf:5601:5601'],
    ['Teredo, client 0.0.0.0', '2001:0:4136:e378::ffff:ffff'],
    // Not of these forms but beside them
    ['IPv4-translated (::ffff:0:0:0/96), refused whole', '::ffff:0:808:808'],
  ])('refuses %s: %s', (_form, ip) => {
    expect(isRoutableAddress(ip)).toBe(false);
  });

  it.each([
    ['IPv4-compatible', '::8.8.8.8'],
    ['IPv4-mapped', '::ffff:8.8.8.8'],
    ['NAT64 (what DNS64 answers for an IPv4-only host)', '64:ff9b::93.184.216.34'],
    ['6to4', '2002:808:808::1'],
    ['Teredo, public server and client', '2001:0:4136:e378:8000:63bf:f7f7:f7f7'],
  ])('lets %s through when the IPv4 address is public: %s', (_form, ip) => {
    expect(isRoutableAddress(ip)).toBe(true);
  });

  it("every form of every generated IPv4 address gets the IPv4 address's verdict (fixed seed)", () => {
    fc.assert(
      fc.property(fuzzIPv4, (ipv4) => {
        const verdict = isRoutableAddress(ipv4);
        const wrong = ipv6Carrying(ipv4).filter(({ address }) => isRoutableAddress(address) !== verdict);
        if (wrong.length) throw new Error(`${ipv4} is ${verdict ? 'routable' : 'refused'}, judged otherwise as ${wrong.map((w) => `${w.form} ${w.address}`).join(', ')}`);
      }),
      { seed: 42, numRuns: 1000 },
    );
  });

  it('each refused IPv4 range is refused in every form', () => {
    for (const ipv4 of REFUSED_IPV4) {
      expect(isRoutableAddress(ipv4)).toBe(false);
      for (const { form, address } of ipv6Carrying(ipv4)) expect([ipv4, form, address, isRoutableAddress(address)]).toEqual([ipv4, form, address, false]);
    }
  });
});

describe('parseAddress: an address as its octets say', () => {
  it.each([
    // A dotted IPv4 tail of an IPv6 address is the last 32 bits, not the IPv4-mapped form ipaddr.js would read.
    ['::1.2.3.4', '::102:304'],
    ['::12.34.56.78', '::c22:384e'],
    ['::255.255.255.255', '::ffff:ffff'],
    ['::127.0.0.1%lo', '::7f00:1%lo'],
    ['1:2:3:4:5:6:10.0.0.1', '1:2:3:4:5:6:a00:1'],
    ['::ffff:1.2.3.4', '::ffff:102:304'],
    ['64:ff9b::93.184.216.34', '64:ff9b::5db8:d822'],
    ['8.8.8.8', '8.8.8.8'],
    ['2001:db8::1', '2001:db8::1'],
  ])('%s is %s', (ip, expected) => {
    expect(parseAddress(ip)?.toString()).toBe(expected);
  });

  it.each(['::1.2.3.256', '::999.1.1.1', 'not-an-ip', '', '::1.2.3.4.5'])('%s is none', (ip) => {
    expect(parseAddress(ip)).toBeNull();
  });
});

describe('embeddedIPv4: the IPv4 addresses an IPv6 address carries', () => {
  const carried = (ip: string) => {
    const out = embeddedIPv4(parseAddress(ip) as ipaddr.IPv6);
    return out === null || out === 'opaque' ? out : out.map(String);
  };
  it('by the form that carries them; none for :: and ::1 (unspecified and loopback, not IPv4-compatible), opaque for NAT64 local use', () => {
    expect(carried('::')).toBeNull();
    expect(carried('::1')).toBeNull();
    expect(carried('::2')).toEqual(['0.0.0.2']);
    expect(carried('::1:0')).toEqual(['0.1.0.0']);
    expect(carried('::ffff:8.8.8.8')).toEqual(['8.8.8.8']);
    expect(carried('64:ff9b::a00:1')).toEqual(['10.0.0.1']);
    expect(carried('64:ff9b:1::a00:1')).toBe('opaque');
    expect(carried('2002:a00:1::')).toEqual(['10.0.0.1']);
    expect(carried('2001:0:a00:1:0:0:f7f7:f7f7')).toEqual(['10.0.0.1', '8.8.8.8']);
    expect(carried('2001:4860:4860::8888')).toBeNull();
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
    await expect(guard.check('http://[::127.0.0.1]/')).rejects.toThrow(NON_ROUTABLE_MESSAGE);
    await expect(guard.check('http://[::a9fe:a9fe]/latest/meta-data/')).rejects.toThrow(NON_ROUTABLE_MESSAGE);
    await expect(guard.check('http://[2002:808:808::1]/hook')).resolves.toBeUndefined();
    await expect(guard.check('ftp://public.test/')).rejects.toBeInstanceOf(DestinationRefusedError);
    await expect(guard.check('https://nowhere.test/')).rejects.toBeInstanceOf(DestinationRefusedError);
  });

  it('a name that resolves to a public and a private address is refused, whichever comes first and whatever the family', async () => {
    const guard = new DestinationGuard({ allowPrivate: false, dnsServers: [dns.server] });
    dns.records.set('both.test', ['93.184.216.34', '10.0.0.5']);
    dns.records.set('both-reversed.test', ['10.0.0.5', '93.184.216.34']);
    // A public IPv4 address and an IPv6 loopback (AAAA) one.
    dns.records.set('both-families.test', ['93.184.216.34', '::1']);
    dns.records.set('public-twice.test', ['93.184.216.34', '2001:4860:4860::8888']);
    expect(await guard.resolve('both-families.test')).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '::1', family: 6 },
    ]);
    for (const host of ['both.test', 'both-reversed.test', 'both-families.test']) {
      await expect(guard.check(`https://${host}/hook`)).rejects.toThrow(NON_ROUTABLE_MESSAGE);
    }
    await expect(guard.check('https://public-twice.test/hook')).resolves.toBeUndefined();
  });

  it('connect time: a name that resolves to a public and a loopback address is refused before anything is sent', async () => {
    const guard = new DestinationGuard({ allowPrivate: false, dnsServers: [dns.server] });
    const agents = guard.createAgents();
    dns.records.set('split.test', ['93.184.216.34', '127.0.0.1']);
    const before = hits;
    await expect(get(agents.http, 'split.test')).rejects.toThrow(`${NON_ROUTABLE_MESSAGE}: split.test`);
    expect(hits).toBe(before);
    agents.http.destroy();
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

  it("save-time check: a URL whose host is an IPv6 literal carrying an IPv4 address gets that address's verdict (fixed seed)", async () => {
    const guard = new DestinationGuard({ allowPrivate: false, dnsServers: [dns.server] });
    await fc.assert(
      fc.asyncProperty(fuzzDestination, async ({ url, ipv4 }) => {
        const outcome = await guard.check(url).then(
          () => 'accepted',
          (err: Error) => err.message,
        );
        expect([url, outcome]).toEqual([url, isRoutableAddress(ipv4) ? 'accepted' : NON_ROUTABLE_MESSAGE]);
      }),
      { seed: 42, numRuns: 500 },
    );
  });

  it('connect time: an IPv6 literal or a name (AAAA) carrying a loopback IPv4 address is refused before anything is sent', async () => {
    const guard = new DestinationGuard({ allowPrivate: false, dnsServers: [dns.server] });
    const agents = guard.createAgents();
    // The test DNS server answers A queries only: the name's AAAA answer is stood in for.
    const resolve = guard.resolve.bind(guard);
    jest.spyOn(guard, 'resolve').mockImplementation(async (host) => (host === 'six.test' ? [{ address: '::7f00:1', family: 6 }] : resolve(host)));
    const before = hits;
    for (const host of ['::127.0.0.1', '::7f00:1', '::ffff:127.0.0.1', '64:ff9b::7f00:1', '2002:7f00:1::1', 'six.test']) {
      await expect(get(agents.http, host)).rejects.toThrow(NON_ROUTABLE_MESSAGE);
    }
    expect(hits).toBe(before);
    agents.http.destroy();
  });

  /** The guard's socket lookup, called as a socket would, as a promise of what it called back with. */
  const lookup = (guard: DestinationGuard, host: string, opts: object) =>
    new Promise<{ err: (Error & { code?: string }) | null; address: unknown; family?: number }>((resolve) =>
      guard.lookup(host, opts, ((err: Error | null, address: unknown, family?: number) => resolve({ err, address, family })) as never),
    );

  it('the socket lookup answers every address when asked for all, else the first; refuses a name with any non-routable one', async () => {
    const guard = new DestinationGuard({ allowPrivate: false, dnsServers: [dns.server] });
    dns.records.set('two.test', ['93.184.216.34', '2001:4860:4860::8888']);
    dns.records.set('mixed.test', ['93.184.216.34', '10.0.0.5']);
    expect(await lookup(guard, 'two.test', { all: true })).toEqual({
      err: null,
      address: [
        { address: '93.184.216.34', family: 4 },
        { address: '2001:4860:4860::8888', family: 6 },
      ],
      family: undefined,
    });
    expect(await lookup(guard, 'two.test', {})).toEqual({ err: null, address: '93.184.216.34', family: 4 });
    expect(await lookup(guard, 'two.test', { all: false })).toEqual({ err: null, address: '93.184.216.34', family: 4 });
    const refused = await lookup(guard, 'mixed.test', { all: true });
    expect(refused.err).toBeInstanceOf(DestinationRefusedError);
    expect([refused.err!.message, refused.err!.code]).toEqual(['Webhook destination resolves to a non-routable address: mixed.test', 'EDESTINATIONREFUSED']);
    // A family number instead of options (Node's older form) or none: the first address.
    expect(await lookup(guard, 'two.test', 4 as never)).toEqual({ err: null, address: '93.184.216.34', family: 4 });
    expect(await lookup(guard, 'two.test', null as never)).toEqual({ err: null, address: '93.184.216.34', family: 4 });
    expect(await lookup(guard, 'two.test', undefined as never)).toEqual({ err: null, address: '93.184.216.34', family: 4 });
    const unknown = await lookup(guard, 'nowhere.test', {});
    expect([unknown.err!.message, unknown.err!.code]).toEqual(['Webhook destination host could not be resolved: nowhere.test', 'ENOTFOUND']);
    // With private destinations allowed, the same name resolves.
    const open = new DestinationGuard({ allowPrivate: true, dnsServers: [dns.server] });
    expect(await lookup(open, 'mixed.test', {})).toEqual({ err: null, address: '93.184.216.34', family: 4 });
  });

  it('the socket lookup hands a failed resolution to the socket as its error', async () => {
    const guard = new DestinationGuard({ allowPrivate: false, dnsServers: [dns.server] });
    const failure = Object.assign(new Error('resolver gone'), { code: 'ESERVFAIL' });
    jest.spyOn(guard, 'resolve').mockRejectedValue(failure);
    expect(await lookup(guard, 'any.test', {})).toEqual({ err: failure, address: '', family: 0 });
  });

  it('connection options: an IP literal host (bracketed or not, as host or hostname) is checked at once; names are left to the lookup', () => {
    const guard = new DestinationGuard({ allowPrivate: false });
    for (const options of [{ host: '127.0.0.1' }, { hostname: '[::1]' }, { hostname: '::ffff:10.0.0.1', host: '93.184.216.34' }]) {
      expect(() => guard.connectionOptions(options)).toThrow(DestinationRefusedError);
    }
    expect(() => guard.connectionOptions({ hostname: '127.0.0.1' })).toThrow(`${NON_ROUTABLE_MESSAGE}: 127.0.0.1`);
    const named = guard.connectionOptions({ host: 'example.test', port: 80 });
    expect(named).toEqual({ host: 'example.test', port: 80, lookup: guard.lookup });
    expect(guard.connectionOptions({ hostname: '[2001:4860:4860::8888]' }).lookup).toBe(guard.lookup);
    expect(guard.connectionOptions({ host: '93.184.216.34', hostname: null }).lookup).toBe(guard.lookup);
    expect(new DestinationGuard({ allowPrivate: true }).connectionOptions({ host: '127.0.0.1' })).toMatchObject({ host: '127.0.0.1' });
  });

  it('connection options: only a host in a pair of brackets is unwrapped; a host with one bracket, or none at all, is left to the lookup', () => {
    const guard = new DestinationGuard({ allowPrivate: false });
    expect(() => guard.connectionOptions({ host: '[127.0.0.1]' })).toThrow(`${NON_ROUTABLE_MESSAGE}: 127.0.0.1`);
    for (const options of [{ host: 'x127.0.0.1]' }, { hostname: '[127.0.0.1x' }, { port: 80 }]) {
      expect(guard.connectionOptions(options)).toEqual({ ...options, lookup: guard.lookup });
    }
  });

  it('the guarded https agent opens its connections itself when the destination is allowed', async () => {
    const agents = new DestinationGuard({ allowPrivate: true }).createAgents();
    let connections = 0;
    const tcp = createNetServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    const err = await new Promise<Error>((resolve) => {
      const req = httpsRequest({ host: '127.0.0.1', port: (tcp.address() as AddressInfo).port, path: '/', agent: agents.https }, () => resolve(new Error('answered')));
      req.on('error', resolve);
      req.end();
    });
    expect(err.message).not.toBe('answered');
    expect(connections).toBe(1);
    agents.https.destroy();
    await new Promise((resolve) => tcp.close(resolve));
  });

  it("without DNS servers configured, names resolve with the system's resolver (localhost is loopback); what is not an http(s) URL or does not resolve is refused", async () => {
    const guard = new DestinationGuard({ allowPrivate: false });
    expect((await guard.resolve('localhost')).map((a) => a.address)).toContain('127.0.0.1');
    // A name that does not exist (.invalid never does, RFC 2606): no address.
    expect(await guard.resolve('nowhere.invalid')).toEqual([]);
    // An empty list of DNS servers is none configured.
    expect((await new DestinationGuard({ allowPrivate: false, dnsServers: [] }).resolve('localhost')).map((a) => a.address)).toContain('127.0.0.1');
    await expect(guard.check('http://localhost:3000/hook')).rejects.toThrow(NON_ROUTABLE_MESSAGE);
    await expect(guard.check('not a url')).rejects.toThrow(new DestinationRefusedError('Webhook destination must be an http(s) URL'));
    await expect(guard.check('file:///etc/passwd')).rejects.toThrow(new DestinationRefusedError('Webhook destination must be an http(s) URL'));
    const withDns = new DestinationGuard({ allowPrivate: false, dnsServers: [dns.server] });
    await expect(withDns.check('https://nowhere.test/')).rejects.toThrow(new DestinationRefusedError('Webhook destination host could not be resolved'));
  });

  it('the guarded https agent refuses too; the agents keep connections alive, up to 256 per host', async () => {
    const guard = new DestinationGuard({ allowPrivate: false, dnsServers: [dns.server] });
    const agents = guard.createAgents();
    expect([agents.http.maxSockets, agents.https.maxSockets]).toEqual([256, 256]);
    expect([(agents.http as unknown as { keepAlive: boolean }).keepAlive, (agents.https as unknown as { keepAlive: boolean }).keepAlive]).toEqual([true, true]);
    const err = await new Promise<Error>((resolve) => {
      const req = httpsRequest({ host: '127.0.0.1', port, path: '/', agent: agents.https }, () => resolve(new Error('answered')));
      req.on('error', resolve);
      req.end();
    });
    expect(err.message).toBe(`${NON_ROUTABLE_MESSAGE}: 127.0.0.1`);
    agents.http.destroy();
    agents.https.destroy();
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
