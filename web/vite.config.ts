import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt)$/;

/**
 * Writes a brotli (quality 11) and a gzip (level 9) copy beside each text file of the build, once
 * at build time, so the service sends them by the request's Accept-Encoding without compressing
 * per request (docs/web.md, "Building and developing").
 */
function precompress(): Plugin {
  return {
    name: 'tandem-precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      const dir = options.dir!;
      for (const name of Object.keys(bundle)) {
        if (!COMPRESSIBLE.test(name)) continue;
        const item = bundle[name]!;
        const body = Buffer.from(item.type === 'chunk' ? item.code : item.source);
        writeFileSync(join(dir, `${name}.br`), brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }));
        writeFileSync(join(dir, `${name}.gz`), gzipSync(body, { level: 9 }));
      }
    },
  };
}

// The web app (docs/web.md): built into dist/web, which the API process serves at `/`.
// `npm run dev:web` serves it with hot reload and sends /api to a service on :3000.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), precompress()],
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    // Source maps are written for whoever runs the service (to read a stack trace) but not linked
    // from the files, and the service does not serve them.
    sourcemap: 'hidden',
    target: 'es2022',
    // One chunk of about 500 KB (150 KB gzipped, under the 250 KB budget of docs/benchmarks.md): no warning for it.
    chunkSizeWarningLimit: 800,
  },
  server: { proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: false } } },
});
