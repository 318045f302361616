import { readFileSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { startTestApp, TestApp } from './app';
import { launchBrowser } from './browser';

/** Helpers of the browser tests (test/e2e/web): pages that record their problems, sign-in, axe-core. */

/**
 * A page whose console errors and failed requests fail the test that made it. Its browser speaks
 * `locale` (navigator.languages and Accept-Language; US English unless said), whatever the
 * machine's own language is.
 */
export async function newPage(browser: Browser, origin: string, options: { locale?: string } = {}): Promise<{ page: Page; problems: string[]; close: () => Promise<void> }> {
  const context = await browser.newContext({ baseURL: origin, locale: options.locale ?? 'en-US' });
  const page = await context.newPage();
  const problems: string[] = [];
  // Every console error counts: a signed-out visit included (get-session answers null, not 401).
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  return { page, problems, close: () => context.close() };
}

/**
 * Drags `handle` with the mouse and drops it at (x, y): pressed at its middle, moved 10 px first
 * (past dnd-kit's 5 px activation distance), then carried there in steps.
 */
export async function dragTo(page: Page, handle: Locator, x: number, y: number): Promise<void> {
  const from = (await handle.boundingBox())!;
  const [cx, cy] = [from.x + from.width / 2, from.y + from.height / 2];
  await page.mouse.move(cx, cy);
  await page.mouse.down();
  await page.mouse.move(cx, cy + 10, { steps: 3 });
  await page.mouse.move(x, y, { steps: 10 });
  await page.mouse.up();
}

/** A task's card on the board (the button that opens it). */
export const card = (page: Page, title: string) => page.locator('button.card-open', { hasText: title });

/** Signs in through the form (the answer sets the session cookie). */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
/** axe-core's serious and critical findings on the page as it is. */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated by the test, not added as an inline script (which the service's CSP refuses, as it should).
  await page.evaluate(AXE);
  // A string: the test's TypeScript knows no DOM; the page runs it.
  const found = (await page.evaluate('axe.run(document).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, n: v.nodes.length })))')) as {
    id: string;
    impact: string;
    n: number;
  }[];
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}, ${v.n})`);
}

/** The service (API and worker in one process) and a Chromium for one browser-test file, with the app's origin. */
export interface WebApp {
  t: TestApp;
  browser: Browser;
  origin: string;
  close(): Promise<void>;
}

export async function startWebApp(env: Record<string, string> = {}): Promise<WebApp> {
  const t = await startTestApp(env);
  const browser = await launchBrowser();
  return {
    t,
    browser,
    origin: t.url.replace(/\/api$/, ''),
    close: async () => {
      await browser.close();
      await t.close();
    },
  };
}

/**
 * A browser-test file's set-up in one call, at the top of the file: the service and a Chromium
 * started before its tests and closed after them, a 90 s timeout per test (a browser journey takes
 * several seconds, more on a loaded machine), and `newPage()` on the app's origin. `env` (called in
 * the set-up, after the outside servers it names have started) adds settings of the service.
 */
export function useWebApp(options: { env?: () => Promise<Record<string, string>> } = {}): {
  readonly t: TestApp;
  readonly browser: Browser;
  readonly origin: string;
  newPage: (options?: { locale?: string }) => ReturnType<typeof newPage>;
} {
  jest.setTimeout(90_000);
  let web: WebApp | undefined;
  beforeAll(async () => {
    web = await startWebApp(options.env ? await options.env() : {});
  }, 60_000);
  afterAll(() => web?.close());
  const started = () => {
    if (!web) throw new Error('the web app is not started (useWebApp() belongs at the top of the file)');
    return web;
  };
  return {
    get t() {
      return started().t;
    },
    get browser() {
      return started().browser;
    },
    get origin() {
      return started().origin;
    },
    newPage: (options?: { locale?: string }) => newPage(started().browser, started().origin, options),
  };
}
