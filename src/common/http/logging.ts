import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LoggerService } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { DestinationStream, Level, pino, Logger as PinoLogger, stdSerializers } from 'pino';
import type { AppConfig } from '../../config/app-config';

const SENSITIVE_QUERY = /^(code|state|token|access_token|id_token|refresh_token|key|api_key|secret|password)$/i;

/**
 * Database errors carry the statement's parameters and Postgres's `detail` (e.g. "Failing row
 * contains (…)" with a password hash or token in it); logged errors keep neither.
 */
export function serializeError(err: unknown): Record<string, unknown> {
  const out: Record<string, any> = stdSerializers.err(err as Error);
  if (!out || typeof out !== 'object') return out;
  for (const o of [out, out.driverError]) {
    if (o && typeof o === 'object') {
      for (const k of ['parameters', 'detail']) if (k in o) o[k] = '[REDACTED]';
    }
  }
  return out;
}

/** Query values that could carry credentials never reach a log line. */
export function redactUrl(url: string | undefined): string | undefined {
  if (!url || !url.includes('?')) return url;
  const [path, query] = url.split('?', 2);
  const params = new URLSearchParams(query);
  for (const k of [...params.keys()]) if (SENSITIVE_QUERY.test(k)) params.set(k, '[REDACTED]');
  return `${path}?${params.toString()}`;
}

/** Paths censored in any log object (whole headers are never logged; these guard what slips in). */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'res.headers["set-auth-token"]',
  '*.password',
  '*.token',
  '*.accessToken',
  '*.botToken',
  '*.secret',
  '*.webhookSecret',
  '*.webhookUrl',
  '*.topicpushToken',
  '*.serverpushToken',
  '*.idToken',
  '*.refreshToken',
];

/** The process's one pino logger: JSON lines on stdout, secrets redacted, database errors scrubbed. */
export function createRootLogger(config: Pick<AppConfig, 'logLevel'>, destination?: DestinationStream): PinoLogger {
  return pino(
    {
      level: config.logLevel,
      redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
      serializers: { err: serializeError },
    },
    destination,
  );
}

/**
 * Nest's own boot chatter, logged at info by the framework: a line per module ("… dependencies
 * initialized"), per controller and per route ("Mapped {/api/…, GET} route", about 240), and
 * "Starting Nest application…" / "Nest application successfully started". At debug here, so the
 * default start-up log stays a few lines (src/startup/start-up-log.ts); LOG_LEVEL=debug shows them.
 */
export const NEST_BOOT_CONTEXTS: ReadonlySet<string> = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication']);

/** Nest's logger interface over pino: `Logger` calls in the code land in the same JSON stream. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly pino: PinoLogger) {}

  log(message: unknown, ...params: unknown[]) {
    const context = params[params.length - 1];
    this.write(typeof context === 'string' && NEST_BOOT_CONTEXTS.has(context) ? 'debug' : 'info', message, params);
  }
  error(message: unknown, ...params: unknown[]) {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]) {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]) {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]) {
    this.write('trace', message, params);
  }
  fatal(message: unknown, ...params: unknown[]) {
    this.write('fatal', message, params);
  }

  private write(level: Level, message: unknown, params: unknown[]) {
    if (!this.pino.isLevelEnabled(level)) return;
    // Nest passes the context (the logger's name) last; error() may pass a stack before it.
    const rest = [...params];
    const context = typeof rest[rest.length - 1] === 'string' ? (rest.pop() as string) : undefined;
    const fields: Record<string, unknown> = context ? { context } : {};
    if (message instanceof Error) {
      this.pino[level]({ ...fields, err: message }, message.message);
      return;
    }
    if (level === 'error' && typeof rest[0] === 'string') fields.stack = rest.shift();
    if (message !== null && typeof message === 'object') this.pino[level]({ ...fields, ...(message as object) });
    else this.pino[level](fields, String(message));
  }
}

/** What the request logger adds to Express's request: its id and the logger 5xx errors go to. */
export interface LoggedRequest extends IncomingMessage {
  id?: string;
  log?: PinoLogger;
  originalUrl?: string;
}

/**
 * Gives every request an id (a sane incoming `x-request-id`, else a new UUID; echoed in the
 * response) and logs one line when it completes, with method, path (credentials in the query
 * redacted), status and latency: info for 2xx/3xx, warn for 4xx, error for 5xx. Health checks
 * are not logged. Deliberately plain: pino-http with nestjs-pino's per-request child logger and
 * async context cost a third of the throughput of a simple authenticated GET (measured
 * 1,250 → 1,800 req/s without them); 5xx errors are logged by the exception filter with the id.
 */
export function requestLogger(logger: PinoLogger) {
  return (req: LoggedRequest, res: ServerResponse, next: () => void): void => {
    const start = performance.now();
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && /^[\w.-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    req.id = id;
    req.log = logger;
    res.setHeader('x-request-id', id);
    const url = req.originalUrl ?? req.url;
    if (url !== '/api/health') {
      res.once('close', () => {
        const status = res.writableFinished ? res.statusCode : 499;
        const level: Level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
        if (!logger.isLevelEnabled(level)) return;
        logger[level](
          { reqId: id, req: { method: req.method, url: redactUrl(url) }, res: { statusCode: status }, responseTime: Math.round(performance.now() - start) },
          res.writableFinished ? 'request completed' : 'request aborted',
        );
      });
    }
    next();
  };
}
