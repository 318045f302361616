import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '../../support/app';
import { axeViolations, newPage as openPage, signIn, startWebApp, type WebApp } from '../../support/web-page';
import { createProject, createTask, ownerWithWorkspace, userWithRole } from '../../support/work-items';

/** Search (Ctrl-K, the Search button) and the notifications bell of the web app, in a real Chromium against the real service. */
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

const searchDialog = (page: Page) => page.getByRole('dialog', { name: 'Search' });
const searchBox = (page: Page) => searchDialog(page).getByRole('combobox');
/** The open task panel (a dialog named by the task's title). */
const taskPanel = (page: Page, title: string) => page.getByRole('dialog', { name: title });
const focusedName = (page: Page) => page.evaluate('document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.textContent');

describe('search from anywhere', () => {
  it('Ctrl-K finds a task by a word of its title or by its key, opens it with the keyboard, and Escape closes the dialog', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId, { name: 'Mill', slug: 'MILL' });
    const first = await createTask(t, owner.token, project.id, { title: 'Grease the barrel cams' });
    const second = await createTask(t, owner.token, project.id, { title: 'Calibrate the barrel store' });
    const other = await createTask(t, owner.token, project.id, { title: 'Print the result table' });
    const { page, problems, close } = await newPage();
    try {
      page.setDefaultTimeout(10_000); // a step that hangs fails with its locator, before the test times out
      await signIn(page, owner.user.email, PASSWORD);
      await page.waitForURL((u) => u.pathname === `/w/${workspaceId}`);
      await page.getByRole('link', { name: /Mill/ }).waitFor();

      // A word of a title: the task result, Enter opens it on its board.
      await page.keyboard.press('Control+K');
      await searchDialog(page).waitFor();
      expect(await focusedName(page)).toBe('Search tasks, comments and projects');
      await page.keyboard.type('grease');
      await searchDialog(page)
        .getByRole('option', { name: /Grease the barrel cams/ })
        .waitFor();
      expect(await searchDialog(page).getByRole('group', { name: 'Tasks' }).getByRole('option').count()).toBe(1);
      expect(await searchDialog(page).getByRole('option', { name: 'MILL-1 Grease the barrel cams' }).count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press('Enter');
      await taskPanel(page, first.title).waitFor();
      expect(new URL(page.url()).pathname).toBe(`/w/${workspaceId}/p/${project.id}/t/${first.id}`);
      expect(await searchDialog(page).count()).toBe(0);

      // Two results: the arrow moves to the second one, and Enter opens that one.
      await page.keyboard.press('Control+K');
      await searchBox(page).fill('barrel');
      const options = searchDialog(page).getByRole('option');
      await options.nth(1).waitFor();
      expect(await options.count()).toBe(2);
      const secondTitle = ((await options.nth(1).textContent()) ?? '').replace(/^MILL-\d+ /, '');
      expect([first.title, second.title]).toContain(secondTitle);
      expect(await options.nth(0).getAttribute('aria-selected')).toBe('true');
      await page.keyboard.press('ArrowDown');
      expect(await options.nth(1).getAttribute('aria-selected')).toBe('true');
      await page.keyboard.press('Enter');
      await taskPanel(page, secondTitle).waitFor();

      // A task key opens that task (the API answers it first).
      await page.keyboard.press('Control+K');
      await searchBox(page).fill(`MILL-${other.number}`);
      await searchDialog(page)
        .getByRole('option', { name: /Print the result table/ })
        .waitFor();
      await page.keyboard.press('Enter');
      await taskPanel(page, other.title).waitFor();
      expect(new URL(page.url()).pathname).toBe(`/w/${workspaceId}/p/${project.id}/t/${other.id}`);

      // The Search button opens the same dialog; Escape closes it (not the task panel) and gives the focus back.
      await page.getByRole('button', { name: 'Search' }).click();
      await searchBox(page).fill('nothing like this');
      await searchDialog(page).getByText('Nothing found for “nothing like this”.').waitFor();
      await page.keyboard.press('Escape');
      await searchDialog(page).waitFor({ state: 'detached' });
      expect(await focusedName(page)).toMatch(/^Search/);
      expect(await taskPanel(page, other.title).count()).toBe(1);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe('the notifications bell', () => {
  it('counts a new notification live, lists it, marks all read, and opens its task', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    // Assigning needs task:assign, which a plain member lacks (docs/decisions-local.md): an admin assigns.
    const ada = await userWithRole(t, workspaceId, 'admin');
    const project = await createProject(t, owner.token, workspaceId, { name: 'Engines' });
    const task = await createTask(t, owner.token, project.id, { title: 'Mount the printer' });
    const { page, problems, close } = await newPage();
    try {
      await signIn(page, owner.user.email, PASSWORD);
      await page.waitForURL((u) => u.pathname.startsWith('/w/'));
      await page.goto(`/w/${workspaceId}/p/${project.id}`);
      // The stream is open (the bell follows the same one), and nothing is unread yet.
      await page.getByText('Live', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Notifications, none unread' }).click();
      await page.getByText('No notifications yet.').waitFor();
      await page.keyboard.press('Escape');
      await page.getByText('No notifications yet.').waitFor({ state: 'detached' });

      expect((await t.api.put(`/task/assignee/${task.id}`, { userId: owner.user.id }, ada.token)).status).toBe(200);
      const bell = page.getByRole('button', { name: 'Notifications, 1 unread' });
      await bell.waitFor({ timeout: 5_000 });

      await bell.click();
      const panel = page.getByRole('region', { name: 'Notifications' });
      const item = panel.getByRole('listitem');
      await item.getByText(/Mount the printer/).waitFor();
      expect(await item.count()).toBe(1);
      expect(await item.getByRole('button', { name: /^Unread: / }).count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);

      await panel.getByRole('button', { name: 'Mark all read' }).click();
      await page.getByRole('button', { name: 'Notifications, none unread' }).waitFor();
      await item.getByRole('button', { name: /^Read: / }).waitFor();
      expect((await t.api.get<{ count: number }>('/notification/unread-count', owner.token)).body).toEqual({ count: 0 });

      // Opening it goes to its task on the board.
      await item.getByRole('button', { name: /^Read: / }).click();
      await taskPanel(page, task.title).waitFor();
      expect(new URL(page.url()).pathname).toBe(`/w/${workspaceId}/p/${project.id}/t/${task.id}`);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe('at 375 px', () => {
  it('the Search button, the bell, their panels and an open task all fit the screen', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId, { name: 'Narrow' });
    const task = await createTask(t, owner.token, project.id, { title: 'Fits on a phone' });
    const { page, problems, close } = await newPage();
    try {
      page.setDefaultTimeout(10_000);
      await page.setViewportSize({ width: 375, height: 740 });
      await signIn(page, owner.user.email, PASSWORD);
      await page.waitForURL((u) => u.pathname.startsWith('/w/'));
      await page.goto(`/w/${workspaceId}/p/${project.id}/t/${task.id}`);
      await taskPanel(page, task.title).waitFor();
      const inside = async (what: string, box: { x: number; y: number; width: number; height: number } | null) => {
        expect([what, box && box.x >= 0 && box.x + box.width <= 375 && box.y >= 0]).toEqual([what, true]);
      };
      // Over the open task, both stay in reach.
      await inside('search button', await page.getByRole('button', { name: 'Search' }).boundingBox());
      await page.getByRole('button', { name: /^Notifications/ }).click();
      await inside('bell panel', await page.getByRole('region', { name: 'Notifications' }).boundingBox());
      await page.getByText('No notifications yet.').waitFor();
      await page.getByRole('button', { name: 'Search' }).click();
      await searchBox(page).fill('phone');
      await searchDialog(page)
        .getByRole('option', { name: /Fits on a phone/ })
        .waitFor();
      await inside('search dialog', await searchDialog(page).boundingBox());
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
