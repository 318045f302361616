import 'reflect-metadata';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { INestApplication, INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CorsOptionsDelegate } from '@nestjs/common/interfaces/external/cors-options.interface';
import { NestExpressApplication } from '@nestjs/platform-express';
import type { Application, NextFunction, Request, RequestHandler, Response } from 'express';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import helmet from 'helmet';
import { AppModule } from './app.module';
import { AppConfig } from './config/app-config';
import { ErrorBody, ErrorKeyBody, documentCommonErrors } from './common/http/api-errors';
import { SESSION_COOKIE } from './common/http/cookies';
import { documentAccess, routeTable } from './common/http/route-table';
import { BODY_LIMIT_BYTES, jsonBodyParser } from './common/http/body-parser';
import { createRootLogger, PinoNestLogger, requestLogger } from './common/http/logging';
import { builtFiles, compressAnswers, sendBuilt } from './common/http/web-app';
import { ensureDatabase, migrate } from './database/migrate';
import { QUEUE_DASHBOARD_PATH, QueueDashboard } from './modules/admin/queue-dashboard.service';
import { errorBodyKeyOf } from './modules/git-hosts/git-routes';

/** Where the built web app is: beside the compiled service (dist/web), or, running from the sources, in dist/web. */
function webAppDir(): string | null {
  for (const dir of [join(__dirname, 'web'), join(__dirname, '..', 'dist', 'web')]) if (existsSync(join(dir, 'index.html'))) return dir;
  return null;
}

/**
 * The web app at `/` (docs/web.md): its files, and its page for every other path that is not the
 * API's (the app's routes are plain paths), so a reload or a link into the app works. `/api` is
 * untouched. Without a built app (npm run build makes it) the API alone is served.
 */
function serveWebApp(app: NestExpressApplication, logger: ReturnType<typeof createRootLogger>): void {
  const dir = webAppDir();
  if (!dir) {
    logger.debug('no built web app (dist/web): serving the API only');
    return;
  }
  // The file list is read once (a build's files do not change while it is served), so an API
  // request never touches the file system here. Built files under /assets have content hashes in
  // their names: cached for a year; the page and the few files beside it, never. A missing asset
  // or a source map is a 404, not the page.
  const assets = builtFiles(join(dir, 'assets'), '/assets');
  const rootFiles = builtFiles(dir, '');
  const index = rootFiles.get('/index.html')!;
  app.use((req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.path === '/api' || req.path.startsWith('/api/')) return next();
    if (req.path.startsWith('/assets/')) {
      const asset = assets.get(req.path);
      if (!asset) {
        res.status(404).json({ message: 'Not found' });
        return;
      }
      sendBuilt(req, res, next, asset, 'public, max-age=31536000, immutable');
      return;
    }
    sendBuilt(req, res, next, rootFiles.get(req.path) ?? index, 'no-cache');
  });
}

export interface Running {
  app: INestApplication | INestApplicationContext;
  /** Base URL of the HTTP server (api role only), e.g. http://127.0.0.1:3000 */
  url?: string;
  /** Where the HTTP server listens (api role only), as bound, e.g. http://0.0.0.0:3000 */
  listening?: string;
  /** What start-up did to the database (unless opts.migrate was false): created it, and which migrations it applied. */
  migrations?: { databaseCreated: boolean; applied: string[] };
  close(): Promise<void>;
}

/** The origins a presigned upload URL of the configured bucket can have (path-style and virtual-hosted), none with local storage. */
function bucketOrigins(config: AppConfig): string[] {
  const storage = config.files.storage;
  if (storage.kind !== 's3') return [];
  const endpoint = new URL(storage.endpoint);
  return [endpoint.origin, `${endpoint.protocol}//${storage.bucket}.${endpoint.host}`];
}

function setUpHttp(app: NestExpressApplication, config: AppConfig, logger: ReturnType<typeof createRootLogger>): void {
  app.use(requestLogger(logger));
  app.disable('x-powered-by');
  // Which peers may tell the client's address (X-Forwarded-For): only the proxies TRUST_PROXY
  // names, none by default (docs/decisions-local.md, "Access rules that close escalation paths" 6).
  app.set('trust proxy', config.trustProxy);
  app.use(warnOfUntrustedForwarding(app, logger));
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:'],
          // The web app uploads files to the bucket directly (docs/files.md, "S3-compatible storage").
          connectSrc: ["'self'", ...bucketOrigins(config)],
          // Not upgraded: opened over plain http on a LAN name (http://tandem.lan:3000/), an
          // upgrade would send the app's script and styles to https, where nothing answers.
          upgradeInsecureRequests: null,
        },
      },
      // Both sent below, only over https: over plain http a browser ignores them (and logs that it
      // ignored Cross-Origin-Opener-Policy on every page).
      strictTransportSecurity: false,
      crossOriginOpenerPolicy: false,
    }),
  );
  app.use(securityHeaders(config));
  // The queue dashboard for instance admins (docs/decisions-local.md, "Queue dashboard"): an
  // Express handler with its own authentication and CSP, mounted before CORS so that no other
  // origin gets CORS headers for it (its page and API are for its own origin only).
  app.use(QUEUE_DASHBOARD_PATH, app.get(QueueDashboard).handler());
  app.enableCors(corsOptions(config));
  app.use(jsonBodyParser(BODY_LIMIT_BYTES, errorBodyKeyOf));
  serveWebApp(app, logger);
  app.use(compressAnswers());
  app.setGlobalPrefix('api');

  const doc = documentCommonErrors(
    SwaggerModule.createDocument(
      app,
      new DocumentBuilder()
        .setTitle('Tandem API')
        .setDescription('Project collaboration: workspaces, projects, tasks, integrations and notifications. Every error body is {"message": string}.')
        .setVersion('1')
        .addBearerAuth()
        .addApiKey({ type: 'apiKey', in: 'header', name: 'x-api-key' }, 'api-key')
        .addCookieAuth(
          SESSION_COOKIE,
          { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'The browser session (SECURITY.md, "Browser sessions")' },
          'session-cookie',
        )
        .build(),
      { extraModels: [ErrorBody, ErrorKeyBody] },
    ),
  );
  documentAccess(doc, routeTable(app));
  SwaggerModule.setup('api/docs', app, doc, { jsonDocumentUrl: 'api/openapi.json', useGlobalPrefix: false });
}

/**
 * Strict-Transport-Security and Cross-Origin-Opener-Policy only for a request that came over https: its own TLS, or a proxy
 * that TRUST_PROXY names saying so (X-Forwarded-Proto), or an instance whose PUBLIC_API_URL is
 * https (browsers ignore the header over plain http anyway). And `Cache-Control: no-store` on
 * every API answer that does not set its own: answers carry tokens, keys and a workspace's data,
 * which no cache may keep (SECURITY.md, "Headers").
 */
function securityHeaders(config: AppConfig): RequestHandler {
  const httpsInstance = new URL(config.publicApiUrl).protocol === 'https:';
  return (req, res, next) => {
    if (httpsInstance || req.secure) {
      res.setHeader('strict-transport-security', 'max-age=31536000; includeSubDomains');
      res.setHeader('cross-origin-opener-policy', 'same-origin');
    }
    if (req.path === '/api' || req.path.startsWith('/api/')) res.setHeader('cache-control', 'no-store');
    next();
  };
}

/**
 * Logs once per process a request whose X-Forwarded-For came from a peer TRUST_PROXY does not
 * name: the header is ignored, so behind a proxy left out of TRUST_PROXY every client shares the
 * proxy's address (and its sign-in limit).
 */
function warnOfUntrustedForwarding(app: NestExpressApplication, logger: ReturnType<typeof createRootLogger>): RequestHandler {
  const trusted = (app.getHttpAdapter().getInstance() as Application).get('trust proxy fn') as (address: string, hop: number) => boolean;
  let warned = false;
  return (req, _res, next) => {
    if (!warned && req.headers['x-forwarded-for'] !== undefined && !trusted(req.socket.remoteAddress ?? '', 0)) {
      warned = true;
      logger.warn({ peer: req.socket.remoteAddress }, 'X-Forwarded-For from a peer that TRUST_PROXY does not name is ignored; set TRUST_PROXY to your proxies (logged once)');
    }
    next();
  };
}

/**
 * CORS: only the origins of CORS_ORIGINS (default: CLIENT_URL's) get CORS headers, credentials
 * included; any other origin gets none at all. `*` answers any origin, never with credentials.
 */
function corsOptions(config: AppConfig): CorsOptionsDelegate<Request> {
  const exposedHeaders = ['set-auth-token', 'x-request-id'];
  if (config.corsOrigins === '*') return (_req, cb) => cb(null, { origin: '*', credentials: false, exposedHeaders });
  const allowed = new Set(config.corsOrigins);
  return (req, cb) => {
    const origin = req.headers.origin;
    if (typeof origin === 'string' && allowed.has(origin)) cb(null, { origin, credentials: true, exposedHeaders });
    else cb(null, { origin: false });
  };
}

/**
 * Requests that Node's HTTP parser refuses before the app sees them (header fields over its 16 KiB
 * limit, a malformed request line, a request that took too long to arrive) get `{message}` like
 * every other error (docs/decisions-local.md, "Errors and conventions"), not Node's bare status line.
 */
function answerParserErrorsAsJson(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || err.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const [status, reason, message] =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'Request header fields too large']
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request Timeout', 'Request timeout']
          : [400, 'Bad Request', 'Malformed HTTP request'];
    const body = JSON.stringify({ message });
    socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });
}

/** Boots the roles named in config: the API (HTTP server) and/or the worker (queue processors). */
export async function bootstrap(config: AppConfig, opts: { host?: string; migrate?: boolean } = {}): Promise<Running> {
  let migrations: Running['migrations'];
  if (opts.migrate !== false) {
    const databaseCreated = await ensureDatabase(config.databaseUrl);
    migrations = { databaseCreated, applied: await migrate(config.databaseUrl) };
  }
  const module = AppModule.forRoot(config);
  const root = createRootLogger(config);
  const logger = new PinoNestLogger(root);
  if (config.roles.includes('api')) {
    const app = await NestFactory.create<NestExpressApplication>(module, { logger, bodyParser: false });
    setUpHttp(app, config, root);
    const host = opts.host ?? '0.0.0.0';
    await app.listen(config.port, host);
    answerParserErrorsAsJson(app.getHttpServer());
    const addr = app.getHttpServer().address();
    const port = typeof addr === 'object' && addr ? addr.port : config.port;
    const listening = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    return { app, url: `http://127.0.0.1:${port}`, listening, migrations, close: () => app.close() };
  }
  const app = await NestFactory.createApplicationContext(module, { logger });
  await app.init();
  return { app, migrations, close: () => app.close() };
}
