import { loadConfig } from '../config/app-config';
import { checkServices } from '../startup/checks';
import { startLocalServices } from '../startup/local-services';
import { ensureDatabase, migrate } from './migrate';

async function main() {
  // Like npm start: without DATABASE_URL and nothing at the default address, the embedded Postgres.
  const local = await startLocalServices(loadConfig(), { redis: false });
  try {
    const { config } = local;
    await checkServices(config, { redis: false });
    await ensureDatabase(config.databaseUrl);
    const applied = await migrate(config.databaseUrl);
    console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'No pending migrations');
  } finally {
    await local.stop();
  }
}

main().catch((err) => {
  // A ConfigError or StartupError message says what to do.
  console.error(err?.message ?? err);
  process.exit(1);
});
