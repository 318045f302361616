import { DataSource } from 'typeorm';
import { ConfigError, loadConfig } from '../../config/app-config';
import { storedDevelopmentSecrets } from '../../config/dev-secrets';
import { dataSourceOptions } from '../../database/data-source-options';
import { CryptoService } from './crypto.service';
import { describeRotation, KeyRotation, MissingColumnsError } from './key-rotation';
import { KeyRotationRepository } from './key-rotation.repository';

/**
 * `npm run rotate-keys`: re-encrypts every stored secret under ENCRYPTION_KEY (values sealed under
 * ENCRYPTION_KEY_PREVIOUS, or in the old v1 format, are read with whichever key opens them).
 * Prints one line per table; exits 1 when a table could not be rotated. docs/decisions-local.md, "Secrets".
 */
async function main(): Promise<number> {
  const env = { ...process.env };
  // The key the service itself uses: outside production without ENCRYPTION_KEY, the one `npm start`
  // generated and kept. Never a random key of this process: values sealed under it would be lost.
  if (!env.ENCRYPTION_KEY?.trim() && env.NODE_ENV !== 'production') {
    const stored = storedDevelopmentSecrets(env).ENCRYPTION_KEY;
    if (stored) env.ENCRYPTION_KEY = stored;
  }
  if (!env.ENCRYPTION_KEY?.trim()) {
    console.error('ENCRYPTION_KEY is not set: set it to the key to re-encrypt under (and ENCRYPTION_KEY_PREVIOUS to the one it replaces)');
    return 1;
  }
  const config = loadConfig(env);
  const crypto = new CryptoService(config);
  const options = dataSourceOptions(config.databaseUrl, 2);
  const ds = new DataSource({ ...options, extra: { ...options.extra, application_name: 'tandem-rotate-keys' } } as typeof options);
  await ds.initialize();
  try {
    const results = await new KeyRotation(ds, new KeyRotationRepository(ds), crypto).run();
    for (const r of results) console.log(describeRotation(r, crypto.currentKeyId));
    const failed = results.filter((r) => r.error);
    if (failed.length) {
      console.error(`Not rotated: ${failed.map((r) => r.table).join(', ')}. Keep ENCRYPTION_KEY_PREVIOUS until every value is under key ${crypto.currentKeyId}.`);
      return 1;
    }
    if (results.every((r) => r.current === r.total)) {
      console.log(`Every encrypted value is under key ${crypto.currentKeyId}; ENCRYPTION_KEY_PREVIOUS can be removed.`);
    } else {
      // Written meanwhile under another key by a process not yet restarted with the new one.
      console.log(`Some values were written under another key meanwhile: restart every process with the new key, then run this again.`);
    }
    return 0;
  } catch (err) {
    if (err instanceof MissingColumnsError) {
      console.error(err.message);
      return 1;
    }
    throw err;
  } finally {
    await ds.destroy();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof ConfigError ? err.message : (err?.stack ?? String(err)));
    process.exit(1);
  },
);
