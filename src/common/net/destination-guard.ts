import { LookupAddress, promises as dnsPromises, lookup as systemLookup } from 'node:dns';
import * as http from 'node:http';
import * as https from 'node:https';
import { isIP, LookupFunction, Socket } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The destination guard (docs/integrations.md, "Destination guard"): outbound requests to URLs
 * that users supply (webhooks, chat webhooks, self-hosted git servers, push servers) may reach only
 * public unicast addresses. It checks when a URL is saved (DestinationGuard.check) and again when
 * a connection is opened (the agents below), on the address actually connected to, so a name that
 * resolved publicly when saved and privately later (DNS rebinding) cannot reach inside.
 * Address ranges come from ipaddr.js: only its `unicast` range passes, which leaves out loopback,
 * private, link-local, CGNAT, unique-local, unspecified, multicast and reserved addresses. An IPv6
 * address that carries an IPv4 address (embeddedIPv4 below: IPv4-mapped, IPv4-compatible, NAT64,
 * 6to4, Teredo) is judged by the IPv4 addresses it carries, since a host or network that
 * translates or tunnels it delivers to them: refused when any of them would be refused.
 */

export const NON_ROUTABLE_MESSAGE = 'Webhook destination resolves to a non-routable address';
export const UNRESOLVABLE_MESSAGE = 'Webhook destination host could not be resolved';

/** A destination the guard refuses (its message is safe to show and to log: no secret in it). */
export class DestinationRefusedError extends Error {
  readonly code = 'EDESTINATIONREFUSED';
}

/** ::/96, IPv4-compatible (RFC 4291, deprecated): the last 32 bits; `::` and `::1` are not of it. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');
/** 64:ff9b::/96, the NAT64 well-known prefix (RFC 6052): the last 32 bits. */
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');
/**
 * 64:ff9b:1::/48, the NAT64 prefix for local use (RFC 8215): the operator chooses the prefix length
 * inside it (/48 to /96), so where its IPv4 address sits cannot be told; refused whole.
 */
const NAT64_LOCAL_USE = ipaddr.parseCIDR('64:ff9b:1::/48');
/** 2002::/16, 6to4 (RFC 3056): the IPv4 address of the tunnel end is bits 16..47. */
const SIX_TO_FOUR = ipaddr.parseCIDR('2002::/16');
/** 2001::/32, Teredo (RFC 4380): the server's IPv4 address is bits 32..63, the client's the last 32 bits inverted. */
const TEREDO = ipaddr.parseCIDR('2001::/32');

const ipv4Of = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);

/**
 * The IPv4 addresses an IPv6 address carries, by the form that carries them; null for an address
 * of no such form. A connection to such an address reaches the IPv4 host through whoever
 * translates (NAT64), tunnels (6to4, Teredo, IPv4-compatible on hosts with a tunnel interface) or
 * maps it (IPv4-mapped: the host's own IPv4 stack). 'opaque' when the address is of a translation
 * prefix whose IPv4 position cannot be known (NAT64 local use).
 */
export function embeddedIPv4(addr: ipaddr.IPv6): ipaddr.IPv4[] | 'opaque' | null {
  const p = addr.parts;
  if (addr.isIPv4MappedAddress()) return [addr.toIPv4Address()];
  if (addr.match(IPV4_COMPATIBLE)) return p[6] === 0 && p[7] <= 1 ? null : [ipv4Of(p[6], p[7])];
  if (addr.match(NAT64_WELL_KNOWN)) return [ipv4Of(p[6], p[7])];
  if (addr.match(NAT64_LOCAL_USE)) return 'opaque';
  if (addr.match(SIX_TO_FOUR)) return [ipv4Of(p[1], p[2])];
  if (addr.match(TEREDO)) return [ipv4Of(p[2], p[3]), ipv4Of(p[6] ^ 0xffff, p[7] ^ 0xffff)];
  return null;
}

/**
 * An IP address as its octets say, or null when `ip` is none. A dotted IPv4 tail of an IPv6
 * address is rewritten as two hex groups first: ipaddr.js reads `::a.b.c.d` as IPv4-mapped
 * (`::ffff:a.b.c.d`), while the network stack connects to the IPv4-compatible `::a.b.c.d`.
 */
export function parseAddress(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const text = ip.includes(':')
    ? ip.replace(/(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?=%|$)/, (all, ...o: string[]) => {
        const b = o.slice(0, 4).map(Number);
        if (b.some((x) => x > 255)) return all;
        return `${((b[0] << 8) | b[1]).toString(16)}:${((b[2] << 8) | b[3]).toString(16)}`;
      })
    : ip;
  try {
    return ipaddr.parse(text);
  } catch {
    return null;
  }
}

/**
 * True when `ip` is a public unicast address. An IPv6 address that carries IPv4 addresses
 * (embeddedIPv4) is judged by them instead: routable only when every one of them is.
 */
export function isRoutableAddress(ip: string): boolean {
  const addr = parseAddress(ip);
  if (!addr) return false;
  if (addr.kind() === 'ipv4') return addr.range() === 'unicast';
  const carried = embeddedIPv4(addr as ipaddr.IPv6);
  if (carried === 'opaque') return false;
  if (carried) return carried.every((v4) => v4.range() === 'unicast');
  return addr.range() === 'unicast';
}

/** `[::1]` → `::1`: URL hostnames keep IPv6 brackets. */
const bareHost = (hostname: string) => (hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname);

export interface DestinationGuardOptions {
  /** ALLOW_PRIVATE_DESTINATIONS: no check at all (development and tests). */
  allowPrivate: boolean;
  /** OUTBOUND_DNS_SERVERS: resolve names with these servers (`host` or `host:port`) instead of the system's resolver. */
  dnsServers?: readonly string[];
}

type ConnectCallback = (err: Error | null, socket: Socket) => void;
/** What Node's agents do at run time (the type declarations leave createConnection out). */
interface AgentInternals {
  createConnection(this: http.Agent, options: http.ClientRequestArgs, cb?: ConnectCallback): Socket | undefined;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

export class DestinationGuard {
  private readonly resolver: dnsPromises.Resolver | null;

  constructor(readonly options: DestinationGuardOptions) {
    if (options.dnsServers?.length) {
      this.resolver = new dnsPromises.Resolver({ timeout: 3_000, tries: 2 });
      this.resolver.setServers([...options.dnsServers]);
    } else {
      this.resolver = null;
    }
  }

  get enabled(): boolean {
    return !this.options.allowPrivate;
  }

  /**
   * Save-time check of a user-supplied URL: http(s) only, and (unless private destinations are
   * allowed) every address its host resolves to must be routable. Throws DestinationRefusedError.
   */
  async check(url: string): Promise<void> {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      throw new DestinationRefusedError('Webhook destination must be an http(s) URL');
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new DestinationRefusedError('Webhook destination must be an http(s) URL');
    if (!this.enabled) return;
    const addresses = await this.resolve(bareHost(u.hostname));
    if (!addresses.length) throw new DestinationRefusedError(UNRESOLVABLE_MESSAGE);
    if (!addresses.every((a) => isRoutableAddress(a.address))) throw new DestinationRefusedError(NON_ROUTABLE_MESSAGE);
  }

  /** Every address of `host` (an IP literal answers itself); [] when the name does not resolve. */
  async resolve(host: string): Promise<LookupAddress[]> {
    const family = isIP(host);
    if (family) return [{ address: host, family }];
    if (!this.resolver) {
      return new Promise((resolve) => systemLookup(host, { all: true }, (err, addresses) => resolve(err ? [] : addresses)));
    }
    const [v4, v6] = await Promise.all([this.resolver.resolve4(host).catch(() => [] as string[]), this.resolver.resolve6(host).catch(() => [] as string[])]);
    return [...v4.map((address) => ({ address, family: 4 })), ...v6.map((address) => ({ address, family: 6 }))];
  }

  /**
   * A `lookup` for sockets: resolves like resolve() and fails with DestinationRefusedError when an
   * address is not routable (all of them are checked, whichever the socket would pick).
   */
  readonly lookup: LookupFunction = (hostname, opts, callback) => {
    const cb = callback as unknown as LookupCallback;
    const all = typeof opts === 'object' && opts !== null && (opts as { all?: boolean }).all === true;
    this.resolve(hostname).then(
      (addresses) => {
        if (!addresses.length) return cb(Object.assign(new Error(`${UNRESOLVABLE_MESSAGE}: ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
        if (this.enabled && !addresses.every((a) => isRoutableAddress(a.address))) {
          return cb(new DestinationRefusedError(`${NON_ROUTABLE_MESSAGE}: ${hostname}`), '', 0);
        }
        if (all) return cb(null, addresses);
        cb(null, addresses[0].address, addresses[0].family);
      },
      (err: NodeJS.ErrnoException) => cb(err, '', 0),
    );
  };

  /** Checks the host of a connection about to be opened: IP literals here (sockets skip lookup for them), names in lookup. */
  connectionOptions<T extends { host?: string | null; hostname?: string | null }>(options: T): T & { lookup: LookupFunction } {
    const host = bareHost(String(options.hostname ?? options.host ?? ''));
    if (this.enabled && isIP(host) && !isRoutableAddress(host)) throw new DestinationRefusedError(`${NON_ROUTABLE_MESSAGE}: ${host}`);
    return { ...options, lookup: this.lookup };
  }

  /** Keep-alive agents whose every new connection goes through the guard. */
  createAgents(agentOptions: http.AgentOptions = { keepAlive: true, maxSockets: 256 }): { http: http.Agent; https: https.Agent } {
    const guard = this;
    // The agent asks createConnection for every new socket; answering undefined and calling back
    // with an error makes the request fail with that error, before anything is sent.
    const connect = (
      create: (options: http.ClientRequestArgs, cb?: ConnectCallback) => Socket | undefined,
      options: http.ClientRequestArgs,
      cb?: ConnectCallback,
    ): Socket | undefined => {
      let guarded: http.ClientRequestArgs;
      try {
        guarded = guard.connectionOptions(options);
      } catch (err) {
        process.nextTick(() => cb?.(err as Error, undefined as unknown as Socket));
        return undefined;
      }
      return create(guarded, cb);
    };
    class GuardedHttpAgent extends http.Agent {
      override createConnection(options: http.ClientRequestArgs, cb?: ConnectCallback): Socket | undefined {
        return connect((o, c) => (http.Agent.prototype as unknown as AgentInternals).createConnection.call(this, o, c), options, cb);
      }
    }
    class GuardedHttpsAgent extends https.Agent {
      override createConnection(options: http.ClientRequestArgs, cb?: ConnectCallback): Socket | undefined {
        return connect((o, c) => (https.Agent.prototype as unknown as AgentInternals).createConnection.call(this, o, c), options, cb);
      }
    }
    return { http: new GuardedHttpAgent(agentOptions), https: new GuardedHttpsAgent(agentOptions) };
  }
}
