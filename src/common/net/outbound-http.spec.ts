import * as http from 'node:http';
import * as https from 'node:https';
import { AddressInfo } from 'node:net';
import { DestinationGuard, NON_ROUTABLE_MESSAGE } from './destination-guard';
import { OutboundError, post } from './outbound-http';

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
    handler = (_req, res) => res.writeHead(201, { 'x-answer': 'yes' }).end('created');
    const res = await post({ url: `${base}/in`, headers: { 'content-type': 'application/json' }, body: '{"a":"ü"}' }, agents);
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

  it('gives up after the timeout with an error that names no URL', async () => {
    handler = () => undefined; // never answers
    const err = await post({ url: `${base}${SECRET_PATH}`, headers: {}, body: '{}' }, agents, { timeoutMs: 300 }).catch((e) => e);
    expect(err).toBeInstanceOf(OutboundError);
    expect(err).toMatchObject({ message: 'No answer within 0.3 s', permanent: false });
    server.closeAllConnections();
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
