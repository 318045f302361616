import * as http from 'node:http';
import * as https from 'node:https';
import * as net from 'node:net';
import { AddressInfo } from 'node:net';
import { DestinationGuard, DestinationRefusedError, NON_ROUTABLE_MESSAGE } from './destination-guard';
import { describeNetworkError, MAX_RESPONSE_BYTES, OutboundError, OutboundHttp, post, send, SEND_TIMEOUT_MS } from './outbound-http';

/** A real server on loopback; each test says how it answers. */
let server: http.Server;
let base: string;
let handler: (req: http.IncomingMessage, res: http.ServerResponse) => void;
const seen: Array<{ url: string; body: string; headers: http.IncomingHttpHeaders }> = [];
const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ url: req.url ?? '', body, headers: req.headers });
      handler(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  agents.http.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => (seen.length = 0));

const SECRET_PATH = '/hooks/T0001/SECRET-TOKEN-PART';

describe('post', () => {
  it('POSTs the body with its headers and answers status, headers and body', async () => {
    let method: string | undefined;
    handler = (req, res) => {
      method = req.method;
      res.writeHead(201, { 'x-answer': 'yes' }).end('created');
    };
    const res = await post({ url: `${base}/in`, headers: { 'content-type': 'application/json' }, body: '{"a":"ü"}' }, agents);
    expect(method).toBe('POST');
    expect(res).toMatchObject({ statusCode: 201, body: 'created', truncated: false });
    expect(res.headers['x-answer']).toBe('yes');
    expect(seen).toEqual([{ url: '/in', body: '{"a":"ü"}', headers: expect.objectContaining({ 'content-type': 'application/json', 'content-length': '10' }) }]);
  });

  it('does not follow a redirect: the 3xx is the answer', async () => {
    handler = (req, res) => (req.url === '/moved' ? res.writeHead(302, { location: `${base}/target` }).end() : res.writeHead(200).end('target'));
    const res = await post({ url: `${base}/moved`, headers: {}, body: '{}' }, agents);
    expect(res.statusCode).toBe(302);
    expect(seen.map((s) => s.url)).toEqual(['/moved']);
  });

  it('reads at most maxBytes of the answer', async () => {
    handler = (_req, res) => {
      res.writeHead(200);
      // Far more than the cap, in many chunks; the client stops reading after the cap.
      const chunk = 'y'.repeat(16 * 1024);
      let sent = 0;
      const more = () => {
        while (sent < 4 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return res.once('drain', more);
        }
        res.end();
      };
      res.on('error', () => undefined);
      more();
    };
    const res = await post({ url: `${base}/big`, headers: {}, body: '{}' }, agents, { maxBytes: 64 * 1024 });
    expect(res.truncated).toBe(true);
    expect(res.body).toHaveLength(64 * 1024);
  });

  it('drops the connection past the cap instead of reading the rest', async () => {
    let written!: Promise<boolean>;
    handler = (_req, res) => {
      // Whether the whole answer was written when the server's side of the exchange closed.
      written = new Promise((resolve) => res.once('close', () => resolve(res.writableFinished)));
      res.on('error', () => undefined);
      res.writeHead(200);
      const chunk = 'y'.repeat(16 * 1024);
      let sent = 0;
      const more = (): void => {
        while (sent < 4 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      more();
    };
    const res = await post({ url: `${base}/big`, headers: {}, body: '' }, agents, { maxBytes: 1024 });
    expect([res.body.length, res.truncated]).toEqual([1024, true]);
    expect(await written).toBe(false);
  });

  it('gives up after the timeout with an error that names no URL, and drops the connection', async () => {
    let dropped!: Promise<void>;
    // Never answers; notes when the client drops the connection.
    handler = (req) => {
      dropped = new Promise((resolve) => req.socket.once('close', () => resolve()));
    };
    const err = await post({ url: `${base}${SECRET_PATH}`, headers: {}, body: '{}' }, agents, { timeoutMs: 300 }).catch((e) => e);
    expect(err).toBeInstanceOf(OutboundError);
    expect(err).toMatchObject({ message: 'No answer within 0.3 s', permanent: false });
    await dropped;
  });

  it('without options: a deadline of 10 s and answers up to 64 KiB', async () => {
    expect([SEND_TIMEOUT_MS, MAX_RESPONSE_BYTES]).toEqual([10_000, 65_536]);
    const timers = jest.spyOn(global, 'setTimeout');
    handler = (_req, res) => res.writeHead(200).end('w'.repeat(MAX_RESPONSE_BYTES + 1));
    const res = await post({ url: `${base}/big`, headers: {}, body: '' }, agents);
    expect(timers.mock.calls.map((c) => c[1])).toContain(10_000);
    timers.mockRestore();
    expect([res.body.length, res.truncated]).toEqual([MAX_RESPONSE_BYTES, true]);
  });

  it('a receiver that drops the connection mid-answer is a transient error', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('partial', () => res.socket?.destroy());
    };
    const err = await post({ url: `${base}${SECRET_PATH}`, headers: {}, body: '' }, agents).catch((e) => e);
    expect(err).toBeInstanceOf(OutboundError);
    expect([err.message, err.permanent]).toEqual(['The receiver closed the connection mid-answer', false]);
  });

  it('a refused connection is a transient error described without the URL', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const err = await post({ url: `http://127.0.0.1:${port}${SECRET_PATH}`, headers: {}, body: '{}' }, agents).catch((e) => e);
    expect(err).toMatchObject({ message: 'Connection refused', permanent: false });
  });

  it('through guarded agents, a non-routable destination is refused for good before anything is sent', async () => {
    const guarded = new DestinationGuard({ allowPrivate: false }).createAgents();
    handler = (_req, res) => res.writeHead(200).end();
    const err = await post({ url: `${base}${SECRET_PATH}`, headers: {}, body: '{}' }, guarded).catch((e) => e);
    expect(err).toBeInstanceOf(OutboundError);
    expect(err.permanent).toBe(true);
    expect(err.message).toContain(NON_ROUTABLE_MESSAGE);
    expect(err.message).not.toContain('SECRET');
    expect(seen).toEqual([]);
    guarded.http.destroy();
  });

  it('an unusable URL is a permanent error', async () => {
    await expect(post({ url: 'not a url', headers: {}, body: '' }, agents)).rejects.toMatchObject({ permanent: true, message: 'The destination URL is not valid' });
    await expect(post({ url: 'ftp://example.test/x', headers: {}, body: '' }, agents)).rejects.toMatchObject({ permanent: true });
  });
});

describe('send', () => {
  it('a GET carries no body and no content-length; the answer is read as for a POST', async () => {
    handler = (req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(`${req.method} ${req.headers['content-length'] ?? 'none'}`);
    const res = await send({ url: `${base}/api`, method: 'GET', headers: { accept: 'application/json' } }, agents);
    expect(res).toMatchObject({ statusCode: 200, body: 'GET none', truncated: false });
    expect(seen).toEqual([{ url: '/api', body: '', headers: expect.objectContaining({ accept: 'application/json' }) }]);
  });

  it('an answer exactly as long as the cap is whole, not truncated; one byte more is', async () => {
    handler = (req, res) => res.writeHead(200).end('z'.repeat(req.url === '/exact' ? 1024 : 1025));
    await expect(post({ url: `${base}/exact`, headers: {}, body: '' }, agents, { maxBytes: 1024 })).resolves.toMatchObject({ body: 'z'.repeat(1024), truncated: false });
    await expect(post({ url: `${base}/more`, headers: {}, body: '' }, agents, { maxBytes: 1024 })).resolves.toMatchObject({ body: 'z'.repeat(1024), truncated: true });
  });

  it('an answer in several chunks is read whole, in order, up to the cap', async () => {
    handler = (_req, res) => {
      res.writeHead(200);
      res.write('a'.repeat(600));
      res.write('b'.repeat(600));
      res.end('c'.repeat(600));
    };
    const whole = await post({ url: `${base}/chunks`, headers: {}, body: '' }, agents, { maxBytes: 4096 });
    expect(whole).toMatchObject({ body: 'a'.repeat(600) + 'b'.repeat(600) + 'c'.repeat(600), truncated: false });
    const cut = await post({ url: `${base}/chunks`, headers: {}, body: '' }, agents, { maxBytes: 1000 });
    expect(cut).toMatchObject({ body: 'a'.repeat(600) + 'b'.repeat(400), truncated: true });
  });

  it('a header value HTTP cannot carry is refused for good before anything is sent, without the value', async () => {
    const err = await post({ url: `${base}/in`, headers: { authorization: 'Bearer SECRET\r\nx: y' }, body: '{}' }, agents).catch((e) => e);
    expect(err).toBeInstanceOf(OutboundError);
    expect(err).toMatchObject({ permanent: true, message: 'The request header authorization holds characters HTTP cannot carry (ERR_INVALID_CHAR)' });
    expect(seen).toEqual([]);
  });

  it('https URLs go through the https agent (here one that refuses every connection)', async () => {
    const refusing = { http: agents.http, https: new DestinationGuard({ allowPrivate: false }).createAgents().https };
    const err = await post({ url: 'https://127.0.0.1:9/x', headers: {}, body: '' }, refusing).catch((e) => e);
    expect(err).toMatchObject({ permanent: true, message: `${NON_ROUTABLE_MESSAGE}: 127.0.0.1` });
    refusing.https.destroy();
  });

  it('a receiver that answers something other than HTTP is a transient error', async () => {
    const garbage = net.createServer((socket) => {
      socket.resume();
      socket.end('NOT HTTP AT ALL\r\n\r\n');
    });
    await new Promise<void>((resolve) => garbage.listen(0, '127.0.0.1', resolve));
    const port = (garbage.address() as AddressInfo).port;
    const err = await post({ url: `http://127.0.0.1:${port}${SECRET_PATH}`, headers: {}, body: '' }, agents).catch((e) => e);
    garbage.close();
    expect(err).toBeInstanceOf(OutboundError);
    expect(err.permanent).toBe(false);
    expect(err.message).toMatch(/^The receiver did not answer with valid HTTP/);
    expect(err.message).not.toContain('SECRET');
  });

  it('an ftp URL is refused for good, saying why', async () => {
    await expect(send({ url: 'ftp://example.test/x', method: 'GET', headers: {} }, agents)).rejects.toEqual(new OutboundError('The destination URL must be http(s)', true));
  });
});

describe('describeNetworkError', () => {
  const err = (code: string | undefined, message = 'connect ECONNREFUSED 10.0.0.1:443 https://hooks.test/SECRET') => Object.assign(new Error(message), { code });

  it('names each known code without the error message (which may hold the URL)', () => {
    const known: Record<string, string> = {
      ECONNREFUSED: 'Connection refused',
      ECONNRESET: 'Connection reset by the receiver',
      EPIPE: 'Connection closed by the receiver',
      ETIMEDOUT: 'Connection timed out',
      ENOTFOUND: 'Host name could not be resolved',
      EAI_AGAIN: 'Host name could not be resolved (temporary DNS failure)',
      EHOSTUNREACH: 'Host unreachable',
      ENETUNREACH: 'Network unreachable',
      HPE_INVALID_CONSTANT: 'The receiver did not answer with valid HTTP',
    };
    for (const [code, message] of Object.entries(known)) expect([code, describeNetworkError(err(code))]).toEqual([code, new OutboundError(message, false)]);
    expect(Object.values(known).map((m) => m.includes('SECRET'))).not.toContain(true);
  });

  it('TLS and HTTP parser errors by their code; anything else as a network error; all of them transient', () => {
    for (const code of [
      'ERR_TLS_CERT_ALTNAME_INVALID',
      'CERT_HAS_EXPIRED',
      'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
      'DEPTH_ZERO_SELF_SIGNED_CERT',
      'SELF_SIGNED_CERT_IN_CHAIN',
      'ERR_SSL_WRONG_VERSION_NUMBER',
    ]) {
      expect(describeNetworkError(err(code))).toEqual(new OutboundError(`TLS error (${code})`, false));
    }
    expect(describeNetworkError(err('XERR_TLS'))).toEqual(new OutboundError('Network error (XERR_TLS)', false));
    expect(describeNetworkError(err('HPE_HEADER_OVERFLOW'))).toEqual(new OutboundError('The receiver did not answer with valid HTTP (HPE_HEADER_OVERFLOW)', false));
    expect(describeNetworkError(err('EPROTO'))).toEqual(new OutboundError('Network error (EPROTO)', false));
    expect(describeNetworkError(err(undefined))).toEqual(new OutboundError('Network error', false));
    // toEqual compares errors by their message only: the flag that decides a retry, on its own.
    const permanent = ['ECONNREFUSED', 'EPROTO', 'CERT_HAS_EXPIRED', 'ERR_SSL_WRONG_VERSION_NUMBER', 'HPE_HEADER_OVERFLOW', undefined].map(
      (code) => describeNetworkError(err(code)).permanent,
    );
    expect(permanent).toEqual([false, false, false, false, false, false]);
  });

  it('a refused destination is permanent and keeps its message (it names no secret), whether by class or by code', () => {
    expect(describeNetworkError(new DestinationRefusedError('Webhook destination resolves to a non-routable address: h.test'))).toEqual(
      new OutboundError('Webhook destination resolves to a non-routable address: h.test', true),
    );
    expect(describeNetworkError(err('EDESTINATIONREFUSED', 'refused: h.test')).permanent).toBe(true);
  });
});

describe('OutboundHttp', () => {
  it('user-supplied URLs through the guarded agents, operator URLs through plain ones', async () => {
    const http1 = new OutboundHttp(new DestinationGuard({ allowPrivate: false }));
    handler = (_req, res) => res.writeHead(202).end('ok');
    await expect(http1.postGuarded({ url: `${base}/in`, headers: {}, body: '{}' })).rejects.toMatchObject({ permanent: true });
    await expect(http1.postOperator({ url: `${base}/in`, headers: {}, body: '{}' })).resolves.toMatchObject({ statusCode: 202, body: 'ok' });
    expect(seen.map((s) => s.url)).toEqual(['/in']);
    http1.onApplicationShutdown();
  });

  it('operator agents keep connections alive, up to 256 per host; shutdown closes all four agents', () => {
    const http1 = new OutboundHttp(new DestinationGuard({ allowPrivate: false }));
    const all = [http1.guarded.http, http1.guarded.https, http1.operator.http, http1.operator.https];
    expect(all.map((a) => [(a as unknown as { keepAlive: boolean }).keepAlive, a.maxSockets])).toEqual(all.map(() => [true, 256]));
    expect(http1.operator.https).toBeInstanceOf(https.Agent);
    const destroyed = all.map((a) => jest.spyOn(a, 'destroy'));
    http1.onApplicationShutdown();
    expect(destroyed.map((d) => d.mock.calls.length)).toEqual([1, 1, 1, 1]);
  });
});
