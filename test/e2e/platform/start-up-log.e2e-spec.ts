import { randomBytes } from 'node:crypto';
import { dropRedisKeys, runRedisUrl } from '../../support/app';
import { DB_PREFIX, TEMPLATE_DB, urlFor, withAdmin } from '../../support/db';
import { launch, Launched } from '../../support/launcher';

/**
 * The start-up log at the default level (README, "Run it"): a line per server with its origin
 * (password hidden), one for migrations, a warning per unsafe setting, the listening line, and
 * nothing of Nest's route listing (about 240 "Mapped {…} route" lines), which only LOG_LEVEL=debug
 * shows.
 */

const database = `${DB_PREFIX}start_log_${randomBytes(2).toString('hex')}`;
const queuePrefix = `t_startlog_${randomBytes(3).toString('hex')}`;
// A password in DATABASE_URL (the test Postgres trusts local connections and ignores it, unless
// the admin URL has one of its own, which is then kept): it must never reach the log.
const dbUrl = new URL(urlFor(database));
if (!dbUrl.password) dbUrl.password = `pw-${randomBytes(6).toString('hex')}`;
const password = decodeURIComponent(dbUrl.password);

const env = () => ({
  DATABASE_URL: dbUrl.toString(),
  REDIS_URL: runRedisUrl(),
  DATABASE_POOL_SIZE: '3',
  QUEUE_PREFIX: queuePrefix,
  APP_ROLES: 'api,worker',
  PORT: '0',
  ALLOW_PRIVATE_DESTINATIONS: 'true',
});

/** The output's lines, each parsed when it is a JSON log line. */
function lines(output: string): { raw: string; level?: number; msg?: string }[] {
  return output
    .split('\n')
    .filter((l) => l.trim())
    .map((raw) => {
      try {
        const j = JSON.parse(raw);
        return { raw, level: j.level, msg: j.msg };
      } catch {
        return { raw };
      }
    });
}

afterAll(async () => {
  await dropRedisKeys(runRedisUrl(), queuePrefix);
  await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
});

describe('the start-up log', () => {
  it('at the default level: servers and their origin, migrations, unsafe settings, the address; no route listing', async () => {
    let proc: Launched | undefined;
    // No database yet, whichever test ran first.
    await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
    try {
      // LOG_LEVEL unset: its default, info outside NODE_ENV=test (which defaults to warn).
      proc = await launch({ ...env(), NODE_ENV: 'development', LOG_LEVEL: undefined }, 120_000);
      // Whatever the workers log after start-up belongs to the count too: all it logged while it
      // ran, up to the stop (no time is given for it).
      expect(await proc.kill('SIGTERM')).toBe(0);
      const out = proc.output();
      const whole = lines(out);
      const stop = whole.findIndex((l) => l.msg === 'SIGTERM received, shutting down');
      expect(stop).toBeGreaterThan(0);
      const all = whole.slice(0, stop);
      expect(all.length).toBeLessThan(20);
      expect(out).not.toContain('Mapped {');
      expect(out).not.toContain('dependencies initialized');
      expect(out).not.toContain(password);

      const postgres = all.filter((l) => l.msg?.startsWith('Postgres: '));
      expect(postgres.map((l) => l.msg)).toEqual([`Postgres: ${dbUrl.protocol}//${dbUrl.username}:***@${dbUrl.host}/${database} (set by DATABASE_URL)`]);
      const redis = all.filter((l) => l.msg?.startsWith('Redis: '));
      expect(redis).toHaveLength(1);
      expect(redis[0].msg).toMatch(/^Redis: redis:\/\/\S+ \(set by REDIS_URL\)$/);

      // The database did not exist: created, and every migration applied.
      const migrations = all.filter((l) => l.msg?.startsWith('Migrations: '));
      expect(migrations).toHaveLength(1);
      expect(migrations[0].msg).toMatch(new RegExp(`^Migrations: database ${database} created; \\d+ migrations? applied \\(last: \\S+\\)$`));

      const warnings = all.filter((l) => l.level === 40);
      expect(warnings.map((l) => l.msg)).toContainEqual(expect.stringMatching(/^ALLOW_PRIVATE_DESTINATIONS=true: webhooks.* may reach private and loopback addresses/));

      const started = all.filter((l) => l.msg?.startsWith('Tandem started'));
      expect(started).toHaveLength(1);
      expect(started[0].msg).toMatch(/^Tandem started \(api,worker\) on port \d+: http:\/\/0\.0\.0\.0:\d+\/api$/);
    } finally {
      await proc?.kill('SIGKILL');
    }
  }, 180_000);

  it('at LOG_LEVEL=debug: the route listing too, and a start on a migrated database finds the schema up to date', async () => {
    let proc: Launched | undefined;
    // A migrated database, whichever test ran first (the other one creates it; else a copy of the migrated template).
    await withAdmin(async (c) => {
      const { rowCount } = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
      if (!rowCount) await c.query(`CREATE DATABASE "${database}" TEMPLATE "${TEMPLATE_DB}"`);
    });
    try {
      proc = await launch({ ...env(), LOG_LEVEL: 'debug' }, 120_000);
      const out = proc.output();
      expect(lines(out).filter((l) => l.msg?.startsWith('Mapped {')).length).toBeGreaterThan(50);
      expect(out).toContain('dependencies initialized');
      expect(
        lines(out)
          .filter((l) => l.msg?.startsWith('Migrations: '))
          .map((l) => l.msg),
      ).toEqual(['Migrations: schema up to date']);
      expect(out).not.toContain(password);
    } finally {
      await proc?.kill('SIGKILL');
    }
  }, 180_000);
});
