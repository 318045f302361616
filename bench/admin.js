// Shared by the benchmark scripts: the database they measure on, made fresh for each run.
const { Client } = require('pg');

/** Drops and creates the database of `dbUrl` (connected through the server's `postgres` database). */
async function recreateDatabase(dbUrl) {
  const u = new URL(dbUrl);
  const name = u.pathname.slice(1);
  u.pathname = '/postgres';
  const c = new Client({ connectionString: u.toString() });
  await c.connect();
  try {
    await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await c.query(`CREATE DATABASE "${name}"`);
  } finally {
    await c.end();
  }
}

module.exports = { recreateDatabase };
