import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { bootstrap } from './bootstrap';
import { ConfigError, loadConfig } from './config/app-config';
import { developmentSecrets } from './config/dev-secrets';
import { checkServices } from './startup/checks';
import { applyHeapGrowth } from './startup/heap';
import { startLocalServices } from './startup/local-services';
import { migrationsLine, startedLine, unsafeSettings } from './startup/start-up-log';
import { StartupError } from './startup/startup-error';

/** Nest's logger, which bootstrap points at the process's pino logger (same JSON stream). */
const logger = new Logger('Main');

async function main() {
  let config;
  let secrets;
  try {
    secrets = developmentSecrets();
    config = loadConfig({ ...process.env, ...secrets.env });
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  applyHeapGrowth(config.heapGrowthPercent);
  // Without DATABASE_URL / REDIS_URL and nothing at the default addresses: servers of our own
  // (development only; src/startup/local-services.ts). Then every server must answer.
  const local = await startLocalServices(config);
  let running;
  try {
    config = local.config;
    await checkServices(config);
    running = await bootstrap(config);
  } catch (err) {
    await local.stop();
    throw err;
  }
  // The start-up log (README, "Run it"): servers and their origin, migrations, unsafe settings, where it listens.
  for (const notice of local.notices) logger.log(notice);
  if (running.migrations) logger.log(migrationsLine(config.databaseUrl, running.migrations));
  if (secrets.notice) logger.warn(secrets.notice);
  for (const warning of unsafeSettings(config)) logger.warn(warning);
  logger.log(startedLine(config.roles, running.listening));

  // Graceful shutdown: stop accepting connections, let in-flight requests and jobs finish,
  // close queues and pools; give up after 15 s.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.log(`${signal} received, shutting down`);
    const force = setTimeout(() => {
      logger.error('shutdown timed out');
      process.exit(1);
    }, 15_000);
    force.unref();
    try {
      await running.close();
      await local.stop();
      process.exit(0);
    } catch (err: any) {
      logger.error(`shutdown failed: ${err?.message ?? err}`);
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err) => {
  if (err instanceof StartupError) {
    console.error(err.message);
    process.exit(1);
  }
  console.error(JSON.stringify({ level: 'fatal', msg: 'start-up failed', err: String(err?.stack ?? err) }));
  process.exit(1);
});
