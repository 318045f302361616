#!/usr/bin/env node
// `npm run bench:web`: the web app in the Chromium that @sparticuz/chromium ships (docs/web.md).
// Builds, starts the service (API and worker in one process) on its own database, seeds one
// project with BENCH_WEB_TASKS tasks (default 500) over its four columns, and measures:
// - the JavaScript and CSS of the first load, gzipped (what the page's index.html references);
// - a board of that many tasks interactive: from the navigation's start to every card on the page
//   (the browser's own clock, performance.now()), BENCH_WEB_LOADS times (default 5);
// - a pointer move during a drag: the page's main-thread work for it, from the first listener of the
//   event to a task queued after its handlers, React's render and the frame that draws it (not the
//   input's wait for its frame), every move of every drag: p50, p95;
// - a drop re-rendered: from the pointer's release over another column to the card in that column
//   in the DOM (the optimistic update), BENCH_WEB_DRAGS times per round (default 20): p50, p95.
// - a timeline bar drag (weeks scale): the main-thread work of each pointer move, as for the board.
// Cards are dragged by their body (the whole card drags), as a person does. Each task has a due
// date over the next six weeks, most a start date too.
// With BENCH_WEB_BASE (a git revision, e.g. HEAD~1) the build of that revision is measured too, in a
// worktree under the system's temporary directory (built there with this checkout's node_modules),
// on a database of its own: the two alternate, round by round (BENCH_WEB_ROUNDS, default 3 with a
// base, else 1), so that both see the same load of the machine.
// Settings: BENCH_WEB_PROFILE (a file name: the first round's CPU profile of the drags), BENCH_WEB_TASKS, BENCH_WEB_LOADS, BENCH_WEB_DRAGS, BENCH_WEB_ROUNDS, BENCH_WEB_BASE,
// BENCH_PORT (3116; the base on the next port), BENCH_DATABASE_URL
// (postgres://postgres@127.0.0.1:5432/tandem_bench_web; the base's gets `_base`), REDIS_URL.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');
const { execFileSync } = require('node:child_process');
const chromium = require('@sparticuz/chromium');
const { chromium: playwright } = require('playwright-core');
const { benchEnv, buildBase, flushRedis, jsonClient, recreateDatabase, startService, stopAll, waitFor } = require('./admin');

const TASKS = Number(process.env.BENCH_WEB_TASKS ?? 500);
const LOADS = Number(process.env.BENCH_WEB_LOADS ?? 5);
const DRAGS = Number(process.env.BENCH_WEB_DRAGS ?? 20);
const BASE = process.env.BENCH_WEB_BASE;
const ROUNDS = Number(process.env.BENCH_WEB_ROUNDS ?? (BASE ? 3 : 1));
const PORT = Number(process.env.BENCH_PORT ?? 3116);
const DB_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/tandem_bench_web';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const HERE = path.join(__dirname, '..');
const STATUSES = ['to-do', 'in-progress', 'in-review', 'done'];
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const git = (...args) => execFileSync('git', args, { cwd: HERE, encoding: 'utf8' }).trim();

/** The gzipped size of the scripts and styles index.html loads. */
function firstLoadBytes(root) {
  const dir = path.join(root, 'dist', 'web');
  const html = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
  const size = (ext) => files.filter((f) => f.endsWith(ext)).reduce((n, f) => n + zlib.gzipSync(fs.readFileSync(path.join(dir, f)), { level: 9 }).length, 0);
  return { js: size('.js'), css: size('.css') };
}

/** Task `i`'s dates: due over the next six weeks, most with a start up to four days before (the timeline's bars). */
function datesOf(i) {
  const day = (n) => new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + n)).toISOString();
  const due = 3 + (i % 40);
  return i % 5 === 0 ? { dueDate: day(due) } : { startDate: day(due - (i % 5)), dueDate: day(due) };
}

/**
 * Times every pointer move while a button is down, into the page's `__moves`: from the first
 * listener of its dispatch (the window's, capturing) to a task queued after its last (the window's,
 * bubbling, after the app's own). The app's render of it is queued before that task, and the frame
 * that draws the move (style, layout, paint) runs before it too. Not counted: the wait of the input
 * for its frame (Chromium dispatches pointer moves aligned to frames).
 */
function timePointerMoves(page) {
  return page.evaluate(() => {
    const w = globalThis;
    w.__moves = [];
    let at = 0;
    w.addEventListener('pointermove', () => (at = performance.now()), { capture: true });
    w.addEventListener('pointermove', (e) => {
      if (!e.buttons) return;
      const from = at;
      const channel = new w.MessageChannel();
      channel.port1.onmessage = () => w.__moves.push(performance.now() - from);
      channel.port2.postMessage(null);
    });
  });
}

/** Starts the build at `root` on a database and port of its own and seeds its board. */
async function setUp({ name, root }, i) {
  const port = PORT + i;
  const origin = `http://127.0.0.1:${port}`;
  const dbUrl = i === 0 ? DB_URL : `${DB_URL}_base`;
  const prefix = `bench_web${i}`;
  await recreateDatabase(dbUrl);
  await flushRedis(REDIS_URL, prefix);
  const service = startService('api,worker', benchEnv({ PORT: String(port), DATABASE_URL: dbUrl, REDIS_URL, QUEUE_PREFIX: prefix, PUBLIC_API_URL: origin }), [], root);
  const call = jsonClient(`${origin}/api`);
  await waitFor(`the service of ${name}`, async () => (await call('GET', '/health').catch(() => ({}))).status === 200);
  const email = `bench-${Date.now()}@example.test`;
  const password = 'benchmark-password';
  const token = (await call('POST', '/auth/sign-up/email', { name: 'Bench', email, password })).body.token;
  const ws = (await call('POST', '/auth/organization/create', { name: 'Bench' }, token)).body;
  const project = (await call('POST', '/project', { name: 'Web bench', workspaceId: ws.id }, token)).body;
  for (let k = 0; k < TASKS; k += 20) {
    await Promise.all(
      Array.from({ length: Math.min(20, TASKS - k) }, (_, j) =>
        call('POST', `/task/${project.id}`, { title: `Task ${k + j + 1} of the bench`, status: STATUSES[(k + j) % 4], ...datesOf(k + j) }, token),
      ),
    );
  }
  return { name, root, origin, call, token, email, password, boardUrl: `/w/${ws.id}/p/${project.id}`, service, loads: [], moves: [], drops: [], barMoves: [], missed: 0 };
}

/** One round on `target`: a fresh browser context signed in, LOADS loads of the board, DRAGS drags. */
async function measure(browser, target) {
  const context = await browser.newContext({ baseURL: target.origin, viewport: { width: 1600, height: 1000 } });
  const page = await context.newPage();
  try {
    await page.goto('/sign-in');
    await page.getByLabel('Email').fill(target.email);
    await page.getByLabel('Password').fill(target.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((u) => u.pathname.startsWith('/w/'));

    // The board, loaded afresh each time (the API's answers not cached by the app).
    for (let i = 0; i < LOADS; i++) {
      await page.goto(target.boardUrl);
      await page.waitForFunction((n) => globalThis.document.querySelectorAll('button.card-open').length >= n, TASKS, { timeout: 30_000 });
      target.loads.push(await page.evaluate(() => performance.now()));
    }

    await page.getByText('Live', { exact: true }).waitFor();
    // Every pointer move of the drags (dnd-kit listens on the document, before the timer's window listener).
    await timePointerMoves(page);
    // BENCH_WEB_PROFILE=<file>: the page's CPU profile over the first round's drags (open it in Chromium's DevTools).
    const profile = process.env.BENCH_WEB_PROFILE && target.drops.length === 0 && target.missed === 0 ? await context.newCDPSession(page) : null;
    if (profile) {
      await profile.send('Profiler.enable');
      await profile.send('Profiler.setSamplingInterval', { interval: 100 });
      await profile.send('Profiler.start');
    }
    for (let i = 0; i < DRAGS; i++) {
      // The first card of the first column into the second, then back, one after another.
      const from = STATUSES[i % 2 === 0 ? 0 : 1];
      const to = STATUSES[i % 2 === 0 ? 1 : 0];
      const body = page.locator(`[data-column="${from}"] li.card .key`).first();
      const id = await page.locator(`[data-column="${from}"] li.card`).first().getAttribute('data-task');
      const a = await body.boundingBox();
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
      await page.mouse.move(a.x + a.width / 2 + 10, a.y + a.height / 2 + 10, { steps: 3 });
      await page.mouse.move(b.x + b.width / 2, b.y + 60, { steps: 20 });
      await page.mouse.up();
      const moved = await page
        .waitForFunction(() => globalThis.__moved !== null, undefined, { timeout: 10_000 })
        .then(() => true)
        .catch(() => false);
      if (!moved) {
        target.missed++;
        continue;
      }
      target.drops.push(await page.evaluate(() => globalThis.__moved - globalThis.__released));
      // Let the change reach the service and the board fetch it again (and the live event land) before the next drag.
      await waitFor('the move saved', async () => (await target.call('GET', `/task/${id}`, undefined, target.token)).body.status === to);
      await page.waitForTimeout(500);
    }
    target.moves.push(...(await page.evaluate(() => globalThis.__moves)));
    await timelineDrags(page, target);
    if (profile) fs.writeFileSync(`${process.env.BENCH_WEB_PROFILE}.${target.name.split(' ')[0]}.cpuprofile`, JSON.stringify((await profile.send('Profiler.stop')).profile));
  } finally {
    await context.close();
  }
}

/**
 * Bar drags on the timeline (weeks: 32 px a day), DRAGS of them, each bar two days on and the next
 * round back: the main-thread work of every pointer move, as for the board. A build without the
 * timeline is left out of this row.
 */
async function timelineDrags(page, target) {
  await page.goto(`${target.boardUrl}/timeline?span=week`);
  const shown = await page
    .locator('ol[aria-label="Tasks by date"] .timeline-bar')
    .first()
    .waitFor({ timeout: 10_000 })
    .then(() => true)
    .catch(() => false);
  if (!shown) return;
  await timePointerMoves(page);
  for (let i = 0; i < DRAGS; i++) {
    const bar = page.locator('ol[aria-label="Tasks by date"] .timeline-bar.bar').nth(i % 10);
    const box = await bar.boundingBox();
    const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
    const dx = i % 20 < 10 ? 64 : -64;
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + dx, y, { steps: 20 });
    await page.mouse.up();
    await page.waitForTimeout(300);
  }
  target.barMoves.push(...(await page.evaluate(() => globalThis.__moves)));
}

const spread = (values, digits = 1) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? `${quantile(s, 0.5).toFixed(digits)} / ${quantile(s, 0.95).toFixed(digits)} / ${s[s.length - 1].toFixed(digits)} ms` : 'none';
};

async function main() {
  const builds = [{ name: `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain') ? ' + changes' : ''}`, root: HERE }];
  if (BASE) builds.push(buildBase(BASE, 'web'));
  const targets = [];
  let browser;
  try {
    for (const [i, b] of builds.entries()) targets.push(await setUp(b, i));
    browser = await playwright.launch({
      executablePath: await chromium.executablePath(),
      headless: true,
      args: [...chromium.args.filter((a) => a !== '--single-process' && !a.startsWith('--headless')), '--disable-background-networking', '--no-first-run'],
    });
    for (let r = 0; r < ROUNDS; r++) for (const t of targets) await measure(browser, t);

    console.log(
      `\nWeb app: a board of ${TASKS} tasks, Chromium ${browser.version()} headless, node ${process.version}, ${os.cpus().length} cores, ${ROUNDS} round(s) alternating\n`,
    );
    console.log(`| figure | ${targets.map((t) => `\`${t.name}\``).join(' | ')} |`);
    console.log(`|---|${targets.map(() => '---:').join('|')}|`);
    const row = (label, f) => console.log(`| ${label} | ${targets.map(f).join(' | ')} |`);
    row('first load: JavaScript / CSS, gzipped', (t) => {
      const bytes = firstLoadBytes(t.root);
      return `${(bytes.js / 1024).toFixed(1)} / ${(bytes.css / 1024).toFixed(1)} KB`;
    });
    row(`board of ${TASKS} interactive after navigation: p50 / p95 / max of ${LOADS * ROUNDS}`, (t) => spread(t.loads, 0));
    row('pointer move during a drag: p50 / p95 / max', (t) => `${spread(t.moves)} (${t.moves.length} moves)`);
    row(`drop re-rendered: p50 / p95 / max of ${DRAGS * ROUNDS}`, (t) => spread(t.drops));
    row('timeline bar drag, pointer move: p50 / p95 / max', (t) => (t.barMoves.length ? `${spread(t.barMoves)} (${t.barMoves.length} moves)` : 'no timeline'));
    row('drags that did not land', (t) => String(t.missed));
  } finally {
    await browser?.close();
    await stopAll(targets.map((t) => t.service));
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
