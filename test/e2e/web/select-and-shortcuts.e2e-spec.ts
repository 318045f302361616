import type { Page } from 'playwright-core';
import { axeViolations, card, signIn, useWebApp } from '../../support/web-page';
import { createProject, createTask, ownerWithWorkspace } from '../../support/work-items';

/** Multi-select with bulk actions, and the keyboard shortcuts, in a real Chromium against the real service (docs/web.md). */
const web = useWebApp();
const newPage = () => web.newPage();
const PASSWORD = 'correct horse battery';

async function board() {
  const { owner, workspaceId } = await ownerWithWorkspace(web.t);
  const project = await createProject(web.t, owner.token, workspaceId, { name: 'Bulk board' });
  const other = await createProject(web.t, owner.token, workspaceId, { name: 'Elsewhere' });
  const tasks = [];
  for (const title of ['Alpha task', 'Bravo task', 'Charlie task', 'Delta task']) tasks.push(await createTask(web.t, owner.token, project.id, { title }));
  const catalogue = (await web.t.api.post('/label', { name: 'frontend', color: '#1d76db', workspaceId, taskId: tasks[3].id }, owner.token)).body;
  expect(catalogue.name).toBe('frontend');
  return { owner, workspaceId, project, other, tasks };
}

const cardItem = (page: Page, title: string) => page.locator('li[data-task]').filter({ has: card(page, title) });
const taskOf = async (token: string, id: string) => (await web.t.api.get(`/task/${id}`, token)).body;
const focusedText = (page: Page) => page.evaluate('document.activeElement?.textContent ?? ""') as Promise<string>;

async function openBoard(page: Page, owner: { user: { email: string } }, workspaceId: string, projectId: string, path = '') {
  await signIn(page, owner.user.email, PASSWORD);
  await page.waitForURL((u) => u.pathname.startsWith('/w/'));
  await page.goto(`/w/${workspaceId}/p/${projectId}${path}`);
  await page.locator('main [data-task-open]', { hasText: 'Delta task' }).waitFor();
}

describe('multi-select and bulk actions', () => {
  it('x, shift-click and the checkbox select; the bar sets priority (with undo), status, a label, and moves and deletes', async () => {
    const { owner, workspaceId, project, other, tasks } = await board();
    const { page, problems, close } = await newPage();
    try {
      await openBoard(page, owner, workspaceId, project.id);
      // x on the focused card, then shift-click two cards further: three in a run.
      await card(page, 'Alpha task').focus();
      await page.keyboard.press('x');
      const bar = page.getByRole('toolbar', { name: 'Selected tasks' });
      await bar.getByText('1 selected').waitFor();
      await card(page, 'Charlie task').click({ modifiers: ['Shift'] });
      await bar.getByText('3 selected').waitFor();
      expect(await page.getByRole('checkbox', { name: `Select ${project.slug}-${tasks[1].number}` }).isChecked()).toBe(true);
      expect(page.url()).not.toContain('/t/');
      expect(await axeViolations(page)).toEqual([]);

      // Priority for all three, then Undo puts each back.
      await bar.getByRole('button', { name: 'Priority' }).click();
      await page.getByRole('menuitem', { name: 'High' }).click();
      await page.getByText('Set 3 tasks to High').waitFor();
      await cardItem(page, 'Bravo task').getByText('High').waitFor();
      expect((await taskOf(owner.token, tasks[2].id)).priority).toBe('high');
      await page.getByRole('button', { name: 'Undo' }).click();
      await page.getByText('Undone: Set 3 tasks to High').waitFor();
      await expectEventually(async () => (await taskOf(owner.token, tasks[2].id)).priority === 'no-priority');
      await cardItem(page, 'Bravo task').getByText('High').waitFor({ state: 'detached' });

      // The checkbox takes one out; a label for the two left, then a column.
      await page.getByRole('checkbox', { name: `Select ${project.slug}-${tasks[1].number}` }).click();
      await bar.getByText('2 selected').waitFor();
      await bar.getByRole('button', { name: 'Labels' }).click();
      await page.getByRole('menuitem', { name: 'Add frontend' }).click();
      await cardItem(page, 'Charlie task').getByText('frontend').waitFor();
      await cardItem(page, 'Alpha task').getByText('frontend').waitFor();
      expect(await cardItem(page, 'Bravo task').getByText('frontend').count()).toBe(0);
      await bar.getByRole('button', { name: 'Status' }).click();
      await page.getByRole('menuitem', { name: 'Done' }).click();
      await page.locator('[data-column="done"]').getByText('Alpha task').waitFor();
      await page.locator('[data-column="done"]').getByText('Charlie task').waitFor();
      expect((await taskOf(owner.token, tasks[0].id)).status).toBe('done');

      // Moved to the other project: the cards leave, the selection empties.
      await bar.getByRole('button', { name: 'Move to project' }).click();
      await page.getByRole('menuitem', { name: 'Elsewhere' }).click();
      await card(page, 'Alpha task').waitFor({ state: 'detached' });
      await bar.waitFor({ state: 'detached' });
      expect((await taskOf(owner.token, tasks[0].id)).projectId).toBe(other.id);
      expect((await taskOf(owner.token, tasks[2].id)).projectId).toBe(other.id);

      // Delete asks first; Cancel keeps the tasks.
      await card(page, 'Bravo task').focus();
      await page.keyboard.press('x');
      await card(page, 'Delta task').click({ modifiers: ['Shift'] });
      await bar.getByText('2 selected').waitFor();
      await bar.getByRole('button', { name: 'Delete' }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Delete 2 tasks?' });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect((await web.t.api.get(`/task/${tasks[1].id}`, owner.token)).status).toBe(200);
      await bar.getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('alertdialog', { name: 'Delete 2 tasks?' }).getByRole('button', { name: 'Delete 2 tasks' }).click();
      await card(page, 'Delta task').waitFor({ state: 'detached' });
      expect((await web.t.api.get(`/task/${tasks[1].id}`, owner.token)).status).toBe(404);
      expect((await web.t.api.get(`/task/${tasks[3].id}`, owner.token)).status).toBe(404);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('the list selects every task shown from its header, and Escape clears the selection', async () => {
    const { owner, workspaceId, project, tasks } = await board();
    const { page, problems, close } = await newPage();
    try {
      await openBoard(page, owner, workspaceId, project.id, '/list');
      await page.getByRole('checkbox', { name: 'Select every task shown' }).click();
      const bar = page.getByRole('toolbar', { name: 'Selected tasks' });
      await bar.getByText('4 selected').waitFor();
      await bar.getByRole('button', { name: 'Assignee' }).click();
      await page.getByRole('menuitem', { name: owner.user.name }).click();
      await page.getByText(`Assigned 4 tasks to ${owner.user.name}`).waitFor();
      for (const task of tasks) await expectEventually(async () => (await taskOf(owner.token, task.id)).userId === owner.user.id);
      expect(await axeViolations(page)).toEqual([]);
      await page.locator('main').focus();
      await page.keyboard.press('Escape');
      await bar.waitFor({ state: 'detached' });
      expect(await page.getByRole('checkbox', { name: `Select ${project.slug}-${tasks[0].number}` }).isChecked()).toBe(false);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe('keyboard shortcuts', () => {
  it('? shows the sheet; j/k move between tasks, Enter opens, e edits the title, c goes to Add a task, / searches', async () => {
    const { owner, workspaceId, project } = await board();
    const { page, problems, close } = await newPage();
    try {
      await openBoard(page, owner, workspaceId, project.id);
      await page.locator('main').focus();
      await page.keyboard.press('?');
      const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
      await sheet.getByText('Select the task, or take it out of the selection').waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await sheet.waitFor({ state: 'detached' });

      // j from nowhere: the first task; j again, the next; k back.
      await page.keyboard.press('j');
      expect(await focusedText(page)).toContain('Alpha task');
      await page.keyboard.press('j');
      expect(await focusedText(page)).toContain('Bravo task');
      await page.keyboard.press('k');
      expect(await focusedText(page)).toContain('Alpha task');
      await page.keyboard.press('Enter');
      await page.getByRole('dialog', { name: /Alpha task/ }).waitFor();
      await page.keyboard.press('Escape');
      await page.getByRole('dialog', { name: /Alpha task/ }).waitFor({ state: 'detached' });

      // e: the task opens with its title in a field, focused.
      await card(page, 'Bravo task').focus();
      await page.keyboard.press('e');
      const title = page.getByRole('textbox', { name: 'Title' });
      await title.waitFor();
      expect(await page.evaluate('document.activeElement?.value')).toBe('Bravo task');
      await title.fill('Bravo renamed');
      await page.keyboard.press('Enter');
      await card(page, 'Bravo renamed').waitFor();
      await page.getByRole('button', { name: 'Close task' }).click();

      // c: "Add a task" of the focused card's column, the letter not typed into it.
      await card(page, 'Charlie task').focus();
      await page.keyboard.press('c');
      expect(await page.evaluate('document.activeElement?.id')).toBe('new-to-do');
      expect(await page.getByLabel('New task in To Do').inputValue()).toBe('');
      // Typing in a field is typing: j goes into the field.
      await page.keyboard.type('jk');
      expect(await page.getByLabel('New task in To Do').inputValue()).toBe('jk');

      // /: the search dialog.
      await card(page, 'Charlie task').focus();
      await page.keyboard.press('/');
      await page.getByRole('dialog', { name: /Search/ }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});

/** Waits until `check` holds (the API reached by the app a moment after the toast). */
async function expectEventually(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}
