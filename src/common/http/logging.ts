import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Params } from 'nestjs-pino';
import { stdSerializers } from 'pino';
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

export function loggerParams(config: AppConfig): Params {
  return {
    pinoHttp: {
      level: config.logLevel,
      genReqId: (req: IncomingMessage, res: ServerResponse) => {
        const incoming = req.headers['x-request-id'];
        const id = typeof incoming === 'string' && /^[\w.-]{1,64}$/.test(incoming) ? incoming : randomUUID();
        res.setHeader('x-request-id', id);
        return id;
      },
      // Whole headers are never logged; these paths guard anything that slips into a log object.
      redact: {
        paths: [
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
          '*.idToken',
          '*.refreshToken',
        ],
        censor: '[REDACTED]',
      },
      serializers: {
        req: (req: any) => ({ id: req.id, method: req.method, url: redactUrl(req.url) }),
        res: (res: any) => ({ statusCode: res.statusCode }),
        err: serializeError,
      },
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
      autoLogging: { ignore: (req) => req.url === '/api/health' },
      quietReqLogger: true,
    },
  };
}
