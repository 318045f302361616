import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { isIP } from 'node:net';
import { plainToInstance, Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, getMetadataStorage, validateSync } from 'class-validator';
import { isAllowedProviderUrl, PROVIDER_URL_RULE } from '../modules/oauth/oauth-urls';
import { isQueueName, QUEUE_NAMES, QueueName, QUEUES } from '../queue/queues';
import { dataDir } from './dev-secrets';

export const APP_CONFIG = Symbol('APP_CONFIG');

const toBool = ({ value }: { value: unknown }) => {
  if (value === undefined || value === '') return undefined;
  if (typeof value === 'boolean') return value;
  const v = String(value).trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(v)) return true;
  if (['false', '0', 'no', 'off'].includes(v)) return false;
  return value; // left as is so IsBoolean reports the variable
};
const toInt = ({ value }: { value: unknown }) => {
  if (value === undefined || value === '') return undefined;
  return /^-?\d+$/.test(String(value).trim()) ? Number(value) : value;
};

/** `host:port,host:port`: sentinels or Cluster nodes. */
const HOST_PORT_LIST = /^\s*[\w.-]+:\d{1,5}(\s*,\s*[\w.-]+:\d{1,5})*\s*$/;

/** Environment variables as they arrive; validated once at boot (README, "Configuration"). */
class EnvSchema {
  @IsOptional() @IsIn(['development', 'production', 'test']) NODE_ENV?: string;
  @IsOptional() @Transform(toInt) @IsInt() @Min(0) @Max(65535) PORT?: number;
  @IsOptional() @Matches(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// URL' }) DATABASE_URL?: string;
  @IsOptional() @Matches(/^rediss?:\/\//, { message: 'must be a redis:// URL' }) REDIS_URL?: string;
  @IsOptional() @Matches(HOST_PORT_LIST, { message: 'must be a comma list of host:port (the sentinels)' }) REDIS_SENTINELS?: string;
  @IsOptional() @Matches(/^[\w.-]{1,64}$/, { message: "must be the primary's name as the sentinels know it (letters, digits, _ . -)" }) REDIS_SENTINEL_NAME?: string;
  @IsOptional() @IsString() REDIS_SENTINEL_PASSWORD?: string;
  @IsOptional() @Matches(HOST_PORT_LIST, { message: 'must be a comma list of host:port (some of the Cluster nodes)' }) REDIS_CLUSTER_NODES?: string;
  @IsOptional() @IsString() REDIS_PASSWORD?: string;
  @IsOptional() @Transform(toInt) @IsInt() @Min(0) @Max(10) REDIS_WAIT_REPLICAS?: number;
  @IsOptional() @IsString() @Matches(/^.{32,}$/s, { message: 'must be at least 32 characters' }) JWT_SECRET?: string;
  @IsOptional() @Transform(toInt) @IsInt() @Min(60) JWT_EXPIRES_IN?: number;
  @IsOptional()
  @Matches(/^([0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/, { message: 'must be 32 bytes as 64 hex characters or base64' })
  ENCRYPTION_KEY?: string;
  @IsOptional()
  @Matches(/^([0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/, { message: 'must be 32 bytes as 64 hex characters or base64' })
  ENCRYPTION_KEY_PREVIOUS?: string;
  @IsOptional() @Matches(/^https?:\/\/\S+$/, { message: 'must be an http(s) URL' }) PUBLIC_API_URL?: string;
  @IsOptional() @Matches(/^https?:\/\/\S+$/, { message: 'must be an http(s) URL' }) CLIENT_URL?: string;
  @IsOptional()
  @Matches(/^\s*(api|worker)(\s*,\s*(api|worker))*\s*$/, { message: 'must be api, worker or api,worker' })
  APP_ROLES?: string;
  @IsOptional() @IsString() CORS_ORIGINS?: string;
  @IsOptional() @IsString() TRUST_PROXY?: string;
  @IsOptional() @IsString() TANDEM_DATA_DIR?: string;
  // For tests: where an unset DATABASE_URL / REDIS_URL points (src/startup/local-services.ts).
  @IsOptional() @Matches(/^[\w.-]+:\d{1,5}$/, { message: 'must be host:port' }) TANDEM_DEFAULT_POSTGRES?: string;
  @IsOptional() @Matches(/^[\w.-]+:\d{1,5}$/, { message: 'must be host:port' }) TANDEM_DEFAULT_REDIS?: string;
  @IsOptional() @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) LOG_LEVEL?: string;
  @IsOptional()
  @Matches(/^([A-Za-z0-9_-]{1,40}|\{[A-Za-z0-9_-]{1,38}\})$/, { message: 'must be 1-40 letters, digits, _ or -, or such a name in braces (a Cluster hash tag, e.g. {tandem})' })
  QUEUE_PREFIX?: string;
  @IsOptional() @IsString() SMTP_HOST?: string;
  @IsOptional() @Transform(toInt) @IsInt() @Min(1) @Max(65535) SMTP_PORT?: number;
  @IsOptional() @IsString() SMTP_USER?: string;
  @IsOptional() @IsString() SMTP_PASSWORD?: string;
  @IsOptional() @IsString() SMTP_FROM?: string;
  @IsOptional() @Transform(toBool) @IsBoolean() SMTP_SECURE?: boolean;
  @IsOptional() @Matches(/^https?:\/\/\S+$/, { message: 'must be an http(s) URL' }) MESSENGER_API_BASE_URL?: string;
  @IsOptional() @Matches(/^https?:\/\/\S+$/, { message: 'must be an http(s) URL' }) HOSTEDGIT_API_BASE_URL?: string;
  @IsOptional() @IsString() HOSTEDGIT_APP_ID?: string;
  @IsOptional() @IsString() HOSTEDGIT_APP_PRIVATE_KEY?: string;
  @IsOptional() @IsString() HOSTEDGIT_WEBHOOK_SECRET?: string;
  @IsOptional() @IsString() HOSTEDGIT_APP_CLIENT_ID?: string;
  @IsOptional() @IsString() HOSTEDGIT_APP_CLIENT_SECRET?: string;
  @IsOptional() @Matches(/^https?:\/\/\S+$/, { message: 'must be an http(s) URL' }) HOSTEDGIT_WEB_BASE_URL?: string;
  @IsOptional() @Transform(toInt) @IsInt() @Min(1) @Max(10_000) SELFGIT_IMPORT_MAX_ISSUES?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(1_000) @Max(600_000) SELFGIT_IMPORT_TIME_LIMIT_MS?: number;
  @IsOptional() @Matches(/^https?:\/\/\S+$/, { message: 'must be an http(s) URL' }) CUSTOM_OAUTH_ISSUER?: string;
  @IsOptional() @IsString() CUSTOM_OAUTH_CLIENT_ID?: string;
  @IsOptional() @IsString() CUSTOM_OAUTH_CLIENT_SECRET?: string;
  @IsOptional() @IsString() CUSTOM_OAUTH_SCOPES?: string;
  @IsOptional() @Transform(toBool) @IsBoolean() ALLOW_PRIVATE_DESTINATIONS?: boolean;
  @IsOptional()
  @Matches(/^\s*[0-9a-fA-F.:[\]]+(:\d{1,5})?(\s*,\s*[0-9a-fA-F.:[\]]+(:\d{1,5})?)*\s*$/, { message: 'must be a comma list of DNS server addresses (ip or ip:port)' })
  OUTBOUND_DNS_SERVERS?: string;
  @IsOptional() @Transform(toBool) @IsBoolean() DISABLE_REGISTRATION?: boolean;
  @IsOptional() @Transform(toBool) @IsBoolean() REQUIRE_EMAIL_VERIFICATION?: boolean;
  @IsOptional() @Transform(toInt) @IsInt() @Min(0) RATE_LIMIT_AUTH?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(0) RATE_LIMIT_INVITES?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(0) RATE_LIMIT_API?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(0) @Max(1000) RATE_LIMIT_SIGN_IN_FAILURES?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(1) @Max(500) DATABASE_POOL_SIZE?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(50) @Max(86_400_000) OUTBOX_POLL_MS?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(0) @Max(300) HEAP_GROWTH_PERCENT?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(0) @Max(3_600_000) NOTIFICATION_BATCH_WINDOW_MS?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(100) @Max(60_000) REMINDER_TICK_MS?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(1) @Max(300) EVENTS_HEARTBEAT_SECONDS?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(1) @Max(100000) LIVE_STREAMS_PER_USER?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(1) @Max(100000) LIVE_STREAMS_PER_PROCESS?: number;
  @IsOptional() @IsString() QUEUE_CONCURRENCY?: string;
  @IsOptional() @IsString() STORAGE_DIR?: string;
  @IsOptional() @Matches(/^https?:\/\/\S+$/, { message: 'must be an http(s) URL' }) S3_ENDPOINT?: string;
  @IsOptional() @Matches(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { message: 'must be a bucket name (3-63 lower-case letters, digits, . and -)' }) S3_BUCKET?: string;
  @IsOptional() @Matches(/^[\w-]{1,40}$/, { message: 'must be a region name (letters, digits, _ and -)' }) S3_REGION?: string;
  @IsOptional() @IsString() S3_ACCESS_KEY_ID?: string;
  @IsOptional() @IsString() S3_SECRET_ACCESS_KEY?: string;
  @IsOptional() @Transform(toBool) @IsBoolean() S3_FORCE_PATH_STYLE?: boolean;
  @IsOptional() @Matches(/^[\w./-]{0,200}$/, { message: 'must be letters, digits, _ . / and - (at most 200)' }) S3_KEY_PREFIX?: string;
  @IsOptional() @Transform(toInt) @IsInt() @Min(60) @Max(604_800) S3_PRESIGN_TTL_SECONDS?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(1) S3_MAX_IMAGE_UPLOAD_BYTES?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(1) MAX_ATTACHMENT_BYTES?: number;
  @IsOptional() @Transform(toInt) @IsInt() @Min(1) WORKSPACE_STORAGE_BYTES?: number;
}

/** Names of every environment variable the configuration reads (for checks that each is documented and deployed). */
export function configVariables(): string[] {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(EnvSchema, '', true, false);
  return [...new Set(metadata.map((m) => m.propertyName))];
}

export type AppRole = 'api' | 'worker';

export interface RedisNode {
  readonly host: string;
  readonly port: number;
}

export type RedisTarget =
  | { readonly mode: 'single' }
  | {
      readonly mode: 'sentinel';
      readonly sentinels: readonly RedisNode[];
      /** The primary's name in the sentinels' configuration (`sentinel monitor <name> …`). */
      readonly name: string;
      /** The password of the primary and its replicas (REDIS_PASSWORD). */
      readonly password?: string;
      /** The sentinels' own password (REDIS_SENTINEL_PASSWORD), when they have one. */
      readonly sentinelPassword?: string;
      /** Replicas that must hold the jobs of an outbox batch before the relay deletes its rows. */
      readonly waitReplicas: number;
    }
  | {
      readonly mode: 'cluster';
      readonly nodes: readonly RedisNode[];
      readonly password?: string;
      /** Replicas of the slot's primary that must hold the jobs of an outbox batch before the relay deletes its rows. */
      readonly waitReplicas: number;
    };

export interface AppConfig {
  readonly nodeEnv: 'development' | 'production' | 'test';
  readonly port: number;
  readonly databaseUrl: string;
  readonly databasePoolSize: number;
  /** How often the worker looks at the outbox without being notified (ms); notifications wake it at once. */
  readonly outboxPollMs: number;
  /**
   * How far V8 lets the old generation grow past what the last full collection kept (percent;
   * 0 = V8's own factor, up to 300 %). See applyHeapGrowth in src/startup/heap.ts.
   */
  readonly heapGrowthPercent: number;
  /**
   * The burst window (ms) of a user's notifications about one task (docs/notifications.md,
   * "Bursts"): a push goes out at once and what follows within the window goes as one push at its
   * end; an email waits this long from the first and gathers the burst into one message.
   */
  readonly notificationBatchWindowMs: number;
  /** How often a worker looks for due-date reminders to send (docs/notifications.md, "Due dates"). */
  readonly reminderTickMs: number;
  /** How often an open event stream (GET /api/events) gets a heartbeat comment. */
  readonly eventsHeartbeatSeconds: number;
  /** Open event streams one user may hold in one API process, and all of its streams (docs/live-events.md, "Limits"). */
  readonly liveStreamsPerUser: number;
  readonly liveStreamsPerProcess: number;
  readonly redisUrl: string;
  /**
   * How every Redis connection reaches Redis (docs/scaling.md, "Redis"): one server (REDIS_URL),
   * the primary that Sentinel names (REDIS_SENTINELS, REDIS_SENTINEL_NAME), or a Cluster
   * (REDIS_CLUSTER_NODES). src/redis/redis-connection.ts opens connections from it.
   */
  readonly redis: RedisTarget;
  /**
   * DATABASE_URL / REDIS_URL were not set, so databaseUrl / redisUrl are the defaults; outside
   * production local servers replace them when nothing answers there (src/startup/local-services.ts).
   */
  readonly unsetUrls: { readonly database: boolean; readonly redis: boolean };
  /** TANDEM_DATA_DIR as an absolute path: development secrets and the local servers' data. */
  readonly dataDir: string;
  readonly jwtSecret: string;
  readonly jwtExpiresInSeconds: number;
  /** 32-byte AES-256-GCM key: new secrets are sealed under it. */
  readonly encryptionKey: Buffer;
  /** The key before the last rotation, still accepted for reading until `npm run rotate-keys` re-sealed everything. */
  readonly encryptionKeyPrevious?: Buffer;
  readonly publicApiUrl: string;
  readonly clientUrl: string;
  readonly roles: readonly AppRole[];
  /** Origins allowed to call the API from a browser (with credentials), or '*' for any (without). */
  readonly corsOrigins: readonly string[] | '*';
  /**
   * Express `trust proxy`: the proxies (addresses, ranges) whose X-Forwarded-For is believed for
   * the client address; false (the default) believes nobody's.
   */
  readonly trustProxy: false | string;
  readonly logLevel: string;
  /** Prefix of every Redis key and BullMQ queue this instance uses. */
  readonly queuePrefix: string;
  /** Jobs of each queue one worker process runs at once: QUEUE_CONCURRENCY over the defaults of src/queue/queues.ts. */
  readonly queueConcurrency: Readonly<Record<QueueName, number>>;
  readonly smtp: {
    readonly host?: string;
    readonly port: number;
    readonly user?: string;
    readonly password?: string;
    readonly from: string;
    readonly secure: boolean;
  };
  readonly messengerApiBaseUrl: string;
  readonly hostedgit: {
    readonly apiBaseUrl: string;
    readonly appId?: string;
    readonly appPrivateKey?: string;
    readonly webhookSecret?: string;
    /** The App's OAuth client (user authorization: proof that a user administers a repository). */
    readonly clientId?: string;
    readonly clientSecret?: string;
    /** Where users authorize the App (`/login/oauth/authorize`, `/login/oauth/access_token`). */
    readonly webBaseUrl: string;
  };
  /**
   * Bounds of one selfgit issue import (docs/git-hosts.md, "Importing issues"): issues it imports or
   * updates at most, and how long it takes new issues and pages (ms).
   */
  readonly selfgitImport: { readonly maxIssues: number; readonly timeLimitMs: number };
  readonly customOAuth: {
    readonly issuer?: string;
    readonly clientId?: string;
    readonly clientSecret?: string;
    readonly scopes: string;
  };
  readonly allowPrivateDestinations: boolean;
  /** DNS servers that resolve outbound destinations (empty: the system's resolver). */
  readonly outboundDnsServers: readonly string[];
  readonly disableRegistration: boolean;
  /** Password sign-in refused until the email is verified (docs/accounts.md). */
  readonly requireEmailVerification: boolean;
  /**
   * Per minute: `auth` per client address, `invites` per user, `api` per session or key.
   * `signInFailures`: failed password sign-ins of one email address before it is locked
   * (docs/decisions-local.md, "Rate limits"). 0 turns one off.
   */
  readonly rateLimits: { readonly auth: number; readonly invites: number; readonly api: number; readonly signInFailures: number };
  /** Images and attachments (docs/files.md): where their bytes are kept and how big they may be. */
  readonly files: FilesConfig;
}

export interface FilesConfig {
  readonly storage: FileStorageTarget;
  /** How long an upload URL (the service's own or a bucket's presigned one) is valid. */
  readonly uploadTtlSeconds: number;
  /** Largest image of a description or comment (S3_MAX_IMAGE_UPLOAD_BYTES). */
  readonly maxImageBytes: number;
  readonly maxAttachmentBytes: number;
  /** What all of a workspace's files may take together. */
  readonly workspaceQuotaBytes: number;
  /** PUBLIC_API_URL was set: upload URLs of the local store name it, else the origin the request came to. */
  readonly publicApiUrlSet: boolean;
}

export type FileStorageTarget =
  | { readonly kind: 'local'; readonly dir: string }
  | {
      readonly kind: 's3';
      readonly endpoint: string;
      readonly bucket: string;
      readonly region: string;
      readonly accessKeyId?: string;
      readonly secretAccessKey?: string;
      readonly forcePathStyle: boolean;
      /** Put before every object key (`tandem/` keeps Tandem's objects apart in a shared bucket). */
      readonly keyPrefix: string;
    };

export class ConfigError extends Error {}

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object' && !Buffer.isBuffer(o)) {
    Object.values(o as object).forEach(deepFreeze);
    Object.freeze(o);
  }
  return o;
}

// Without JWT_SECRET or ENCRYPTION_KEY (never in production), a value random to this process:
// never a constant that anyone could read in the source. `npm start` first fills both from the
// local data folder (dev-secrets.ts), so they stay the same across restarts.
const processSecrets = { jwt: randomBytes(32).toString('hex'), encryption: randomBytes(32) };

class SettingError {
  constructor(readonly message: string) {}
}

/**
 * CORS_ORIGINS: a comma list of origins (scheme://host[:port]); `*` allows any origin but then
 * without credentials. Unset: the origin of CLIENT_URL only.
 */
function parseCorsOrigins(value: string | undefined, clientUrl: string): readonly string[] | '*' | SettingError {
  const v = value?.trim();
  if (!v) return [new URL(clientUrl).origin];
  if (v === '*') return '*';
  const out: string[] = [];
  for (const item of v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    let url: URL | null = null;
    try {
      url = new URL(item);
    } catch {
      /* reported below */
    }
    if (!url || !/^https?:$/.test(url.protocol) || url.origin !== item.replace(/\/+$/, '')) {
      return new SettingError(`CORS_ORIGINS: "${item}" is not an origin (scheme://host[:port], e.g. https://app.example.com), or use * for any origin without credentials`);
    }
    out.push(url.origin);
  }
  return out;
}

const TRUST_PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * TRUST_PROXY names the proxies whose X-Forwarded-For is believed for the client address (rate
 * limits, session records): a comma list of addresses, CIDR ranges and the names loopback,
 * linklocal, uniquelocal. Unset, empty or `false`: none, the TCP peer is the client
 * (docs/decisions-local.md, "Access rules that close escalation paths" 6). `true` and hop counts
 * are refused: both believe whichever peer connects, so a client reaching the service directly
 * could pick the address its sign-in limit counts on.
 */
function parseTrustProxy(value: string | undefined): false | string | SettingError {
  const v = value?.trim().toLowerCase();
  if (!v || ['false', '0', 'no', 'off', 'none'].includes(v)) return false;
  if (['true', 'yes', 'on'].includes(v) || /^\d+$/.test(v)) {
    return new SettingError(
      `TRUST_PROXY: "${v}" would believe X-Forwarded-For from any peer; name the proxies instead (addresses, CIDR ranges, ${TRUST_PROXY_NAMES.join(', ')}), or false`,
    );
  }
  const items = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = items.find((s) => !TRUST_PROXY_NAMES.includes(s) && !isAddressOrRange(s));
  if (bad !== undefined || !items.length) {
    return new SettingError(`TRUST_PROXY: "${bad ?? v}" is not false, an address, a CIDR range or one of ${TRUST_PROXY_NAMES.join(', ')}`);
  }
  return items.join(',');
}

function isAddressOrRange(s: string): boolean {
  const [addr, bits, ...rest] = s.split('/');
  const family = isIP(addr);
  if (!family || rest.length) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/** Upper bound of QUEUE_CONCURRENCY values: far above what one process can usefully run at once. */
const MAX_CONCURRENCY = 1000;

/**
 * QUEUE_CONCURRENCY: comma-separated `queue=jobs` pairs (e.g. `deliver-generic-webhook=64,email=4`)
 * overriding the per-queue defaults of src/queue/queues.ts. An unknown queue, a queue named twice
 * or a count that is not a whole number from 1 to MAX_CONCURRENCY stops start-up.
 */
function parseNodes(list: string): RedisNode[] {
  return list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const i = s.lastIndexOf(':');
      return { host: s.slice(0, i), port: Number(s.slice(i + 1)) };
    });
}

/**
 * REDIS_SENTINELS with REDIS_SENTINEL_NAME, or REDIS_CLUSTER_NODES, replace REDIS_URL's address
 * (docs/scaling.md, "Redis"); REDIS_PASSWORD, REDIS_SENTINEL_PASSWORD and REDIS_WAIT_REPLICAS
 * belong to them. A Cluster needs QUEUE_PREFIX in braces: every queue's keys in one slot.
 */
function parseRedisTarget(p: EnvSchema): RedisTarget | SettingError {
  if (p.REDIS_SENTINELS && p.REDIS_CLUSTER_NODES) return new SettingError('REDIS_SENTINELS and REDIS_CLUSTER_NODES: set one of them (Sentinel or Cluster), not both');
  if (p.REDIS_SENTINELS) {
    if (!p.REDIS_SENTINEL_NAME) return new SettingError("REDIS_SENTINEL_NAME: is required with REDIS_SENTINELS (the primary's name in the sentinels' configuration)");
    return {
      mode: 'sentinel',
      sentinels: parseNodes(p.REDIS_SENTINELS),
      name: p.REDIS_SENTINEL_NAME,
      password: p.REDIS_PASSWORD,
      sentinelPassword: p.REDIS_SENTINEL_PASSWORD,
      waitReplicas: p.REDIS_WAIT_REPLICAS ?? 1,
    };
  }
  const sentinelOnly = (['REDIS_SENTINEL_NAME', 'REDIS_SENTINEL_PASSWORD'] as const).find((k) => p[k]);
  if (sentinelOnly) return new SettingError(`${sentinelOnly}: is used only with REDIS_SENTINELS, which is not set`);
  if (p.REDIS_CLUSTER_NODES) {
    if (!/^\{.+\}$/.test(p.QUEUE_PREFIX ?? '')) {
      return new SettingError('QUEUE_PREFIX: must be in braces with REDIS_CLUSTER_NODES (a hash tag, e.g. {tandem}), so that each queue keeps its keys in one Cluster slot');
    }
    return { mode: 'cluster', nodes: parseNodes(p.REDIS_CLUSTER_NODES), password: p.REDIS_PASSWORD, waitReplicas: p.REDIS_WAIT_REPLICAS ?? 1 };
  }
  const other = (['REDIS_PASSWORD', 'REDIS_WAIT_REPLICAS'] as const).find((k) => p[k] !== undefined);
  if (other) return new SettingError(`${other}: is used only with REDIS_SENTINELS or REDIS_CLUSTER_NODES (REDIS_URL carries its own password)`);
  return { mode: 'single' };
}

function parseQueueConcurrency(value: string | undefined): Record<QueueName, number> | SettingError {
  const out = Object.fromEntries(QUEUE_NAMES.map((q) => [q, QUEUES[q].concurrency])) as Record<QueueName, number>;
  const seen = new Set<string>();
  for (const item of (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = /^([^=\s]+)\s*=\s*(\S+)$/.exec(item);
    if (!m) return new SettingError(`QUEUE_CONCURRENCY: "${item}" is not queue=count (e.g. email=4)`);
    const [, name, count] = m;
    if (!isQueueName(name)) return new SettingError(`QUEUE_CONCURRENCY: unknown queue "${name}" (queues: ${QUEUE_NAMES.join(', ')})`);
    if (seen.has(name)) return new SettingError(`QUEUE_CONCURRENCY: "${name}" is given twice`);
    if (!/^\d+$/.test(count) || Number(count) < 1 || Number(count) > MAX_CONCURRENCY) {
      return new SettingError(`QUEUE_CONCURRENCY: ${name}=${count}: the count must be a whole number from 1 to ${MAX_CONCURRENCY}`);
    }
    seen.add(name);
    out[name] = Number(count);
  }
  return out;
}

const decodeKey = (value: string): Buffer => (/^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64'));

/** Custom OAuth is all or nothing: issuer, client id and secret together, and a trusted issuer URL. */
function customOAuthErrors(p: EnvSchema): string[] {
  const names = ['CUSTOM_OAUTH_ISSUER', 'CUSTOM_OAUTH_CLIENT_ID', 'CUSTOM_OAUTH_CLIENT_SECRET'] as const;
  const set = names.filter((k) => p[k]);
  if (!set.length) return [];
  const errors = names.filter((k) => !p[k]).map((k) => `${k}: is required when ${set[0]} is set`);
  if (p.CUSTOM_OAUTH_ISSUER && !isAllowedProviderUrl(p.CUSTOM_OAUTH_ISSUER, p.ALLOW_PRIVATE_DESTINATIONS ?? false)) {
    errors.push(`CUSTOM_OAUTH_ISSUER: ${PROVIDER_URL_RULE}`);
  }
  return errors;
}

/** S3 is all or nothing: the endpoint and the bucket together. */
function s3Errors(p: EnvSchema): string[] {
  if (!p.S3_ENDPOINT === !p.S3_BUCKET) return [];
  return [p.S3_ENDPOINT ? 'S3_BUCKET: is required when S3_ENDPOINT is set' : 'S3_ENDPOINT: is required when S3_BUCKET is set'];
}

const MIB = 1024 * 1024;

function filesConfig(p: EnvSchema, dataDirectory: string): FilesConfig {
  const storage: FileStorageTarget =
    p.S3_ENDPOINT && p.S3_BUCKET
      ? {
          kind: 's3',
          endpoint: p.S3_ENDPOINT.replace(/\/+$/, ''),
          bucket: p.S3_BUCKET,
          region: p.S3_REGION ?? 'us-east-1',
          accessKeyId: p.S3_ACCESS_KEY_ID,
          secretAccessKey: p.S3_SECRET_ACCESS_KEY,
          forcePathStyle: p.S3_FORCE_PATH_STYLE ?? true,
          keyPrefix: p.S3_KEY_PREFIX ?? '',
        }
      : { kind: 'local', dir: resolve(p.STORAGE_DIR ?? join(dataDirectory, 'files')) };
  return {
    storage,
    uploadTtlSeconds: p.S3_PRESIGN_TTL_SECONDS ?? 3600,
    maxImageBytes: p.S3_MAX_IMAGE_UPLOAD_BYTES ?? 10 * MIB,
    maxAttachmentBytes: p.MAX_ATTACHMENT_BYTES ?? 25 * MIB,
    workspaceQuotaBytes: p.WORKSPACE_STORAGE_BYTES ?? 5 * 1024 * MIB,
    publicApiUrlSet: p.PUBLIC_API_URL !== undefined,
  };
}

/**
 * Validates the environment once and returns a frozen, typed config.
 * Throws ConfigError naming every bad variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const raw: Record<string, unknown> = { ...env };
  // Empty strings mean "unset", as in a .env file with `KEY=`.
  for (const [k, v] of Object.entries(raw)) if (v === '') delete raw[k];
  const parsed = plainToInstance(EnvSchema, raw);
  const errors = validateSync(parsed, { forbidUnknownValues: false });
  if (errors.length) {
    const lines = errors.map((e) => `${e.property}: ${Object.values(e.constraints ?? {}).join('; ')}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const oauthErrors = [...customOAuthErrors(parsed), ...s3Errors(parsed)];
  if (oauthErrors.length) throw new ConfigError(`Invalid configuration:\n  ${oauthErrors.join('\n  ')}`);
  const nodeEnv = (parsed.NODE_ENV ?? 'development') as AppConfig['nodeEnv'];
  if (nodeEnv === 'production') {
    const missing = ['JWT_SECRET', 'ENCRYPTION_KEY'].filter((k) => !(parsed as any)[k]);
    if (missing.length) {
      throw new ConfigError(`Invalid configuration:\n  ${missing.map((k) => `${k}: is required when NODE_ENV=production`).join('\n  ')}`);
    }
  }
  const encKey = parsed.ENCRYPTION_KEY ? decodeKey(parsed.ENCRYPTION_KEY) : processSecrets.encryption;
  const encKeyPrevious = parsed.ENCRYPTION_KEY_PREVIOUS ? decodeKey(parsed.ENCRYPTION_KEY_PREVIOUS) : undefined;
  const port = parsed.PORT ?? 3000;
  const roles = (parsed.APP_ROLES ?? 'api,worker')
    .split(',')
    .map((r) => r.trim())
    .filter((r, i, a) => r && a.indexOf(r) === i) as AppRole[];
  const publicApiUrl = (parsed.PUBLIC_API_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  // The service serves its web app itself (docs/web.md): the emails' links point at it unless the app is served elsewhere.
  const clientUrl = (parsed.CLIENT_URL ?? publicApiUrl).replace(/\/+$/, '');
  const corsOrigins = parseCorsOrigins(parsed.CORS_ORIGINS, clientUrl);
  const trustProxy = parseTrustProxy(parsed.TRUST_PROXY);
  const queueConcurrency = parseQueueConcurrency(parsed.QUEUE_CONCURRENCY);
  const redis = parseRedisTarget(parsed);
  const settingErrors = [corsOrigins, trustProxy, queueConcurrency, redis].filter((v): v is SettingError => v instanceof SettingError);
  if (settingErrors.length) throw new ConfigError(`Invalid configuration:\n  ${settingErrors.map((e) => e.message).join('\n  ')}`);
  const config: AppConfig = {
    nodeEnv,
    port,
    databaseUrl: parsed.DATABASE_URL ?? `postgres://postgres@${parsed.TANDEM_DEFAULT_POSTGRES ?? '127.0.0.1:5432'}/tandem`,
    databasePoolSize: parsed.DATABASE_POOL_SIZE ?? 20,
    outboxPollMs: parsed.OUTBOX_POLL_MS ?? 2_000,
    heapGrowthPercent: parsed.HEAP_GROWTH_PERCENT ?? 50,
    notificationBatchWindowMs: parsed.NOTIFICATION_BATCH_WINDOW_MS ?? 60_000,
    reminderTickMs: parsed.REMINDER_TICK_MS ?? 10_000,
    eventsHeartbeatSeconds: parsed.EVENTS_HEARTBEAT_SECONDS ?? 15,
    liveStreamsPerUser: parsed.LIVE_STREAMS_PER_USER ?? 10,
    liveStreamsPerProcess: parsed.LIVE_STREAMS_PER_PROCESS ?? 5000,
    redisUrl: parsed.REDIS_URL ?? `redis://${parsed.TANDEM_DEFAULT_REDIS ?? '127.0.0.1:6379'}`,
    redis: redis as RedisTarget,
    // With Sentinel or a Cluster, REDIS_URL is not used: nothing local replaces it either.
    unsetUrls: { database: !parsed.DATABASE_URL, redis: !parsed.REDIS_URL && !parsed.REDIS_SENTINELS && !parsed.REDIS_CLUSTER_NODES },
    dataDir: dataDir({ TANDEM_DATA_DIR: parsed.TANDEM_DATA_DIR }),
    jwtSecret: parsed.JWT_SECRET ?? processSecrets.jwt,
    jwtExpiresInSeconds: parsed.JWT_EXPIRES_IN ?? 7 * 24 * 3600,
    encryptionKey: encKey,
    encryptionKeyPrevious: encKeyPrevious,
    publicApiUrl,
    clientUrl,
    roles,
    corsOrigins: corsOrigins as AppConfig['corsOrigins'],
    trustProxy: trustProxy as AppConfig['trustProxy'],
    logLevel: parsed.LOG_LEVEL ?? (nodeEnv === 'test' ? 'warn' : 'info'),
    queuePrefix: parsed.QUEUE_PREFIX ?? 'tandem',
    queueConcurrency: queueConcurrency as AppConfig['queueConcurrency'],
    smtp: {
      host: parsed.SMTP_HOST,
      port: parsed.SMTP_PORT ?? 587,
      user: parsed.SMTP_USER,
      password: parsed.SMTP_PASSWORD,
      from: parsed.SMTP_FROM ?? 'Tandem <no-reply@tandem.local>',
      secure: parsed.SMTP_SECURE ?? false,
    },
    messengerApiBaseUrl: (parsed.MESSENGER_API_BASE_URL ?? 'https://api.telegram.org').replace(/\/+$/, ''),
    hostedgit: {
      apiBaseUrl: (parsed.HOSTEDGIT_API_BASE_URL ?? 'https://api.github.com').replace(/\/+$/, ''),
      appId: parsed.HOSTEDGIT_APP_ID,
      appPrivateKey: parsed.HOSTEDGIT_APP_PRIVATE_KEY,
      webhookSecret: parsed.HOSTEDGIT_WEBHOOK_SECRET,
      clientId: parsed.HOSTEDGIT_APP_CLIENT_ID,
      clientSecret: parsed.HOSTEDGIT_APP_CLIENT_SECRET,
      webBaseUrl: (parsed.HOSTEDGIT_WEB_BASE_URL ?? 'https://github.com').replace(/\/+$/, ''),
    },
    selfgitImport: {
      maxIssues: parsed.SELFGIT_IMPORT_MAX_ISSUES ?? 500,
      timeLimitMs: parsed.SELFGIT_IMPORT_TIME_LIMIT_MS ?? 30_000,
    },
    customOAuth: {
      issuer: parsed.CUSTOM_OAUTH_ISSUER,
      clientId: parsed.CUSTOM_OAUTH_CLIENT_ID,
      clientSecret: parsed.CUSTOM_OAUTH_CLIENT_SECRET,
      scopes: parsed.CUSTOM_OAUTH_SCOPES ?? 'openid email profile',
    },
    allowPrivateDestinations: parsed.ALLOW_PRIVATE_DESTINATIONS ?? false,
    outboundDnsServers: (parsed.OUTBOUND_DNS_SERVERS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    disableRegistration: parsed.DISABLE_REGISTRATION ?? false,
    requireEmailVerification: parsed.REQUIRE_EMAIL_VERIFICATION ?? false,
    rateLimits: {
      auth: parsed.RATE_LIMIT_AUTH ?? 20,
      invites: parsed.RATE_LIMIT_INVITES ?? 10,
      api: parsed.RATE_LIMIT_API ?? 6000,
      signInFailures: parsed.RATE_LIMIT_SIGN_IN_FAILURES ?? 10,
    },
    files: filesConfig(parsed, dataDir({ TANDEM_DATA_DIR: parsed.TANDEM_DATA_DIR })),
  };
  return deepFreeze(config);
}
