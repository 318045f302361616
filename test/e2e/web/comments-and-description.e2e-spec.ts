import type { Browser, Locator } from 'playwright-core';
import type { TestApp } from '../../support/app';
import { until } from '../../support/until';
import { axeViolations, newPage as openPage, signIn, startWebApp, type WebApp } from '../../support/web-page';
import { createProject, createTask, ownerWithWorkspace } from '../../support/work-items';

/** A task's comments (author, Markdown, inline edit, delete in a dialog) and its description editor, in a real Chromium. */
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
const hasFocus = (l: Locator) => l.evaluate((el) => el === el.ownerDocument.activeElement);

describe('comments and the description of a task', () => {
  it('a comment in Markdown with its author, edited in place and deleted through the dialog; the description ticked, formatted and previewed, safely', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId, { name: 'Notes' });
    const task = await createTask(t, owner.token, project.id, { title: 'Write it down' });
    expect((await t.api.put(`/task/${task.id}`, { description: '- [ ] first step\n- [ ] second step' }, owner.token)).status).toBe(200);
    const comments = async () => (await t.api.get(`/comment/${task.id}`, owner.token)).body as { id: string; content: string; userId: string }[];
    const description = async () => (await t.api.get(`/task/${task.id}`, owner.token)).body.description as string;

    const { page, problems, close } = await newPage();
    try {
      await signIn(page, owner.user.email, 'correct horse battery');
      await page.waitForURL((u) => u.pathname.startsWith('/w/'));
      await page.goto(`/w/${workspaceId}/p/${project.id}/t/${task.id}`);
      const panel = page.getByRole('dialog', { name: /Write it down/ });
      await panel.getByRole('heading', { name: /Write it down/ }).waitFor();
      const section = panel.getByRole('region', { name: 'Comments' });

      // A comment with bold text, a table and a script tag: Markdown rendered, the tag shown as text and never run.
      await section.getByLabel('Add a comment').fill('This is **bold**.\n\n| Part | Count |\n| --- | --- |\n| Gear | 12 |\n\n<script>window.pwned = 1</script>');
      await section.getByRole('button', { name: 'Comment' }).click();
      const item = section.getByRole('listitem');
      await item.getByRole('table').waitFor();
      expect(await item.getByRole('cell', { name: '12' }).count()).toBe(1);
      expect(await item.getByRole('columnheader', { name: 'Part' }).count()).toBe(1);
      expect(await item.locator('strong').innerText()).toBe('bold');
      expect(await item.getByText('Test User').count()).toBe(1);
      expect(await item.locator('[data-initials="TU"]').count()).toBe(1); // the avatar's initials (drawn by CSS)
      expect(await item.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);
      await item.getByText('<script>window.pwned = 1</script>').waitFor();
      expect(await panel.locator('script').count()).toBe(0);
      expect(await page.evaluate('window.pwned')).toBeUndefined();
      const [saved] = await comments();
      expect(saved).toEqual(expect.objectContaining({ userId: owner.user.id, content: expect.stringContaining('<script>') }));
      expect(await axeViolations(page)).toEqual([]);

      // Edit in place: Escape cancels and gives the focus back to the Edit button; Save saves.
      const editButton = item.getByRole('button', { name: 'Edit comment' });
      await editButton.click();
      const box = item.getByLabel('Edit your comment (Markdown)');
      expect(await box.inputValue()).toContain('This is **bold**.');
      await box.fill('Not this');
      await box.press('Escape');
      await editButton.waitFor();
      expect(await hasFocus(editButton)).toBe(true);
      expect(await panel.isVisible()).toBe(true); // Escape closed the editor, not the panel
      expect((await comments())[0]!.content).toBe(saved!.content);
      await editButton.click();
      await item.getByLabel('Edit your comment (Markdown)').fill('Changed to _this_');
      await item.getByRole('button', { name: 'Save comment' }).click();
      await item.locator('em', { hasText: 'this' }).waitFor();
      await until('the API to have the edit', async () => (await comments())[0]?.content === 'Changed to _this_');
      expect(await hasFocus(editButton)).toBe(true);

      // Delete through the confirmation dialog: Cancel keeps it, Delete removes it.
      await item.getByRole('button', { name: 'Delete comment' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Delete this comment?' });
      await confirm.waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await confirm.waitFor({ state: 'detached' });
      expect(await comments()).toHaveLength(1);
      await item.getByRole('button', { name: 'Delete comment' }).click();
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await section.getByText('No comments yet.').waitFor();
      await until('the API to have no comment', async () => (await comments()).length === 0);

      // The description's task list: ticking a box saves `- [x]` through the task's update route.
      const desc = panel.getByRole('region', { name: /Description/ });
      const first = desc.getByRole('checkbox', { name: 'first step' });
      expect(await first.isChecked()).toBe(false);
      // A click, not check(): the box is drawn from the saved Markdown, so it turns only once the save is answered (waited for below).
      await first.click();
      await until('the API to have the box ticked', async () => (await description()) === '- [x] first step\n- [ ] second step');
      await until('the box shown ticked', () => first.isChecked());
      expect(await desc.getByRole('checkbox', { name: 'second step' }).isChecked()).toBe(false);

      // The editor: Escape cancels (focus back on Edit), the toolbar's Bold wraps the selection, Preview renders, Ctrl+Enter saves.
      const editDesc = desc.getByRole('button', { name: 'Edit description' });
      await editDesc.click();
      const area = desc.getByLabel('Description (Markdown)');
      await area.fill('Thrown away');
      await area.press('Escape');
      await editDesc.waitFor();
      expect(await hasFocus(editDesc)).toBe(true);
      expect(await description()).toBe('- [x] first step\n- [ ] second step');

      await editDesc.click();
      await area.fill('make it loud');
      await area.press('End');
      for (let i = 0; i < 4; i++) await area.press('Shift+ArrowLeft');
      await desc.getByRole('toolbar', { name: 'Formatting' }).getByRole('button', { name: 'Bold' }).click();
      expect(await area.inputValue()).toBe('make it **loud**');
      expect(await hasFocus(area)).toBe(true);
      await area.press('End');
      await area.pressSequentially(' [bad](javascript:alert(1)) and [good](https://example.com)');
      await desc.getByRole('tab', { name: 'Preview' }).click();
      await desc.getByRole('tabpanel').locator('strong', { hasText: 'loud' }).waitFor();
      expect(await desc.getByRole('tabpanel').getByRole('link', { name: 'good' }).count()).toBe(1);
      expect(await desc.getByRole('tabpanel').getByRole('link', { name: 'bad' }).count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      await desc.getByRole('tab', { name: 'Write' }).click();
      expect(await area.inputValue()).toBe('make it **loud** [bad](javascript:alert(1)) and [good](https://example.com)');
      await area.press('Control+Enter');
      await until('the API to have the new description', async () => (await description()) === 'make it **loud** [bad](javascript:alert(1)) and [good](https://example.com)');
      await desc.locator('strong', { hasText: 'loud' }).waitFor();
      // The unsafe link is text, not a link; the safe one is a link.
      await desc.getByText('bad', { exact: true }).waitFor();
      expect(await desc.getByRole('link', { name: 'bad' }).count()).toBe(0);
      expect(await desc.locator('a[href^="javascript"]').count()).toBe(0);
      expect(await desc.getByRole('link', { name: 'good' }).getAttribute('href')).toBe('https://example.com');
      expect(await axeViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
