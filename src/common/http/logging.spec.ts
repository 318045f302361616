import { QueryFailedError } from 'typeorm';
import { Writable } from 'node:stream';
import { until } from '../../../test/support/until';
import { createRootLogger, PinoNestLogger, redactUrl, requestLogger, serializeError } from './logging';

describe('redactUrl', () => {
  it('hides credential-bearing query values', () => {
    expect(redactUrl('/api/auth/oauth2/callback/custom?code=abc&state=def&x=1')).toBe('/api/auth/oauth2/callback/custom?code=%5BREDACTED%5D&state=%5BREDACTED%5D&x=1');
    expect(redactUrl('/api/x?token=t&api_key=k')).not.toMatch(/=t(&|$)|=k(&|$)/);
  });
  it('leaves other URLs alone', () => {
    expect(redactUrl('/api/task/1')).toBe('/api/task/1');
    expect(redactUrl('/api/search?q=hello&limit=5')).toBe('/api/search?q=hello&limit=5');
  });
});

describe('the err serializer of the logger', () => {
  it('drops the parameters and the detail of a database error, which can hold secrets', () => {
    const driverError = Object.assign(new Error('null value in column "name" violates not-null constraint'), {
      code: '23502',
      detail: 'Failing row contains (1, null, $argon2id$v=19$secret-hash).',
    });
    const err = new QueryFailedError('INSERT INTO "user" VALUES ($1, $2, $3)', ['1', null, '$argon2id$v=19$secret-hash'], driverError);
    const out = JSON.stringify(serializeError(err));
    expect(out).not.toContain('secret-hash');
    expect(out).toContain('23502');
    expect(out).toContain('violates not-null constraint');
  });
});

/** A root logger writing into an array of parsed lines. */
function capture(level = 'trace') {
  const lines: any[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  return { lines, logger: createRootLogger({ logLevel: level } as any, sink) };
}

describe('the root logger', () => {
  it('censors secrets anywhere in a logged object and scrubs database errors', () => {
    const { lines, logger } = capture();
    const driverError = Object.assign(new Error('boom'), { detail: 'Failing row contains (s3cr3t-hash)' });
    logger.info({ user: { password: 'hunter2' }, account: { idToken: 'eyJ.id', refreshToken: 'rt' }, req: { headers: { authorization: 'Bearer abc' } } }, 'x');
    logger.error({ err: new QueryFailedError('INSERT', ['s3cr3t-hash'], driverError) }, 'failed');
    const out = JSON.stringify(lines);
    for (const secret of ['hunter2', 'eyJ.id', '"rt"', 'Bearer abc', 's3cr3t-hash']) expect(out).not.toContain(secret);
    expect(lines[0].user.password).toBe('[REDACTED]');
  });

  it('censors the secret fields of integration and notification bodies', () => {
    const { lines, logger } = capture();
    const body = {
      botToken: '123456789:AAAAbbbbccccddddeeeeffffgggghhhhwxyz',
      webhookUrl: 'https://hooks.example.com/services/T0/B0/clearsecret',
      secret: 'signing-secret',
      webhookSecret: 'whsec_abc',
      accessToken: 'gitea-token',
      topicpushToken: 'tk_topic',
      serverpushToken: 'server-token',
    };
    logger.warn({ body }, 'x');
    const out = JSON.stringify(lines);
    for (const secret of Object.values(body)) expect(out).not.toContain(secret);
    expect(Object.keys(lines[0].body).sort()).toEqual(Object.keys(body).sort());
  });

  it("serves as Nest's logger: context, levels, errors with their stack", () => {
    const { lines, logger } = capture('debug');
    const nest = new PinoNestLogger(logger);
    nest.log('started', 'Bootstrap');
    nest.warn({ queue: 'email' }, 'Relay');
    nest.error('went wrong', 'Error: x\n    at y', 'Relay');
    nest.error(new Error('thrown'));
    nest.verbose('hidden at debug level');
    expect(lines.map((l) => [l.level, l.msg, l.context])).toEqual([
      [30, 'started', 'Bootstrap'],
      [40, undefined, 'Relay'],
      [50, 'went wrong', 'Relay'],
      [50, 'thrown', undefined],
    ]);
    expect(lines[1].queue).toBe('email');
    expect(lines[2].stack).toContain('at y');
    expect(lines[3].err.message).toBe('thrown');
  });

  it("puts Nest's boot chatter (modules, routes) at debug, so the default start-up log stays short", () => {
    const atInfo = capture('info');
    const atDebug = capture('debug');
    for (const { logger } of [atInfo, atDebug]) {
      const nest = new PinoNestLogger(logger);
      nest.log('Mapped {/api/health, GET} route', 'RouterExplorer');
      nest.log('HealthController {/api/health}:', 'RoutesResolver');
      nest.log('AppModule dependencies initialized', 'InstanceLoader');
      nest.log('Tandem started (api)', 'Main');
    }
    expect(atInfo.lines.map((l) => l.msg)).toEqual(['Tandem started (api)']);
    expect(atDebug.lines.map((l) => [l.level, l.context])).toEqual([
      [20, 'RouterExplorer'],
      [20, 'RoutesResolver'],
      [20, 'InstanceLoader'],
      [30, 'Main'],
    ]);
  });
});

describe('the request logger', () => {
  it('logs one line per request with id, method, redacted path, status and latency; health is quiet', async () => {
    const { createServer } = await import('node:http');
    const { lines, logger } = capture('info');
    const log = requestLogger(logger);
    const server = createServer((req, res) =>
      log(req as any, res, () => {
        res.statusCode = req.url!.startsWith('/api/fail') ? 500 : req.url!.startsWith('/api/missing') ? 404 : 200;
        res.end('{}');
      }),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const base = `http://127.0.0.1:${(server.address() as any).port}`;
    try {
      const ok = await fetch(`${base}/api/thing?code=abc&x=1`, { headers: { 'x-request-id': 'trace-1' } });
      expect(ok.headers.get('x-request-id')).toBe('trace-1');
      const minted = await fetch(`${base}/api/missing`, { headers: { 'x-request-id': 'bad id with spaces' } });
      expect(minted.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      await fetch(`${base}/api/fail`);
      await fetch(`${base}/api/health`);
      // A line is written when its response closes, after the client has it: a request after the
      // health check is logged once it has been, so its line, when it comes, shows what came before.
      await fetch(`${base}/api/after`);
      await until('the line of the request after the health check', () => lines.some((l) => l.req.url === '/api/after'));
    } finally {
      await new Promise((r) => server.close(r));
    }
    expect(lines.map((l) => [l.level, l.req.method, l.req.url, l.res.statusCode])).toEqual([
      [30, 'GET', '/api/thing?code=%5BREDACTED%5D&x=1', 200],
      [40, 'GET', '/api/missing', 404],
      [50, 'GET', '/api/fail', 500],
      [30, 'GET', '/api/after', 200],
    ]);
    expect(lines[0].reqId).toBe('trace-1');
    expect(lines[1].reqId).toMatch(/^[0-9a-f-]{36}$/);
    for (const l of lines) expect(typeof l.responseTime).toBe('number');
  });
});
