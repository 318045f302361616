import { DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from './migrations';
import { SnakeNamingStrategy } from './snake-naming.strategy';

/** One definition of how we talk to Postgres, shared by the app, the migrator, ormconfig.ts and tests. */
export function dataSourceOptions(url: string, poolSize = 20): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    namingStrategy: new SnakeNamingStrategy(),
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    extra: {
      max: poolSize,
      application_name: 'tandem',
      // jit: compiling costs tens of milliseconds and never pays off for short OLTP queries.
      // parallel workers: start-up overhead that costs throughput under concurrent load.
      // plan_cache_mode: applies only to named prepared statements (search, the hot request
      // statements, the task write path and the worker's statements, all run through
      // preparedRows): their plans do not depend on the values (key lookups; search variants
      // chosen by the app), so the cached generic plan is right and planning is skipped.
      // TypeORM's unnamed statements are always planned with their values.
      options: '-c jit=off -c max_parallel_workers_per_gather=0 -c plan_cache_mode=force_generic_plan',
    },
  };
}
