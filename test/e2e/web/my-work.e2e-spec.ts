import type { Page } from 'playwright-core';
import { dateFromToday } from '../../support/days';
import { until } from '../../support/until';
import { axeViolations, signIn, useWebApp } from '../../support/web-page';
import { createProject, createTask, ownerWithWorkspace, userWithRole } from '../../support/work-items';

/** My work (docs/web.md, "My work") in a real Chromium against the real service: the caller's tasks across projects, by due date. */
const web = useWebApp();
const PASSWORD = 'correct horse battery';

const due = dateFromToday;
/** The titles a group of the page lists, top to bottom. */
const titlesIn = (page: Page, group: string) => page.getByRole('list', { name: group, exact: true }).locator('.card-title').allInnerTexts();

describe('my work', () => {
  it('the tasks assigned to me across projects, grouped by due date; the bell links to it; a status change in place; live; opens a task on its board', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(web.t);
    const bob = await userWithRole(web.t, workspaceId, 'member');
    const site = await createProject(web.t, owner.token, workspaceId, { name: 'Website', slug: 'WEB' });
    const ops = await createProject(web.t, owner.token, workspaceId, { name: 'Operations', slug: 'OPS' });
    const me = owner.user.id;
    await createTask(web.t, owner.token, site.id, { title: 'Fix the footer', userId: me, dueDate: due(-2), priority: 'high' });
    const today = await createTask(web.t, owner.token, ops.id, { title: 'Rotate the keys', userId: me, dueDate: due(0) });
    await createTask(web.t, owner.token, site.id, { title: 'Plan the launch', userId: me, dueDate: due(40) });
    await createTask(web.t, owner.token, ops.id, { title: 'Read the logs', userId: me });
    await createTask(web.t, owner.token, site.id, { title: 'Shipped already', userId: me, dueDate: due(-1), status: 'done' });
    await createTask(web.t, owner.token, site.id, { title: 'Bob owns this', userId: bob.user.id, dueDate: due(0) });
    const { page, problems, close } = await web.newPage();
    try {
      await signIn(page, owner.user.email, PASSWORD);
      await page.waitForURL((u) => u.pathname.startsWith('/w/'));
      await page.goto(`/w/${workspaceId}`);
      // From the bell: one step to it.
      await page.getByRole('button', { name: /^Notifications/ }).click();
      await page.getByRole('link', { name: 'My work: your tasks by due date' }).click();
      await page.waitForURL((u) => u.pathname === `/w/${workspaceId}/my-work`);
      await page.getByRole('heading', { level: 1, name: 'My work' }).waitFor();

      await page.getByRole('list', { name: 'Overdue', exact: true }).waitFor();
      expect(await titlesIn(page, 'Overdue')).toEqual(['Fix the footer']);
      expect(await titlesIn(page, 'Today')).toEqual(['Rotate the keys']);
      expect(await titlesIn(page, 'Later')).toEqual(['Plan the launch']);
      expect(await titlesIn(page, 'No due date')).toEqual(['Read the logs']);
      // Nobody else's, and not the done one (until asked for); each row names its project and key.
      expect(await page.getByText('Bob owns this').count()).toBe(0);
      expect(await page.getByText('Shipped already').count()).toBe(0);
      const overdueRow = page.getByRole('list', { name: 'Overdue', exact: true }).getByRole('listitem');
      expect(await overdueRow.innerText()).toMatch(/WEB-1\s+Fix the footer[\s\S]*Website[\s\S]*High[\s\S]*Overdue/);
      expect(await axeViolations(page)).toEqual([]);

      // A status change in place: done, so it leaves the page; Show done tasks brings it back.
      await page.getByRole('combobox', { name: `Status of OPS-${today.number}` }).selectOption('done');
      await page.getByRole('list', { name: 'Today', exact: true }).waitFor({ state: 'detached' });
      await until('the status saved', async () => (await web.t.api.get(`/task/${today.id}`, owner.token)).body.status === 'done');
      await page.getByRole('checkbox', { name: 'Show done tasks' }).check();
      expect(await titlesIn(page, 'Today')).toEqual(['Rotate the keys']);
      expect(await titlesIn(page, 'Overdue')).toEqual(['Fix the footer', 'Shipped already']);

      // Live: a task assigned to me elsewhere (the command line) shows without a reload, in its group.
      await createTask(web.t, owner.token, ops.id, { title: 'Renew the certificate', userId: me, dueDate: due(-5) });
      await until('the new task on the page', async () => (await titlesIn(page, 'Overdue')).includes('Renew the certificate'));
      expect(await titlesIn(page, 'Overdue')).toEqual(['Renew the certificate', 'Fix the footer', 'Shipped already']);

      // A task opens on its board.
      await page.getByRole('link', { name: /Plan the launch/ }).click();
      await page.waitForURL((u) => u.pathname.startsWith(`/w/${workspaceId}/p/${site.id}/t/`));
      await page
        .getByRole('dialog')
        .getByRole('heading', { name: /Plan the launch/ })
        .waitFor();

      // At 375 px nothing is wider than the screen.
      await page.goto(`/w/${workspaceId}/my-work`);
      await page.setViewportSize({ width: 375, height: 740 });
      await page.getByRole('list', { name: 'Overdue', exact: true }).waitFor();
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('the workspace page links to it; with nothing assigned it says so', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(web.t);
    const { page, problems, close } = await web.newPage();
    try {
      await signIn(page, owner.user.email, PASSWORD);
      await page.waitForURL((u) => u.pathname.startsWith('/w/'));
      await page.goto(`/w/${workspaceId}`);
      await page.getByRole('main').getByRole('link', { name: 'My work' }).click();
      await page.getByText('Nothing is assigned to you here.').waitFor();
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
