import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { cappedFetch } from './capped-fetch';

let server: Server;
let base: string;
/** Resolves when the server's side of the last endless answer closes. */
let endlessClosed: Promise<void> = Promise.resolve();
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/endless') endlessClosed = new Promise((resolve) => res.once('close', () => resolve()));
    if (req.url === '/small') {
      res.writeHead(201, { 'content-type': 'application/json', 'x-thing': 'a' }).end('{"ok":true}');
    } else if (req.url === '/endless') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(64 * 1024, 1);
      const pump = () => {
        while (res.write(chunk));
      };
      res.on('drain', pump);
      pump();
    } else if (req.url === '/exact') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('a'.repeat(512));
      res.end('b'.repeat(512));
    } else if (req.url === '/not-modified') {
      res.writeHead(304).end();
    } else if (req.url === '/silent') {
      res.writeHead(200); // headers, then nothing
    } else {
      res.writeHead(204).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('cappedFetch', () => {
  const f = cappedFetch({ timeoutMs: 1_000, maxBytes: 256 * 1024 });

  it('hands back a small answer whole: status, headers, body', async () => {
    const res = await f(`${base}/small`, { method: 'POST', body: '{}' });
    expect([res.status, res.headers.get('x-thing'), await res.json()]).toEqual([201, 'a', { ok: true }]);
    expect((await f(`${base}/none`)).status).toBe(204);
  });

  it('gives up on an answer larger than the cap, without reading it all, and drops the connection', async () => {
    await expect(f(`${base}/endless`)).rejects.toThrow('the answer is larger than 262144 bytes');
    await endlessClosed;
  });

  it('sends the request as given: method, headers, body', async () => {
    const echo = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: req.method, thing: req.headers['x-thing'], body })));
    });
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
    const res = await f(`http://127.0.0.1:${(echo.address() as AddressInfo).port}/`, { method: 'PUT', headers: { 'x-thing': 'b' }, body: 'hello' });
    expect(await res.json()).toEqual({ method: 'PUT', thing: 'b', body: 'hello' });
    echo.closeAllConnections();
    await new Promise((r) => echo.close(r));
  });

  it('gives up when the answer does not complete within the deadline', async () => {
    await expect(f(`${base}/silent`)).rejects.toThrow();
  });

  it('an answer exactly as large as the cap is handed back whole, in order; one byte less of cap refuses it', async () => {
    const exact = cappedFetch({ timeoutMs: 1_000, maxBytes: 1024 });
    const res = await exact(`${base}/exact`);
    expect([res.status, res.statusText, res.headers.get('content-type'), await res.text()]).toEqual([200, 'OK', 'text/plain', 'a'.repeat(512) + 'b'.repeat(512)]);
    await expect(cappedFetch({ timeoutMs: 1_000, maxBytes: 1023 })(`${base}/exact`)).rejects.toThrow('the answer is larger than 1023 bytes');
  });

  it('204 and 304 answers have no body', async () => {
    const res = await f(`${base}/not-modified`);
    expect([res.status, res.body]).toEqual([304, null]);
  });

  it('the deadline names its length', async () => {
    const err = await cappedFetch({ timeoutMs: 50, maxBytes: 1024 })(`${base}/silent`).catch((e) => e);
    expect(err.message).toBe('no complete answer within 50 ms');
  });
});
