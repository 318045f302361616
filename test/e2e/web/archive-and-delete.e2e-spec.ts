import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '../../support/app';
import { until } from '../../support/until';
import { axeViolations, card, newPage as openPage, signIn, startWebApp, type WebApp } from '../../support/web-page';
import { createProject, createTask, ownerWithWorkspace, userWithRole } from '../../support/work-items';

/** Archiving (with Undo), deleting (asked first) and restoring a task from the app, in a real Chromium against the real service. */
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
const toasts = (page: Page) => page.getByRole('region', { name: 'Notifications from the app' });
/** What has the focus: its text (a card: its title without the key), marked when it is in a toast. */
let focusedPage: Page;
const focused = () =>
  focusedPage.evaluate(
    '(document.activeElement?.closest(".toasts") ? "toasts: " : "") + (document.activeElement?.matches("[data-task-open]") && !document.activeElement.closest(".panel") ? document.activeElement.querySelector(".card-title")?.textContent ?? document.activeElement.textContent : document.activeElement?.textContent ?? "")',
  ) as Promise<string>;

async function openTask(page: Page, workspaceId: string, projectId: string, title: string): Promise<void> {
  await page.goto(`/w/${workspaceId}/p/${projectId}`);
  await card(page, title).click();
  await page.getByRole('heading', { level: 2, name: title }).waitFor();
}

describe('archive and delete a task', () => {
  it('archive from the panel: gone from the board, Undo brings it back; archive again and restore it from the settings page', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId, { slug: 'ARC' });
    const task = await createTask(t, owner.token, project.id, { title: 'Wind the clock', status: 'in-progress' });
    await createTask(t, owner.token, project.id, { title: 'Oil the gears' });
    const statusInApi = async () => ((await t.api.get(`/task/${task.id}`, owner.token)).body as { status: string }).status;
    const { page, problems, close } = await newPage();
    focusedPage = page;
    try {
      await signIn(page, owner.user.email, 'correct horse battery');
      await page.waitForURL((u) => u.pathname.startsWith('/w/'));
      await openTask(page, workspaceId, project.id, 'Wind the clock');
      // Escape closes the panel and gives the focus back to the card it was opened from; Enter opens it again.
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Close task' }).waitFor({ state: 'detached' });
      expect(await focused()).toBe('Wind the clock');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 2, name: 'Wind the clock' }).waitFor();

      // The menu, by keyboard as much as by mouse: both actions for the owner.
      await page.getByRole('button', { name: `Actions for ARC-${task.number}` }).click();
      const menu = page.getByRole('menu');
      expect(await menu.getByRole('menuitem').allInnerTexts()).toEqual(['Archive task', 'Delete task']);
      expect(await axeViolations(page)).toEqual([]);
      await menu.getByRole('menuitem', { name: 'Archive task' }).click();

      // The panel closes, the card leaves the board, the API says archived, a toast offers Undo.
      await page.getByRole('button', { name: 'Close task' }).waitFor({ state: 'detached' });
      await toasts(page).getByText(`Archived ARC-${task.number}`).waitFor();
      await card(page, 'Wind the clock').waitFor({ state: 'detached' });
      expect(await statusInApi()).toBe('archived');
      expect(await axeViolations(page)).toEqual([]);
      // Its card is gone: the focus is on the task shown before it (none comes after it).
      await until('the focus on the card before it', async () => (await focused()) === 'Oil the gears');
      // F6 goes to the toast's Undo, and F6 again back to the card.
      await page.keyboard.press('F6');
      expect(await focused()).toBe('toasts: Undo');
      await page.keyboard.press('F6');
      expect(await focused()).toBe('Oil the gears');
      await page.keyboard.press('F6');
      expect(await focused()).toBe('toasts: Undo');

      // Undo (Enter on it): back in the column it was in, and its card has the focus.
      await page.keyboard.press('Enter');
      await card(page, 'Wind the clock').waitFor();
      await until('the focus on the restored card', async () => (await focused()) === 'Wind the clock');
      await until('the task back in In Progress', async () => (await statusInApi()) === 'in-progress');
      expect(
        await page
          .locator('[data-column="in-progress"]')
          .getByRole('button', { name: `ARC-${task.number} Wind the clock` })
          .count(),
      ).toBe(1);
      await toasts(page).getByText(`Restored ARC-${task.number}`).waitFor();

      // Archive again, then restore it from the project's settings page.
      await card(page, 'Wind the clock').click();
      await page.getByRole('button', { name: `Actions for ARC-${task.number}` }).click();
      await page.getByRole('menuitem', { name: 'Archive task' }).click();
      await card(page, 'Wind the clock').waitFor({ state: 'detached' });
      await until('archived again', async () => (await statusInApi()) === 'archived');
      // Nor is it in the list view.
      await page.getByRole('link', { name: 'List' }).click();
      await page.getByRole('table').getByText('Oil the gears').waitFor();
      await page.getByText('1 of 1 tasks').waitFor();
      expect(await page.getByRole('table').getByText('Wind the clock').count()).toBe(0);
      await page.getByRole('link', { name: 'Settings' }).click();
      const archived = page.getByRole('list', { name: 'Archived tasks' });
      await archived.getByText('Wind the clock').waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await archived.getByRole('button', { name: `Restore ARC-${task.number}` }).click();
      await page.getByText('No archived tasks.').waitFor();
      await until('restored to the first column', async () => (await statusInApi()) === 'to-do');
      await page.getByRole('link', { name: /Back to the board/ }).click();
      await page
        .locator('[data-column="to-do"]')
        .getByRole('button', { name: `ARC-${task.number} Wind the clock` })
        .waitFor();
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 90_000);

  it('delete asks first: Cancel keeps the task, Delete task removes it (the API answers 404)', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId, { slug: 'DEL' });
    const task = await createTask(t, owner.token, project.id, { title: 'Shred the drafts' });
    await createTask(t, owner.token, project.id, { title: 'Keep the ledger' });
    const { page, problems, close } = await newPage();
    focusedPage = page;
    try {
      await signIn(page, owner.user.email, 'correct horse battery');
      await page.waitForURL((u) => u.pathname.startsWith('/w/'));
      await openTask(page, workspaceId, project.id, 'Shred the drafts');

      const actions = page.getByRole('button', { name: `Actions for DEL-${task.number}` });
      await actions.click();
      await page.getByRole('menuitem', { name: 'Delete task' }).click();
      const dialog = page.getByRole('alertdialog', { name: `Delete DEL-${task.number}?` });
      await dialog.waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect((await t.api.get(`/task/${task.id}`, owner.token)).status).toBe(200);

      await actions.click();
      await page.getByRole('menuitem', { name: 'Delete task' }).click();
      await dialog.getByRole('button', { name: 'Delete task' }).click();
      await toasts(page).getByText(`Deleted DEL-${task.number}`).waitFor();
      await page.getByRole('button', { name: 'Close task' }).waitFor({ state: 'detached' });
      await card(page, 'Shred the drafts').waitFor({ state: 'detached' });
      expect((await t.api.get(`/task/${task.id}`, owner.token)).status).toBe(404);
      // The focus is on the task that came after it.
      await until('the focus on the next card', async () => (await focused()) === 'Keep the ledger');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  it('a member (task:update, no task:delete) is offered Archive only, not Delete', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId, { slug: 'MEM' });
    const task = await createTask(t, owner.token, project.id, { title: 'Count the spoons' });
    const member = await userWithRole(t, workspaceId, 'member');
    const m = await newPage();
    try {
      await signIn(m.page, member.user.email, 'correct horse battery');
      await m.page.waitForURL((u) => u.pathname.startsWith('/w/'));
      await openTask(m.page, workspaceId, project.id, 'Count the spoons');
      await m.page.getByRole('button', { name: `Actions for MEM-${task.number}` }).click();
      const menu = m.page.getByRole('menu');
      await menu.getByRole('menuitem', { name: 'Archive task' }).waitFor();
      expect(await menu.getByRole('menuitem').allInnerTexts()).toEqual(['Archive task']);
      expect(m.problems).toEqual([]);
    } finally {
      await m.close();
    }
  }, 60_000);
});
