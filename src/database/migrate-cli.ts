import { loadConfig } from '../config/app-config';
import { ensureDatabase, migrate } from './migrate';

async function main() {
  const config = loadConfig();
  await ensureDatabase(config.databaseUrl);
  const applied = await migrate(config.databaseUrl);
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'No pending migrations');
}

main().catch((err) => {
  console.error(err?.message ?? err);
  process.exit(1);
});
