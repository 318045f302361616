import type { Browser } from 'playwright-core';
import type { TestApp } from '../../support/app';
import { axeViolations, card, newPage as openPage, signIn, startWebApp, type WebApp } from '../../support/web-page';
import { createProject, createTask, ownerWithWorkspace } from '../../support/work-items';

/** Everyday board work in a real Chromium against the real service: cards, filters in the address, saved views, themes, small screens. */
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

const newPage = () => openPage(browser, origin);
const PASSWORD = 'correct horse battery';

async function boardWithTasks() {
  const { owner, workspaceId } = await ownerWithWorkspace(t);
  const project = await createProject(t, owner.token, workspaceId, { name: 'Everyday' });
  const late = await createTask(t, owner.token, project.id, { title: 'Late report', priority: 'urgent', dueDate: '2020-01-02', userId: owner.user.id });
  const child = await createTask(t, owner.token, project.id, { title: 'Child step', status: 'done' });
  const calm = await createTask(t, owner.token, project.id, { title: 'Calm chore', priority: 'low' });
  expect((await t.api.post('/label', { name: 'bug', color: '#d73a4a', workspaceId, taskId: late.id }, owner.token)).status).toBe(200);
  expect((await t.api.post(`/comment/${late.id}`, { content: 'on it' }, owner.token)).status).toBe(200);
  expect((await t.api.post('/task-relation', { sourceTaskId: late.id, targetTaskId: child.id, relationType: 'subtask' }, owner.token)).status).toBe(200);
  return { owner, workspaceId, project, late, calm };
}

describe('everyday board work', () => {
  it('a card shows priority, due date (overdue marked), labels, subtask progress, comments and the assignee', async () => {
    const { owner, workspaceId, project } = await boardWithTasks();
    const { page, problems, close } = await newPage();
    try {
      await signIn(page, owner.user.email, PASSWORD);
      await page.waitForURL((u) => u.pathname.startsWith('/w/'));
      await page.goto(`/w/${workspaceId}/p/${project.id}`);
      const late = page.locator('li[data-task]').filter({ has: card(page, 'Late report') });
      await late.getByText('Urgent').waitFor();
      await late.getByText(/Overdue/).waitFor();
      await late.getByText('bug').waitFor();
      await late.getByLabel('1 of 1 subtasks done').waitFor();
      await late.getByLabel('1 comment').waitFor();
      await late.getByRole('img', { name: `Assigned to ${owner.user.name}` }).waitFor();
      const calm = page.locator('li[data-task]').filter({ has: card(page, 'Calm chore') });
      await calm.getByText('Low').waitFor();
      expect(await calm.getByText(/Overdue/).count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('filters live in the address: a reload keeps them, a saved view brings them back, Clear removes them', async () => {
    const { owner, workspaceId, project } = await boardWithTasks();
    const { page, problems, close } = await newPage();
    try {
      await signIn(page, owner.user.email, PASSWORD);
      await page.waitForURL((u) => u.pathname.startsWith('/w/'));
      await page.goto(`/w/${workspaceId}/p/${project.id}`);
      await card(page, 'Calm chore').waitFor();
      await page.getByLabel('Label filter').selectOption({ label: 'bug' });
      await page.getByText('1 of 3 tasks').waitFor();
      expect(new URL(page.url()).searchParams.get('label')).toBe('bug');
      expect(await card(page, 'Calm chore').count()).toBe(0);

      // A reload shows the same filtered board.
      await page.reload();
      await page.getByText('1 of 3 tasks').waitFor();
      await card(page, 'Late report').waitFor();
      expect(await page.getByLabel('Label filter').inputValue()).toBe('bug');

      // Saved as a view, then cleared, then brought back by the view.
      await page.getByRole('button', { name: 'Save view' }).click();
      await page.getByLabel('View name').fill('Bugs');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      const view = page.getByRole('navigation', { name: 'Saved views' }).getByRole('link', { name: 'Bugs' });
      await view.waitFor();
      await page.getByRole('button', { name: 'Clear filters' }).click();
      await page.getByText('3 of 3 tasks').waitFor();
      expect(new URL(page.url()).search).toBe('');
      await view.click();
      await page.getByText('1 of 3 tasks').waitFor();
      expect(new URL(page.url()).searchParams.get('label')).toBe('bug');

      // Opening a task keeps the filters; closing it too.
      await card(page, 'Late report').click();
      await page
        .getByRole('dialog')
        .getByRole('heading', { name: /Late report/ })
        .waitFor();
      expect(new URL(page.url()).searchParams.get('label')).toBe('bug');
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      expect(new URL(page.url()).searchParams.get('label')).toBe('bug');

      // The overdue filter and a sort, typed into the address.
      await page.goto(`/w/${workspaceId}/p/${project.id}?due=overdue`);
      await page.getByText('1 of 3 tasks').waitFor();
      await page.goto(`/w/${workspaceId}/p/${project.id}/list?sort=title`);
      await page.getByText('3 of 3 tasks').waitFor();
      expect(await page.locator('.task-table tbody tr').allInnerTexts()).toEqual([
        expect.stringContaining('Calm chore'),
        expect.stringContaining('Child step'),
        expect.stringContaining('Late report'),
      ]);
      // The view is deleted.
      await page.goto(`/w/${workspaceId}/p/${project.id}`);
      await page.getByRole('button', { name: 'Delete view Bugs' }).click();
      await view.waitFor({ state: 'detached' });
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('dark theme from the account menu, kept on reload; a skip link; one header line at 375 px; pages load as they are opened', async () => {
    const { owner, workspaceId, project } = await boardWithTasks();
    const { page, problems, close } = await newPage();
    try {
      const scripts: string[] = [];
      page.on('request', (r) => r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname));
      await page.goto('/sign-in');
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      // The sign-in page does not load the board's code.
      expect(scripts.some((s) => /BoardPage/.test(s))).toBe(false);
      await signIn(page, owner.user.email, PASSWORD);
      await page.waitForURL((u) => u.pathname.startsWith('/w/'));
      await page.goto(`/w/${workspaceId}/p/${project.id}`);
      await card(page, 'Late report').waitFor();
      expect(scripts.some((s) => /BoardPage/.test(s))).toBe(true);

      const background = () => page.evaluate('getComputedStyle(document.documentElement).backgroundColor') as Promise<string>;
      const light = await background();
      await page.getByRole('button', { name: /^Your account/ }).click();
      await page.getByRole('menuitemradio', { name: 'Dark' }).click();
      await page.waitForFunction("document.documentElement.dataset.theme === 'dark'");
      const dark = await background();
      expect(dark).not.toBe(light);
      expect(await axeViolations(page)).toEqual([]);
      await page.reload();
      await card(page, 'Late report').waitFor();
      expect(await background()).toBe(dark);

      // The skip link is the first stop of the keyboard and moves the focus into the page.
      await page.keyboard.press('Tab');
      const skip = page.getByRole('link', { name: 'Skip to content' });
      expect(await page.evaluate('document.activeElement?.textContent')).toBe('Skip to content');
      await skip.waitFor();
      await page.keyboard.press('Enter');
      await page.waitForFunction("document.activeElement?.id === 'main'");

      // At 375 px the header is one line and nothing is wider than the screen.
      await page.setViewportSize({ width: 375, height: 740 });
      await page.getByRole('button', { name: /^Your account/ }).waitFor();
      const header = (await page.locator('header.topbar').boundingBox())!;
      expect(header.height).toBeLessThan(60);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
      // The filters fold behind "Filters (n)" (n: how many are set); the button unfolds and folds them.
      const filters = page.getByRole('group', { name: 'Filters' });
      const toggle = page.getByRole('button', { name: 'Filters', exact: true });
      expect([await filters.isVisible(), await toggle.getAttribute('aria-expanded')]).toEqual([false, 'false']);
      await toggle.click();
      await filters.getByLabel('Priority filter').selectOption('high');
      await page.getByRole('button', { name: 'Filters (1)' }).waitFor();
      expect(await page.getByRole('button', { name: 'Filters (1)' }).getAttribute('aria-expanded')).toBe('true');
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Filters (1)' }).click();
      await filters.waitFor({ state: 'hidden' });
      // Wider, the filters always show and the button does not.
      await page.setViewportSize({ width: 1024, height: 740 });
      await filters.waitFor();
      expect(await toggle.or(page.getByRole('button', { name: 'Filters (1)' })).isVisible()).toBe(false);
      await page.setViewportSize({ width: 375, height: 740 });
      await page.getByRole('button', { name: /^Your account/ }).click();
      await page.getByRole('menuitemradio', { name: 'System theme' }).click();
      await page.waitForFunction('document.documentElement.dataset.theme === undefined');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
