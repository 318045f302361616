import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The web app (docs/web.md): built into dist/web, which the API process serves at `/`.
// `npm run dev:web` serves it with hot reload and sends /api to a service on :3000.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
    // One chunk of about 500 KB (150 KB gzipped, under the 250 KB budget of docs/benchmarks.md): no warning for it.
    chunkSizeWarningLimit: 800,
  },
  server: { proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: false } } },
});
