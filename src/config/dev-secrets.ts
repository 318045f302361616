import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface DevelopmentSecrets {
  /** JWT_SECRET / ENCRYPTION_KEY to add to the environment (only those that were missing). */
  env: Record<string, string>;
  /** What to tell the operator, or null when both were set. */
  notice: string | null;
}

/** The project-local data folder (TANDEM_DATA_DIR, default `.tandem` in the working directory). */
export const dataDir = (env: NodeJS.ProcessEnv = process.env): string => resolve(env.TANDEM_DATA_DIR?.trim() || '.tandem');

/**
 * Outside production, a missing JWT_SECRET or ENCRYPTION_KEY is generated at random on the first
 * start and kept in `<data dir>/secrets.json` (mode 0600), so tokens and encrypted secrets survive
 * restarts without anyone using a value that is printed in public source. Production requires
 * both (loadConfig refuses to start without them), so this does nothing there.
 */
export function developmentSecrets(env: NodeJS.ProcessEnv = process.env): DevelopmentSecrets {
  const missing = (['JWT_SECRET', 'ENCRYPTION_KEY'] as const).filter((k) => !env[k]?.trim());
  if (env.NODE_ENV === 'production' || !missing.length) return { env: {}, notice: null };
  const dir = dataDir(env);
  const file = join(dir, 'secrets.json');
  let stored: Record<string, string> = {};
  try {
    stored = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err: any) {
    if (err?.code !== 'ENOENT') throw new Error(`Cannot read ${file}: ${err?.message ?? err}; delete it to generate new development secrets`);
  }
  const generated = {
    JWT_SECRET: typeof stored.JWT_SECRET === 'string' && stored.JWT_SECRET.length >= 32 ? stored.JWT_SECRET : randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: typeof stored.ENCRYPTION_KEY === 'string' && /^[0-9a-f]{64}$/.test(stored.ENCRYPTION_KEY) ? stored.ENCRYPTION_KEY : randomBytes(32).toString('hex'),
  };
  if (generated.JWT_SECRET !== stored.JWT_SECRET || generated.ENCRYPTION_KEY !== stored.ENCRYPTION_KEY) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(file, JSON.stringify(generated, null, 2) + '\n', { mode: 0o600 });
  }
  chmodSync(file, 0o600);
  const out: Record<string, string> = {};
  for (const k of missing) out[k] = generated[k];
  return {
    env: out,
    notice: `${missing.join(' and ')} not set: using development values generated at random and kept in ${file} (set ${missing.join(' and ')} yourself in production)`,
  };
}

/**
 * The development secrets kept in `<data dir>/secrets.json`, read only (nothing is generated):
 * for commands that must use the service's own key and never one of their own (`npm run rotate-keys`).
 */
export function storedDevelopmentSecrets(env: NodeJS.ProcessEnv = process.env): Partial<Record<'JWT_SECRET' | 'ENCRYPTION_KEY', string>> {
  try {
    const stored = JSON.parse(readFileSync(join(dataDir(env), 'secrets.json'), 'utf8'));
    return {
      JWT_SECRET: typeof stored.JWT_SECRET === 'string' ? stored.JWT_SECRET : undefined,
      ENCRYPTION_KEY: typeof stored.ENCRYPTION_KEY === 'string' ? stored.ENCRYPTION_KEY : undefined,
    };
  } catch {
    return {};
  }
}
