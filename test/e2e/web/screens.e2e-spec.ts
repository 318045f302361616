import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '../../support/app';
import { card, newPage as openPage, signIn, startWebApp, type WebApp } from '../../support/web-page';
import { createProject, createTask, ownerWithWorkspace, userWithRole } from '../../support/work-items';

/**
 * The main screens at a desktop width, each with what it must show; `npm run docs:web` also saves
 * them as the pictures of docs/web.md.
 */
const SHOTS = process.env.UPDATE_WEB_SHOTS === '1' ? join(__dirname, '../../../docs/web') : null;

// A browser journey takes several seconds, and more on a loaded machine.
jest.setTimeout(90_000);

let t: TestApp;
let browser: Browser;
let origin: string;
let web: WebApp | undefined;
beforeAll(async () => {
  web = await startWebApp();
  ({ t, browser, origin } = web);
}, 60_000);
afterAll(() => web?.close());

async function shot(page: Page, name: string): Promise<void> {
  // Nothing runs past the right edge at this width.
  expect([name, await page.evaluate('document.documentElement.scrollWidth')]).toEqual([name, page.viewportSize()!.width]);
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

it('the main screens render what they are for', async () => {
  const { owner, workspaceId } = await ownerWithWorkspace(t);
  const ada = await userWithRole(t, workspaceId, 'admin');
  const project = await createProject(t, owner.token, workspaceId, { name: 'Website' });
  const titles = ['Draft the landing page', 'Pick a colour palette', 'Write the pricing copy', 'Set up analytics', 'Fix the signup form'];
  const tasks = [];
  for (const [i, title] of titles.entries()) {
    tasks.push(
      await createTask(t, owner.token, project.id, {
        title,
        status: ['to-do', 'to-do', 'in-progress', 'in-review', 'done'][i],
        priority: ['high', 'low', 'medium', 'urgent', 'no-priority'][i],
      }),
    );
  }
  await t.api.put(`/task/${tasks[0].id}`, { userId: owner.user.id, dueDate: '2026-01-05', description: 'Hero, **three** features, and a call to action.' }, ada.token);
  // Dates for the calendar: one due day, one span.
  await t.api.put(`/task/${tasks[1].id}`, { dueDate: '2026-01-08' }, ada.token);
  await t.api.put(`/task/${tasks[3].id}`, { startDate: '2026-01-12', dueDate: '2026-01-15' }, ada.token);
  await t.api.put(`/task/${tasks[2].id}`, { startDate: '2026-01-06', dueDate: '2026-01-11' }, ada.token);
  await t.api.post('/task-relation', { sourceTaskId: tasks[2].id, targetTaskId: tasks[3].id, relationType: 'blocks' }, ada.token);
  await t.api.post(`/comment/${tasks[0].id}`, { content: 'First sketch is in the shared folder.' }, ada.token);

  const { page, problems, close } = await openPage(browser, origin);
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/sign-in');
    await page.getByRole('heading', { name: 'Sign in to Tandem' }).waitFor();
    await shot(page, 'sign-in');

    await signIn(page, owner.user.email, 'correct horse battery');
    await page.waitForURL((u) => u.pathname.startsWith('/w/'));
    await page.goto(`/w/${workspaceId}/p/${project.id}`);
    for (const title of titles) await card(page, title).waitFor();
    await page.getByText('Live', { exact: true }).waitFor();
    await shot(page, 'board');

    // Two tasks selected: the bulk actions bar.
    await card(page, titles[0]).focus();
    await page.keyboard.press('x');
    await card(page, titles[2]).click({ modifiers: ['Shift'] });
    await page.getByRole('toolbar', { name: 'Selected tasks' }).getByText('3 selected').waitFor();
    await shot(page, 'board-selected');
    await page.keyboard.press('Escape');
    await page.getByRole('toolbar', { name: 'Selected tasks' }).waitFor({ state: 'detached' });

    await card(page, titles[0]).click();
    await page.getByRole('dialog').getByText('First sketch is in the shared folder.').waitFor();
    await shot(page, 'task');

    await page.goto(`/w/${workspaceId}/p/${project.id}/calendar?at=2026-01-05`);
    await page.locator('[data-day="2026-01-05"] .card-title', { hasText: titles[0] }).waitFor();
    await shot(page, 'calendar');

    await page.goto(`/w/${workspaceId}/p/${project.id}/timeline?span=week&at=2026-01-08`);
    await page.getByRole('list', { name: 'Tasks by date' }).locator('.timeline-open', { hasText: titles[3] }).waitFor();
    await shot(page, 'timeline');

    await page.goto(`/w/${workspaceId}/p/${project.id}/list`);
    await page.getByText(`${titles.length} of ${titles.length} tasks`).waitFor();
    await shot(page, 'list');

    await page.keyboard.press('Control+K');
    await page.getByRole('dialog').getByRole('searchbox').or(page.getByRole('dialog').getByRole('combobox')).first().fill('pricing');
    await page.getByRole('dialog').getByText('Write the pricing copy').waitFor();
    await shot(page, 'search');
    await page.keyboard.press('Escape');

    // Ada assigns a task to the owner: the bell counts it.
    await t.api.put(`/task/${tasks[2].id}`, { userId: owner.user.id }, ada.token);
    await page.getByRole('button', { name: /Notifications, [1-9]\d* unread/ }).click();
    await page
      .getByText(/assigned/i)
      .first()
      .waitFor();
    await shot(page, 'notifications');

    // My work: the two tasks assigned to the owner, by due date.
    await page.getByRole('link', { name: 'My work: your tasks by due date' }).click();
    await page.getByRole('list', { name: 'Overdue', exact: true }).getByText(titles[2]).waitFor();
    await shot(page, 'my-work');

    await page.goto(`/w/${workspaceId}/p/${project.id}/integrations`);
    await page
      .getByRole('heading', { name: /Generic webhook/i })
      .first()
      .waitFor();
    await shot(page, 'integrations');

    await page.goto(`/w/${workspaceId}/members`);
    await page.getByText(ada.user.email).first().waitFor();
    await shot(page, 'people');

    await page.goto('/account');
    await page
      .getByRole('heading', { name: /API keys/i })
      .first()
      .waitFor();
    await shot(page, 'account');

    // The board in the dark theme (the system's preference), then on a phone in both themes.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`/w/${workspaceId}/p/${project.id}`);
    for (const title of titles) await card(page, title).waitFor();
    await shot(page, 'board-dark');
    await card(page, titles[0]).click();
    await page.getByRole('dialog').getByText('First sketch is in the shared folder.').waitFor();
    await shot(page, 'task-dark');
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 375, height: 740 });
    await card(page, titles[0]).waitFor();
    await shot(page, 'board-phone-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await shot(page, 'board-phone');
    expect(problems).toEqual([]);
  } finally {
    await close();
  }
}, 90_000);

it('the app in German renders what it is for', async () => {
  const { owner, workspaceId } = await ownerWithWorkspace(t);
  const project = await createProject(t, owner.token, workspaceId, { name: 'Webseite' });
  const titles = ['Startseite entwerfen', 'Farbpalette wählen', 'Preistexte schreiben', 'Statistik einrichten'];
  const tasks = [];
  for (const [i, title] of titles.entries()) {
    tasks.push(
      await createTask(t, owner.token, project.id, { title, status: ['to-do', 'to-do', 'in-progress', 'done'][i], priority: ['high', 'low', 'urgent', 'no-priority'][i] }),
    );
  }
  await t.api.put(
    `/task/${tasks[0].id}`,
    { userId: owner.user.id, dueDate: '2026-01-05', description: 'Kopfbereich, **drei** Funktionen und ein Aufruf zum Handeln.' },
    owner.token,
  );
  await t.api.put(`/task/${tasks[2].id}`, { startDate: '2026-01-06', dueDate: '2026-01-09' }, owner.token);
  await t.api.post(`/comment/${tasks[0].id}`, { content: 'Der erste Entwurf liegt im geteilten Ordner.' }, owner.token);

  const { page, problems, close } = await openPage(browser, origin, { locale: 'de-DE' });
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/sign-in');
    await page.getByRole('heading', { name: 'Bei Tandem anmelden' }).waitFor();
    await page.getByLabel('E-Mail').fill(owner.user.email);
    await page.getByLabel('Passwort').fill('correct horse battery');
    await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
    await page.waitForURL((u) => u.pathname.startsWith('/w/'));
    await page.goto(`/w/${workspaceId}/p/${project.id}`);
    for (const title of titles) await card(page, title).waitFor();
    await page.getByRole('link', { name: 'Zeitleiste' }).waitFor();
    await shot(page, 'board-de');

    await card(page, titles[0]).click();
    await page.getByRole('dialog').getByText('Der erste Entwurf liegt im geteilten Ordner.').waitFor();
    await page
      .getByRole('dialog')
      .getByRole('heading', { name: /^Aktivität/ })
      .waitFor();
    await shot(page, 'task-de');

    await page.goto(`/w/${workspaceId}/p/${project.id}/calendar?at=2026-01-05`);
    await page.getByRole('heading', { name: 'Januar 2026' }).waitFor();
    await shot(page, 'calendar-de');
    expect(problems).toEqual([]);
  } finally {
    await close();
  }
}, 90_000);
