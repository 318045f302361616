// TypeORM data source for the CLI (e.g. `npx typeorm-ts-node-commonjs migration:show -d ormconfig.ts`).
// The service itself migrates at start-up under an advisory lock (src/database/migrate.ts).
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from './src/config/app-config';
import { dataSourceOptions } from './src/database/data-source-options';

const config = loadConfig();
export default new DataSource({
  ...dataSourceOptions(config.databaseUrl, 2),
  entities: [__dirname + '/src/modules/**/*.entity.{ts,js}'],
});
