#!/usr/bin/env node
// `npm run bench:web`: the web app in the Chromium that @sparticuz/chromium ships (docs/web.md).
// Builds, starts the service (API and worker in one process) on its own database, seeds one
// project with BENCH_WEB_TASKS tasks (default 500) over its four columns, and measures:
// - the JavaScript and CSS of the first load, gzipped (what the page's index.html references);
// - a board of that many tasks interactive: from the navigation's start to every card on the page
//   (the browser's own clock, performance.now()), BENCH_WEB_LOADS times (default 5);
// - a drag-move re-rendered: from the pointer's release over another column to the card in that
//   column in the DOM (the optimistic update), BENCH_WEB_DRAGS times (default 20): p50, p95.
// Settings: BENCH_WEB_TASKS, BENCH_WEB_LOADS, BENCH_WEB_DRAGS, BENCH_PORT (3116),
// BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/tandem_bench_web), REDIS_URL.
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const chromium = require('@sparticuz/chromium');
const { chromium: playwright } = require('playwright-core');
const { benchEnv, flushRedis, jsonClient, recreateDatabase, startService, stopAll, waitFor } = require('./admin');

const TASKS = Number(process.env.BENCH_WEB_TASKS ?? 500);
const LOADS = Number(process.env.BENCH_WEB_LOADS ?? 5);
const DRAGS = Number(process.env.BENCH_WEB_DRAGS ?? 20);
const PORT = Number(process.env.BENCH_PORT ?? 3116);
const DB_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/tandem_bench_web';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const ORIGIN = `http://127.0.0.1:${PORT}`;
const call = jsonClient(`${ORIGIN}/api`);
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/** The gzipped size of the scripts and styles index.html loads. */
function firstLoadBytes() {
  const dir = path.join(__dirname, '..', 'dist', 'web');
  const html = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
  const size = (ext) => files.filter((f) => f.endsWith(ext)).reduce((n, f) => n + zlib.gzipSync(fs.readFileSync(path.join(dir, f)), { level: 9 }).length, 0);
  return { js: size('.js'), css: size('.css') };
}

async function main() {
  await recreateDatabase(DB_URL);
  await flushRedis(REDIS_URL, 'bench_web');
  const service = startService('api,worker', benchEnv({ PORT: String(PORT), DATABASE_URL: DB_URL, REDIS_URL, QUEUE_PREFIX: 'bench_web', PUBLIC_API_URL: ORIGIN }));
  let browser;
  try {
    await waitFor('the service', async () => (await call('GET', '/health').catch(() => ({}))).status === 200);
    const email = `bench-${Date.now()}@example.test`;
    const password = 'benchmark-password';
    const token = (await call('POST', '/auth/sign-up/email', { name: 'Bench', email, password })).body.token;
    const ws = (await call('POST', '/auth/organization/create', { name: 'Bench' }, token)).body;
    const project = (await call('POST', '/project', { name: 'Web bench', workspaceId: ws.id }, token)).body;
    const statuses = ['to-do', 'in-progress', 'in-review', 'done'];
    for (let i = 0; i < TASKS; i += 20) {
      await Promise.all(
        Array.from({ length: Math.min(20, TASKS - i) }, (_, k) =>
          call('POST', `/task/${project.id}`, { title: `Task ${i + k + 1} of the bench`, status: statuses[(i + k) % 4] }, token),
        ),
      );
    }

    browser = await playwright.launch({
      executablePath: await chromium.executablePath(),
      headless: true,
      args: [...chromium.args.filter((a) => a !== '--single-process' && !a.startsWith('--headless')), '--disable-background-networking', '--no-first-run'],
    });
    const context = await browser.newContext({ baseURL: ORIGIN, viewport: { width: 1600, height: 1000 } });
    const page = await context.newPage();
    await page.goto('/sign-in');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((u) => u.pathname.startsWith('/w/'));

    // The board, loaded afresh each time (the API's answers not cached by the app).
    const boardUrl = `/w/${ws.id}/p/${project.id}`;
    const loads = [];
    for (let i = 0; i < LOADS; i++) {
      await page.goto(boardUrl);
      await page.waitForFunction((n) => globalThis.document.querySelectorAll('button.card-open').length >= n, TASKS, { timeout: 30_000 });
      loads.push(await page.evaluate(() => performance.now()));
    }
    loads.sort((a, b) => a - b);

    // Drags: the first card of the first column, by its handle, into the second, then back, one after another.
    await page.getByText('Live', { exact: true }).waitFor();
    const drags = [];
    let missed = 0;
    for (let i = 0; i < DRAGS; i++) {
      const from = statuses[i % 2 === 0 ? 0 : 1];
      const to = statuses[i % 2 === 0 ? 1 : 0];
      const handle = page.locator(`[data-column="${from}"] .handle`).first();
      const id = await page.locator(`[data-column="${from}"] li.card`).first().getAttribute('data-task');
      const a = await handle.boundingBox();
      const b = await page.locator(`[data-column="${to}"] h2`).boundingBox();
      // In the page (globalThis is the window there).
      await page.evaluate((taskId) => {
        const w = globalThis;
        const card = () => w.document.querySelector(`[data-task="${taskId}"]`);
        const from = card().closest('[data-column]').getAttribute('data-column');
        w.__moved = null;
        w.addEventListener('pointerup', () => (w.__released = performance.now()), { once: true, capture: true });
        const observer = new w.MutationObserver(() => {
          const c = card();
          if (c && c.closest('[data-column]')?.getAttribute('data-column') !== from) {
            w.__moved = performance.now();
            observer.disconnect();
          }
        });
        observer.observe(w.document.body, { childList: true, subtree: true });
      }, id);
      await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
      await page.mouse.down();
      await page.mouse.move(a.x + 20, a.y + 20, { steps: 3 });
      await page.mouse.move(b.x + b.width / 2, b.y + 60, { steps: 6 });
      await page.mouse.up();
      const moved = await page
        .waitForFunction(() => globalThis.__moved !== null, undefined, { timeout: 10_000 })
        .then(() => true)
        .catch(() => false);
      if (!moved) {
        missed++;
        continue;
      }
      drags.push(await page.evaluate(() => globalThis.__moved - globalThis.__released));
      // Let the change reach the service and the board fetch it again (and the live event land) before the next drag.
      await waitFor('the move saved', async () => (await call('GET', `/task/${id}`, undefined, token)).body.status === to);
      await page.waitForTimeout(500);
    }
    drags.sort((a, b) => a - b);

    const bytes = firstLoadBytes();
    console.log(`\nWeb app: a board of ${TASKS} tasks, Chromium ${browser.version()} headless, node ${process.version}, ${require('node:os').cpus().length} cores\n`);
    console.log('| figure | value |');
    console.log('|---|---:|');
    console.log(`| first load, JavaScript gzipped | ${(bytes.js / 1024).toFixed(1)} KB |`);
    console.log(`| first load, CSS gzipped | ${(bytes.css / 1024).toFixed(1)} KB |`);
    console.log(`| board of ${TASKS} interactive after navigation: median / max of ${LOADS} | ${Math.round(quantile(loads, 0.5))} / ${Math.round(loads[loads.length - 1])} ms |`);
    console.log(
      `| drag-move re-rendered: p50 / p95 / max of ${drags.length} | ${quantile(drags, 0.5).toFixed(1)} / ${quantile(drags, 0.95).toFixed(1)} / ${drags[drags.length - 1].toFixed(1)} ms |`,
    );
    console.log(`| drags that did not land, of ${DRAGS} | ${missed} |`);
  } finally {
    await browser?.close();
    await stopAll([service]);
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
