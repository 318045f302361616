import type { Browser } from 'playwright-core';
import type { TestApp } from '../../support/app';
import { until } from '../../support/until';
import { axeViolations, newPage as openPage, signIn, startWebApp, type WebApp } from '../../support/web-page';
import { createProject, createTask, ownerWithWorkspace } from '../../support/work-items';

/** A task's time entries logged by hand, edited and deleted, and its history in words (docs/web.md, "Task"). */
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
/** `YYYY-MM-DD` of a local date (the browser runs on this machine, in its time zone). */
const localDay = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

describe('time and activity of a task', () => {
  it('logs "1h 30m" yesterday, edits and deletes it; the activity says each change in words', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId, { name: 'Timekeeping' });
    const task = await createTask(t, owner.token, project.id, { title: 'Wind the clock' });
    expect((await t.api.post('/label', { name: 'Bug', color: '#cc0000', workspaceId }, owner.token)).status).toBe(200);
    const entries = async () => (await t.api.get(`/time-entry/task/${task.id}`, owner.token)).body as { id: string; duration: number; startTime: string; endTime: string | null }[];
    const { page, problems, close } = await newPage();
    try {
      await signIn(page, owner.user.email, 'correct horse battery');
      await page.waitForURL((u) => u.pathname.startsWith('/w/'));
      await page.goto(`/w/${workspaceId}/p/${project.id}/t/${task.id}`);
      const panel = page.getByRole('dialog');
      await panel.getByRole('heading', { name: /Wind the clock/ }).waitFor();

      // A start date, a label and a comment, for the history.
      await panel.getByLabel('Start date').fill('2026-12-03');
      await until('the start date saved', async () => (await t.api.get(`/task/${task.id}`, owner.token)).body.startDate?.startsWith('2026-12-03'));
      await panel.getByRole('checkbox', { name: 'Bug' }).check();
      await until('the label on the task', async () => (await t.api.get(`/label/task/${task.id}`, owner.token)).body.some((l: { name: string }) => l.name === 'Bug'));
      await panel.getByLabel('Add a comment').fill('Tick tock.');
      await panel.getByRole('button', { name: 'Comment' }).click();
      await panel.getByText('Tick tock.').waitFor();

      // An invalid duration is refused in place, nothing is sent.
      const logForm = panel.getByRole('form', { name: 'Log time' });
      await logForm.getByLabel('Duration').fill('soon');
      await logForm.getByRole('button', { name: 'Log time' }).click();
      await logForm.getByText(/Write a duration like/).waitFor();
      expect(await logForm.getByLabel('Duration').getAttribute('aria-invalid')).toBe('true');
      expect(await entries()).toEqual([]);

      // "1h 30m" yesterday: a 90-minute entry that starts yesterday.
      await logForm.getByLabel('Duration').fill('1h 30m');
      await logForm.getByLabel('Day').selectOption({ label: 'Yesterday' });
      const yesterday = new Date();
      yesterday.setDate(yesterday.getDate() - 1);
      expect(await logForm.getByLabel('Date').inputValue()).toBe(localDay(yesterday));
      await logForm.getByRole('button', { name: 'Log time' }).click();
      await until('the entry logged', async () => (await entries()).length === 1);
      const [logged] = await entries();
      expect(logged.duration).toBe(5400);
      expect(localDay(new Date(logged.startTime))).toBe(localDay(yesterday));
      expect(Date.parse(logged.endTime!) - Date.parse(logged.startTime)).toBe(5400 * 1000);

      const list = panel.getByRole('list', { name: 'Time entries' });
      const item = list.getByRole('listitem').filter({ hasText: '1h 30m' });
      await item.waitFor();
      expect(await item.innerText()).toMatch(/^You .+ — 1h 30m/);
      await panel.getByText('Logged: 1h 30m').waitFor();

      // Edit it to 45 (minutes), keeping its day.
      await item.getByRole('button', { name: 'Edit' }).click();
      const editForm = panel.getByRole('form', { name: 'Edit time entry' });
      expect(await editForm.getByLabel('Duration').inputValue()).toBe('1h 30m');
      expect(await editForm.getByLabel('Date').inputValue()).toBe(localDay(yesterday));
      expect(await axeViolations(page)).toEqual([]);
      await editForm.getByLabel('Duration').fill('45');
      await editForm.getByRole('button', { name: 'Save' }).click();
      await until('the entry edited', async () => (await entries())[0]?.duration === 2700);
      expect(localDay(new Date((await entries())[0]!.startTime))).toBe(localDay(yesterday));
      await list.getByRole('listitem').filter({ hasText: '45m' }).waitFor();

      // The history, newest first, in words.
      const activity = panel.getByRole('region', { name: 'Activity' }).getByRole('listitem');
      await until('the history of the changes', async () => (await activity.count()) === 6);
      expect(await activity.allInnerTexts()).toEqual([
        expect.stringMatching(/^Test User changed logged time from 1h 30m to 45m /),
        expect.stringMatching(/^Test User logged 1h 30m /),
        expect.stringMatching(/^Test User commented /),
        expect.stringMatching(/^Test User added label Bug /),
        expect.stringMatching(/^Test User set the start date to Dec 3, 2026 /),
        expect.stringMatching(/^Test User created the task /),
      ]);
      expect((await activity.allInnerTexts()).join('\n')).not.toMatch(/[{}]/);

      // Delete it, after confirming.
      await list.getByRole('listitem').filter({ hasText: '45m' }).getByRole('button', { name: 'Delete' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Delete this time entry?' });
      await confirm.waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await until('the entry deleted', async () => (await entries()).length === 0);
      await list.getByRole('listitem').first().waitFor({ state: 'detached' });
      await activity.filter({ hasText: /deleted 45m of logged time/ }).waitFor();
      await panel.getByText('Logged: 0m').waitFor();

      expect(await axeViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
