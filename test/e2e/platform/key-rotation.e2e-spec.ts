import { execFile } from 'node:child_process';
import { createCipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CryptoService, keyId } from '../../../src/common/crypto/crypto.service';
import { ENCRYPTED_COLUMNS } from '../../../src/common/crypto/encrypted-columns';
import { AppConfig } from '../../../src/config/app-config';
import { startTestApp, TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { builtMain } from '../../support/launcher';
import { createProject, ownerWithWorkspace } from '../../support/work-items';

/**
 * `npm run rotate-keys` as an operator runs it: the built command against a real database, with
 * ENCRYPTION_KEY = the new key and ENCRYPTION_KEY_PREVIOUS = the old one.
 */

const KEY_A = randomBytes(32).toString('hex');
const KEY_B = randomBytes(32).toString('hex');
const KEY_C = randomBytes(32).toString('hex');
const ID_B = keyId(Buffer.from(KEY_B, 'hex'));
const underKey = (hex: string, previous?: string) =>
  new CryptoService({ encryptionKey: Buffer.from(hex, 'hex'), encryptionKeyPrevious: previous ? Buffer.from(previous, 'hex') : undefined } as AppConfig);

/** A value in the first format (`v1:iv:tag:ct`, no key id), as stored before key ids existed. */
function sealV1(hex: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(hex, 'hex'), iv);
  const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), ct.toString('base64')].join(':');
}

const ROOT = join(__dirname, '../../..');
const dataDir = mkdtempSync(join(tmpdir(), 'tandem-rotate-'));

/** Runs the built command; resolves with its exit code and output. */
function rotateKeys(databaseUrl: string, env: Record<string, string>): Promise<{ code: number; out: string }> {
  const cli = join(dirname(builtMain()), 'common/crypto/rotate-keys-cli.js');
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cli],
      { cwd: ROOT, env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', TANDEM_DATA_DIR: dataDir, DATABASE_URL: databaseUrl, ...env } },
      (err, stdout, stderr) => resolve({ code: err ? Number((err as any).code ?? 1) : 0, out: stdout + stderr }),
    );
  });
}

let t: TestApp;
beforeAll(async () => {
  // Only for its migrated database and the rows the API creates (users, workspaces, projects).
  t = await startTestApp({ APP_ROLES: 'api' });
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Every encrypted column of the registry, as stored: `table.column` → value per row key. */
async function stored(): Promise<Record<string, Record<string, string | null>>> {
  const out: Record<string, Record<string, string | null>> = {};
  for (const spec of ENCRYPTED_COLUMNS) {
    for (const row of await sql(t.databaseUrl, `SELECT ${spec.key}::text AS key, ${spec.columns.join(', ')} FROM ${spec.table}`)) {
      for (const c of spec.columns) (out[`${spec.table}.${c}`] ??= {})[row.key] = row[c];
    }
  }
  return out;
}

/** Removes every row holding an encrypted value, so that a test counts only what it seeds (whatever ran before it). */
async function withoutSecrets(): Promise<void> {
  for (const table of new Set(ENCRYPTED_COLUMNS.map((spec) => spec.table))) await sql(t.databaseUrl, `DELETE FROM ${table}`);
}

/**
 * Accounts and integrations whose secrets are sealed under `hex` (a mix of the v2 format and the
 * old v1 format), plus one value already under key B; answers the plaintext of every value.
 */
async function seed(hex: string): Promise<Record<string, Record<string, string | null>>> {
  const a = underKey(hex);
  const plain: Record<string, Record<string, string | null>> = {};
  const put = (col: string, key: string, value: string | null) => ((plain[col] ??= {})[key] = value);
  const { owner, workspaceId } = await ownerWithWorkspace(t);
  const other = await t.api.signUp();
  const project = await createProject(t, owner.token, workspaceId);
  for (const [user, tokens] of [
    [owner.user.id, { access_token: `access-${randomBytes(4).toString('hex')}`, refresh_token: 'refresh-1', id_token: 'eyJ.id.token' }],
    [other.user.id, { access_token: 'access-2', refresh_token: null, id_token: null }],
  ] as const) {
    const [row] = await sql(
      t.databaseUrl,
      `INSERT INTO account (user_id, provider_id, account_id, access_token, refresh_token, id_token) VALUES ($1, 'custom', $2, $3, $4, $5) RETURNING id`,
      [
        user,
        `sub-${randomBytes(4).toString('hex')}`,
        sealV1(hex, tokens.access_token), // the old format
        tokens.refresh_token && a.encrypt(tokens.refresh_token),
        tokens.id_token && underKey(KEY_B).encrypt(tokens.id_token), // already under the new key
      ],
    );
    put('account.access_token', row.id, tokens.access_token);
    put('account.refresh_token', row.id, tokens.refresh_token);
    put('account.id_token', row.id, tokens.id_token);
  }
  for (const [type, secrets] of [
    ['messenger', { bot_token: '123456:bot-token', webhook_url: null, secret: null, previous_secret: null }],
    ['generic-webhook', { bot_token: null, webhook_url: 'https://hooks.example.test/a/b/c', secret: 'whsec-new', previous_secret: 'whsec-old' }],
  ] as const) {
    const [row] = await sql(
      t.databaseUrl,
      `INSERT INTO integration (workspace_id, project_id, type, events, bot_token, webhook_url, secret, previous_secret)
       VALUES ($1, $2, $3, '[]'::jsonb, $4, $5, $6, $7) RETURNING id`,
      [workspaceId, project.id, type, ...(['bot_token', 'webhook_url', 'secret', 'previous_secret'] as const).map((c) => a.encryptNullable(secrets[c]))],
    );
    for (const [c, v] of Object.entries(secrets)) put(`integration.${c}`, row.id, v);
  }
  // A selfgit integration: its access token and webhook secret.
  const gitSecrets = { access_token: 'selfgit-access-token', webhook_secret: 'ab'.repeat(24) };
  const [git] = await sql(
    t.databaseUrl,
    `INSERT INTO git_integration (workspace_id, project_id, type, base_url, access_token, webhook_secret, repository_owner, repository_name, repository_key)
     VALUES ($1, $2, 'selfgit', 'https://git.example', $3, $4, 'o', 'r', $5) RETURNING id`,
    [workspaceId, project.id, a.encrypt(gitSecrets.access_token), a.encrypt(gitSecrets.webhook_secret), `https://git.example/o/r/${randomBytes(4).toString('hex')}`],
  );
  for (const [c, v] of Object.entries(gitSecrets)) put(`git_integration.${c}`, git.id, v);
  // A user's notification tokens and webhook secrets (one column empty).
  const prefs = { topicpush_token: 'tk-topic-token', serverpush_token: null, webhook_secret: 'hook-secret', webhook_previous_secret: 'hook-old-secret' };
  await sql(
    t.databaseUrl,
    `INSERT INTO notification_preference (user_id, topicpush_token, serverpush_token, webhook_secret, webhook_previous_secret) VALUES ($1, $2, $3, $4, $5)`,
    [owner.user.id, ...(['topicpush_token', 'serverpush_token', 'webhook_secret', 'webhook_previous_secret'] as const).map((c) => a.encryptNullable(prefs[c]))],
  );
  for (const [c, v] of Object.entries(prefs)) put(`notification_preference.${c}`, owner.user.id, v);
  return plain;
}

describe('npm run rotate-keys', () => {
  it('is the package script, running the built command', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.scripts['rotate-keys']).toBe('npm run build && node dist/common/crypto/rotate-keys-cli.js');
    expect(existsSync(join(dirname(builtMain()), 'common/crypto/rotate-keys-cli.js'))).toBe(true);
  });

  it('re-encrypts every value under the new key; they then open with the new key alone; a second run changes nothing', async () => {
    await withoutSecrets();
    const plain = await seed(KEY_A);
    const before = await stored();
    const first = await rotateKeys(t.databaseUrl, { ENCRYPTION_KEY: KEY_B, ENCRYPTION_KEY_PREVIOUS: KEY_A });
    expect(first).toEqual({ code: 0, out: expect.stringContaining(`Every encrypted value is under key ${ID_B}`) });
    // account: 2 access tokens (v1) + 1 refresh token; the id token was already under B. integration: 4 values.
    expect(first.out).toContain(`account: re-encrypted 3 values in 2 rows; 4 of 4 values are under key ${ID_B}`);
    expect(first.out).toContain(`integration: re-encrypted 4 values in 2 rows; 4 of 4 values are under key ${ID_B}`);
    expect(first.out).toContain(`notification_preference: re-encrypted 3 values in 1 rows; 3 of 3 values are under key ${ID_B}`);
    expect(first.out).toContain(`git_integration: re-encrypted 2 values in 1 rows; 2 of 2 values are under key ${ID_B}`);
    expect(first.out).not.toContain('bot-token');
    expect(first.out).not.toContain('hook-secret');
    expect(first.out).not.toContain('selfgit-access-token');

    const after = await stored();
    const onlyB = underKey(KEY_B);
    for (const [col, rows] of Object.entries(plain)) {
      for (const [key, value] of Object.entries(rows)) {
        const sealed = after[col][key];
        if (value === null) {
          expect([col, sealed]).toEqual([col, null]);
          continue;
        }
        expect([col, sealed]).toEqual([col, expect.stringMatching(new RegExp(`^v2:${ID_B}:`))]);
        expect([col, onlyB.decrypt(sealed!)]).toEqual([col, value]);
        expect(() => underKey(KEY_A).decrypt(sealed!)).toThrow();
        // A value already under B is left as it was, not sealed again.
        if (before[col][key]!.startsWith(`v2:${ID_B}:`)) expect(sealed).toBe(before[col][key]);
      }
    }

    const second = await rotateKeys(t.databaseUrl, { ENCRYPTION_KEY: KEY_B, ENCRYPTION_KEY_PREVIOUS: KEY_A });
    expect(second.code).toBe(0);
    expect(second.out).toContain(`account: re-encrypted 0 values in 0 rows; 4 of 4 values are under key ${ID_B}`);
    expect(second.out).toContain(`integration: re-encrypted 0 values in 0 rows; 4 of 4 values are under key ${ID_B}`);
    expect(second.out).toContain(`git_integration: re-encrypted 0 values in 0 rows; 2 of 2 values are under key ${ID_B}`);
    expect(await stored()).toEqual(after);
    // Without the previous key too: everything is already under B.
    expect((await rotateKeys(t.databaseUrl, { ENCRYPTION_KEY: KEY_B })).code).toBe(0);
    expect(await stored()).toEqual(after);
  });

  it('a table holding a value neither key opens is rolled back whole and reported (exit 1); the other tables rotate', async () => {
    await withoutSecrets();
    await seed(KEY_A);
    const [lost] = await sql(t.databaseUrl, `SELECT id FROM account ORDER BY id LIMIT 1`);
    await sql(t.databaseUrl, `UPDATE account SET refresh_token = $2 WHERE id = $1`, [lost.id, underKey(KEY_C).encrypt('sealed under a key nobody has')]);
    const before = await stored();

    const run = await rotateKeys(t.databaseUrl, { ENCRYPTION_KEY: KEY_B, ENCRYPTION_KEY_PREVIOUS: KEY_A });
    expect(run.code).toBe(1);
    expect(run.out).toContain(`account: rolled back, nothing changed (id ${lost.id}, column refresh_token: Sealed under an unknown key (id ${keyId(Buffer.from(KEY_C, 'hex'))})`);
    expect(run.out).toContain('Not rotated: account.');
    expect(run.out).not.toContain('sealed under a key nobody has');
    const after = await stored();
    for (const col of ['account.access_token', 'account.refresh_token', 'account.id_token']) expect(after[col]).toEqual(before[col]);
    for (const col of ['integration.bot_token', 'integration.webhook_url', 'integration.secret', 'integration.previous_secret', 'notification_preference.webhook_secret']) {
      for (const v of Object.values(after[col])) if (v !== null) expect(v).toMatch(new RegExp(`^v2:${ID_B}:`));
    }
  });

  it('refuses to run without ENCRYPTION_KEY rather than use a key of its own', async () => {
    const before = await stored();
    const run = await rotateKeys(t.databaseUrl, { ENCRYPTION_KEY_PREVIOUS: KEY_A });
    expect(run.code).toBe(1);
    expect(run.out).toContain('ENCRYPTION_KEY is not set');
    expect(await stored()).toEqual(before);
  });
});
