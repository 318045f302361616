import { existsSync, readdirSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import compression from 'compression';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * JSON answers are compressed from this size on (docs/benchmarks.md, "Compressed answers"): from
 * there, compressing costs less CPU time than the transfer time it saves even on a gigabit link.
 */
export const COMPRESS_FROM_BYTES = 4096;

/**
 * Compresses the API's answers of at least COMPRESS_FROM_BYTES (brotli when the client takes it,
 * else gzip), never the live event stream (compression holds its bytes back until a buffer fills)
 * and never an answer already encoded (the web app's precompressed files).
 */
export function compressAnswers(): RequestHandler {
  return compression({
    threshold: COMPRESS_FROM_BYTES,
    filter: (req, res) => {
      const type = res.getHeader('content-type');
      if (typeof type === 'string' && type.startsWith('text/event-stream')) return false;
      return compression.filter(req, res);
    },
  });
}

/** The media types of the files a Vite build writes, by extension. */
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

/** One built file: its path, and the precompressed copies the build wrote beside it. */
interface BuiltFile {
  path: string;
  type: string;
  br: boolean;
  gzip: boolean;
}

/**
 * The files of a built web app's folder, by URL path under `urlPrefix`: read once at start-up
 * (a build's files never change while it is served). Source maps and the precompressed copies
 * themselves are not served.
 */
export function builtFiles(dir: string, urlPrefix: string): Map<string, BuiltFile> {
  const files = new Map<string, BuiltFile>();
  if (!existsSync(dir)) return files;
  const names = new Set(readdirSync(dir).filter((n) => statSync(join(dir, n)).isFile()));
  for (const name of names) {
    if (name.endsWith('.map') || name.endsWith('.br') || name.endsWith('.gz')) continue;
    files.set(`${urlPrefix}/${name}`, {
      path: join(dir, name),
      type: TYPES[extname(name)] ?? 'application/octet-stream',
      br: names.has(`${name}.br`),
      gzip: names.has(`${name}.gz`),
    });
  }
  return files;
}

/**
 * Sends a built file, its brotli or gzip copy when the client accepts one (docs/web.md,
 * "Building and developing"), with `cache-control` as given.
 */
export function sendBuilt(req: Request, res: Response, next: NextFunction, file: BuiltFile, cacheControl: string): void {
  // The smallest copy the client takes: brotli, else gzip (whatever order its header lists them in).
  const encoding = file.br && req.acceptsEncodings('br') ? 'br' : file.gzip && req.acceptsEncodings('gzip') ? 'gzip' : 'identity';
  res.setHeader('vary', 'Accept-Encoding');
  res.setHeader('cache-control', cacheControl);
  res.setHeader('content-type', file.type);
  if (encoding !== 'identity') {
    res.setHeader('content-encoding', encoding);
    res.sendFile(`${file.path}.${encoding === 'br' ? 'br' : 'gz'}`, { acceptRanges: false, cacheControl: false }, (err) => err && next(err));
    return;
  }
  res.sendFile(file.path, { cacheControl: false }, (err) => err && next(err));
}
