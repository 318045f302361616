import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configVariables } from './app-config';

const ROOT = join(__dirname, '../..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** Every variable the configuration reads is documented in .env.example and reaches both containers of docker-compose.yml. */
describe('configuration variables', () => {
  const names = configVariables();

  it('are read from the schema (sanity: known ones are there)', () => {
    expect(names).toEqual(expect.arrayContaining(['DATABASE_URL', 'ENCRYPTION_KEY', 'ENCRYPTION_KEY_PREVIOUS', 'QUEUE_CONCURRENCY', 'ALLOW_PRIVATE_DESTINATIONS']));
    expect(names.length).toBeGreaterThan(30);
  });

  it('each has a line in .env.example', () => {
    const example = read('.env.example');
    expect(names.filter((n) => !new RegExp(`^${n}=`, 'm').test(example))).toEqual([]);
  });

  it('docker-compose.yml passes each to the api and the worker (the shared &env block, APP_ROLES per service)', () => {
    const compose = read('docker-compose.yml');
    const block = /environment: &env\n((?: {4}.*\n|\s*\n)+)/.exec(compose)?.[1] ?? '';
    const shared = new Set([...block.matchAll(/^ {4}([A-Z0-9_]+):/gm)].map((m) => m[1]));
    expect(names.filter((n) => n !== 'APP_ROLES' && !shared.has(n))).toEqual([]);
    for (const service of ['api', 'worker']) {
      const section = new RegExp(`^  ${service}:\\n((?: {4}.*\\n|\\s*\\n)+)`, 'm').exec(compose)?.[1] ?? '';
      expect([service, section]).toEqual([service, expect.stringContaining('<<: *env')]);
      expect([service, section]).toEqual([service, expect.stringContaining(`APP_ROLES: ${service}`)]);
    }
    // BullMQ's keys must never be evicted.
    expect(compose).toMatch(/redis-server", "--maxmemory-policy", "noeviction"/);
  });
});
