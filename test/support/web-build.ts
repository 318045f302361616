import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** The newest modification time under `path` (a file, or a folder's files). */
function newest(path: string): number {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/**
 * Builds the web app (dist/web, which the service serves at `/`) when it is missing or older than
 * its sources or the OpenAPI document, so the browser tests run against the app of this checkout.
 */
export function ensureWebApp(): void {
  const index = join(ROOT, 'dist', 'web', 'index.html');
  const sources = [join(ROOT, 'web', 'src'), join(ROOT, 'web', 'index.html'), join(ROOT, 'web', 'vite.config.ts'), join(ROOT, 'docs', 'openapi.json')];
  if (existsSync(index) && statSync(index).mtimeMs >= Math.max(...sources.map(newest))) return;
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', join(ROOT, 'web', 'vite.config.ts'), '--logLevel', 'warn'], {
    cwd: ROOT,
    stdio: 'inherit',
    // The build users get (npm run build): Jest's NODE_ENV=test would make Vite bundle React's development build.
    env: { ...process.env, NODE_ENV: 'production' },
  });
}
