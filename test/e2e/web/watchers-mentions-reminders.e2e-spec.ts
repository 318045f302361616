import type { Browser } from 'playwright-core';
import type { TestApp } from '../../support/app';
import { addMember } from '../../support/fixtures';
import { until } from '../../support/until';
import { axeViolations, newPage as openPage, signIn, startWebApp, type WebApp } from '../../support/web-page';
import { createProject, createTask, ownerWithWorkspace } from '../../support/work-items';

/**
 * Watchers, mentions and due-date reminders in the app (docs/web.md), in a real Chromium against
 * the real service: `@` offers members and inserts a mention that renders as the name and notifies
 * them; Watch / Watching with the list of who watches and why; the Due dates preferences.
 */
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

async function team() {
  const { owner, workspaceId } = await ownerWithWorkspace(t);
  const bob = await t.api.signUp({ name: 'Bob Builder' });
  await addMember(t.databaseUrl, workspaceId, bob.user.id, 'member');
  const carol = await t.api.signUp({ name: 'Carol Danvers' });
  await addMember(t.databaseUrl, workspaceId, carol.user.id, 'member');
  const project = await createProject(t, owner.token, workspaceId, { name: 'Apollo' });
  const task = await createTask(t, owner.token, project.id, { title: 'Launch the rocket' });
  return { owner, bob, carol, workspaceId, project, task };
}

describe('people in a task', () => {
  it('@ in a comment offers the members by name; the one taken is mentioned, shown as @Name and notified', async () => {
    const { owner, bob, workspaceId, project, task } = await team();
    const { page, problems, close } = await newPage();
    try {
      await signIn(page, owner.user.email, 'correct horse battery');
      await page.waitForURL((u) => u.pathname.startsWith('/w/'));
      await page.goto(`/w/${workspaceId}/p/${project.id}/t/${task.id}`);
      const panel = page.getByRole('dialog', { name: /Launch the rocket/ });
      const section = panel.getByRole('region', { name: 'Comments' });
      const box = section.getByLabel('Add a comment');
      await box.click();
      await box.pressSequentially('Over to @bo');
      const list = page.getByRole('listbox', { name: 'Members to mention' });
      await list.waitFor();
      expect(await list.getByRole('option').allInnerTexts()).toEqual([expect.stringContaining('Bob Builder')]);
      expect(await box.getAttribute('aria-controls')).toBe(await list.getAttribute('id'));
      expect(await box.getAttribute('aria-activedescendant')).toBe(await list.getByRole('option').first().getAttribute('id'));
      expect(await axeViolations(page)).toEqual([]);
      await box.press('Enter');
      await until('the list closed', async () => (await list.count()) === 0);
      expect(await box.inputValue()).toBe(`Over to <mention id="${bob.user.id}">Bob Builder</mention> `);
      await box.pressSequentially('please');
      await section.getByRole('button', { name: 'Comment' }).click();
      const shown = section.getByRole('listitem').locator('.mention');
      await shown.waitFor();
      expect(await shown.innerText()).toBe('@Bob Builder');
      expect(await section.getByText('<mention').count()).toBe(0);
      // Bob is told, once, as a mention.
      const notes = await until('bob mentioned', async () => {
        const res = await t.api.get('/notification', bob.token);
        return res.body.length > 0 && res.body;
      });
      expect(notes.map((n: any) => [n.type, n.title])).toEqual([['task_mention', 'Test User mentioned you in a comment']]);
      // Escape closes the list without leaving the edit; the text typed stays.
      await box.pressSequentially('@car');
      await list.waitFor();
      await box.press('Escape');
      await until('the list closed', async () => (await list.count()) === 0);
      expect(await box.inputValue()).toBe('@car');
      expect(await panel.isVisible()).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('Watch and Watching: the caller watches and stops; the list says who watches and why', async () => {
    const { owner, carol, workspaceId, project, task } = await team();
    const { page, problems, close } = await newPage();
    try {
      await signIn(page, carol.user.email, 'correct horse battery');
      await page.waitForURL((u) => u.pathname.startsWith('/w/'));
      await page.goto(`/w/${workspaceId}/p/${project.id}/t/${task.id}`);
      const panel = page.getByRole('dialog', { name: /Launch the rocket/ });
      const toggle = panel.getByRole('button', { name: 'Watch', exact: true });
      await toggle.waitFor();
      expect(await toggle.getAttribute('aria-pressed')).toBe('false');
      await panel.getByRole('button', { name: '1 watcher' }).waitFor();
      await toggle.click();
      const watching = panel.getByRole('button', { name: 'Watching', exact: true });
      await until('watching', async () => (await watching.getAttribute('aria-pressed')) === 'true');
      const api = await until('carol among the watchers', async () => {
        const res = await t.api.get(`/task/${task.id}/watchers`, carol.token);
        return res.body.watching && res.body;
      });
      expect(api.watchers.map((w: any) => [w.name, w.reasons])).toEqual([
        ['Carol Danvers', ['watching']],
        ['Test User', ['creator']],
      ]);
      await panel.getByRole('button', { name: '2 watchers' }).click();
      const dialog = page.getByRole('dialog', { name: 'Who watches this task' });
      await dialog.waitFor();
      expect(await dialog.getByRole('listitem').allInnerTexts()).toEqual([
        expect.stringContaining('Carol Danvers · chose to watch'),
        expect.stringContaining('Test User · created it'),
      ]);
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await watching.click();
      await until('not watching', async () => !(await t.api.get(`/task/${task.id}/watchers`, carol.token)).body.watching);
      expect(await panel.getByRole('button', { name: 'Watch', exact: true }).getAttribute('aria-pressed')).toBe('false');
      expect(owner.user.id).toBeTruthy();
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('the Due dates preferences turn reminders off and on and choose how long before', async () => {
    const { owner } = await ownerWithWorkspace(t);
    const { page, problems, close } = await newPage();
    try {
      await signIn(page, owner.user.email, 'correct horse battery');
      await page.waitForURL((u) => u.pathname.startsWith('/w/'));
      await page.goto('/settings/notifications');
      const section = page.getByRole('region', { name: 'Due dates' });
      const remind = section.getByLabel('Remind me of due dates and overdue tasks');
      await remind.waitFor();
      expect(await remind.isChecked()).toBe(true);
      const lead = section.getByLabel('Remind me', { exact: true });
      expect(await lead.inputValue()).toBe('1440');
      expect(await lead.locator('option:checked').innerText()).toBe('1 day before');
      await lead.selectOption({ label: '3 hours before' });
      await section.getByRole('button', { name: 'Save reminders' }).click();
      await section.getByRole('status').waitFor();
      expect((await t.api.get('/notification-preferences', owner.token)).body).toMatchObject({ dueDateReminderEnabled: true, dueDateReminderLeadTimeMinutes: 180 });
      await remind.uncheck();
      expect(await lead.isDisabled()).toBe(true);
      await section.getByRole('button', { name: 'Save reminders' }).click();
      await until('reminders off', async () => (await t.api.get('/notification-preferences', owner.token)).body.dueDateReminderEnabled === false);
      expect(await axeViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
