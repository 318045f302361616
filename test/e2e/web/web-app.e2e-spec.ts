import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '../../support/app';
import { rawGet } from '../../support/raw-http';
import { TcpProxy } from '../../support/tcp-proxy';
import { until } from '../../support/until';
import { axeViolations, card, dragTo, newPage as openPage, signIn, startWebApp, type WebApp } from '../../support/web-page';
import { createProject, createTask, ownerWithWorkspace, userWithRole } from '../../support/work-items';

/** The web app in a real Chromium against the real service (API and worker in one process). */
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

/** Signs each page in as its user and opens the board at `path` on all of them, following the live events. */
async function liveBoards(pages: Page[], users: { user: { email: string } }[], path: string): Promise<void> {
  for (const [i, p] of pages.entries()) {
    await signIn(p, users[i].user.email, 'correct horse battery');
    await p.waitForURL((u) => u.pathname.startsWith('/w/'));
    await p.goto(path);
    await p.getByText('Live', { exact: true }).waitFor();
  }
}

describe('the web app', () => {
  it('the main journey: sign up, a workspace, a project, tasks, drag between columns, open one, comment', async () => {
    const { page, problems, close } = await newPage();
    try {
      const email = `web${Date.now()}@example.test`;
      await page.goto('/');
      await page.waitForURL('**/sign-in');
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole('link', { name: 'Create an account' }).click();
      await page.getByLabel('Name').fill('Ada Lovelace');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill('correct horse battery');
      await page.getByRole('button', { name: 'Sign up' }).click();

      await page.getByLabel('New workspace').fill('Analytical Engines');
      await page.getByRole('button', { name: 'Create workspace' }).click();
      await page.getByLabel('New project').fill('Mill');
      await page.getByRole('button', { name: 'Create project' }).click();
      await page.getByRole('heading', { name: 'To Do' }).waitFor();
      expect(await axeViolations(page)).toEqual([]);

      for (const title of ['Punch the cards', 'Oil the gears']) {
        await page.getByLabel('New task in To Do').fill(title);
        await page.getByRole('button', { name: 'Add task to To Do' }).click();
        await card(page, title).waitFor();
      }
      const todo = page.locator('[data-column="to-do"]');
      const inProgress = page.locator('[data-column="in-progress"]');
      expect(await todo.getByRole('listitem').count()).toBe(2);

      // Drag "Oil the gears" by its handle into In Progress.
      const handle = page.getByRole('button', { name: 'Move Oil the gears' });
      const to = (await inProgress.boundingBox())!;
      await dragTo(page, handle, to.x + to.width / 2, to.y + 40);
      await inProgress.locator('button.card-open', { hasText: 'Oil the gears' }).waitFor();
      // And back to the left, onto the column under the pointer.
      const left = (await todo.boundingBox())!;
      await dragTo(page, handle, left.x + left.width / 2, left.y + 40);
      await todo.locator('button.card-open', { hasText: 'Oil the gears' }).waitFor();
      await until('the API to have it back in To Do', async () => {
        const pid = new URL(page.url()).pathname.split('/')[4];
        const list = (await page.evaluate(`fetch('/api/task/tasks/${pid}?limit=100').then((r) => r.json())`)) as { data: { title: string; status: string }[] };
        return list.data.find((x) => x.title === 'Oil the gears')?.status === 'to-do';
      });
      // Across again, for the rest of the journey.
      await dragTo(page, handle, to.x + to.width / 2, to.y + 40);
      await inProgress.locator('button.card-open', { hasText: 'Oil the gears' }).waitFor();
      // The API has it too, once the move's request has been answered (the card moved before it was sent).
      const projectId = new URL(page.url()).pathname.split('/')[4];
      const statuses = async () => {
        const tasks = (await page.evaluate(`fetch('/api/task/tasks/${projectId}?limit=100').then((r) => r.json())`)) as { data: { title: string; status: string }[] };
        return tasks.data.map((x) => [x.title, x.status]).sort();
      };
      await until('the API to have it in In Progress', async () => (await statuses())[0][1] === 'in-progress');
      expect(await statuses()).toEqual([
        ['Oil the gears', 'in-progress'],
        ['Punch the cards', 'to-do'],
      ]);
      // And the board did not put it back meanwhile.
      expect(await inProgress.locator('button.card-open', { hasText: 'Oil the gears' }).count()).toBe(1);

      // Open the task, comment on it.
      await card(page, 'Oil the gears').click();
      await page.getByRole('dialog').getByRole('heading', { name: 'Oil the gears' }).waitFor();
      await page.getByLabel('Add a comment').fill('Use whale oil.');
      await page.getByRole('button', { name: 'Comment' }).click();
      await page.getByRole('dialog').getByText('Use whale oil.').waitFor();
      expect(await axeViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('the main journey by keyboard alone: Tab to each control, type, Enter; a task dragged with Space and the arrows; search by key', async () => {
    const { page, problems, close } = await newPage();
    /** Presses Tab until `target` has the focus (so it is reachable by keyboard), at most 80 times. */
    const tabTo = async (target: ReturnType<typeof page.getByRole>) => {
      await target.waitFor();
      for (let i = 0; i < 80; i++) {
        await page.keyboard.press('Tab');
        if (await target.evaluate((el) => el === el.ownerDocument.activeElement)) return;
      }
      throw new Error(`not reachable by Tab: ${target.toString()}`);
    };
    try {
      await page.goto('/sign-up');
      await tabTo(page.getByLabel('Name'));
      await page.keyboard.type('Grace Hopper');
      await tabTo(page.getByLabel('Email'));
      await page.keyboard.type(`keys${Date.now()}@example.test`);
      await tabTo(page.getByLabel('Password'));
      await page.keyboard.type('correct horse battery');
      await page.keyboard.press('Enter');
      await tabTo(page.getByLabel('New workspace'));
      await page.keyboard.type('Compilers');
      await page.keyboard.press('Enter');
      await tabTo(page.getByLabel('New project'));
      await page.keyboard.type('Flow');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'To Do' }).waitFor();
      for (const title of ['Find the moth', 'Tape it in the log']) {
        await tabTo(page.getByLabel('New task in To Do'));
        await page.keyboard.type(title);
        await page.keyboard.press('Enter');
        await card(page, title).waitFor();
      }

      // Pick "Find the moth" up with Space, carry it right with the arrow keys, put it down with Space.
      const inProgress = page.locator('[data-column="in-progress"]');
      const step = 25; // dnd-kit's keyboard step, in pixels
      const from = (await page.locator('li.card', { hasText: 'Find the moth' }).boundingBox())!;
      const to = (await inProgress.boundingBox())!;
      await tabTo(page.getByRole('button', { name: 'Move Find the moth' }));
      await page.keyboard.press('Space');
      // Until the card's left edge is inside In Progress.
      for (let x = from.x; x < to.x + 8; x += step) await page.keyboard.press('ArrowRight');
      await page.getByText('Find the moth is over In Progress.').waitFor({ state: 'attached' });
      await page.keyboard.press('Space');
      await inProgress.locator('button.card-open', { hasText: 'Find the moth' }).waitFor();
      const projectId = new URL(page.url()).pathname.split('/')[4];
      await until('the API to have it in In Progress', async () => {
        const list = (await page.evaluate(`fetch('/api/task/tasks/${projectId}?limit=100').then((r) => r.json())`)) as { data: { title: string; status: string }[] };
        return list.data.find((x) => x.title === 'Find the moth')?.status === 'in-progress';
      });

      // Open it with Enter and comment.
      await tabTo(inProgress.locator('button.card-open', { hasText: 'Find the moth' }));
      await page.keyboard.press('Enter');
      const panel = page.getByRole('dialog');
      await panel.getByRole('heading', { name: 'Find the moth' }).waitFor();
      await tabTo(panel.getByLabel('Add a comment'));
      await page.keyboard.type('First actual case of bug being found.');
      await tabTo(panel.getByRole('button', { name: 'Comment' }));
      await page.keyboard.press('Enter');
      await panel.getByText('First actual case of bug being found.').waitFor();
      await page.keyboard.press('Escape');
      await panel.waitFor({ state: 'detached' });

      // Ctrl-K, the other task's key, Enter.
      const key = (await card(page, 'Tape it in the log').locator('.key').textContent())!.trim();
      await page.keyboard.press('Control+k');
      await page.keyboard.type(key);
      await page
        .getByRole('option', { name: new RegExp(key) })
        .first()
        .waitFor();
      await page.keyboard.press('Enter');
      await page.getByRole('dialog').getByRole('heading', { name: 'Tape it in the log' }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('task detail: priority, assignee, due date, labels, a timer, a safe markdown description, moving it', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId, { name: 'Detail' });
    const other = await createProject(t, owner.token, workspaceId, { name: 'Elsewhere' });
    const task = await createTask(t, owner.token, project.id, { title: 'Every field' });
    expect((await t.api.post('/label', { name: 'urgent-fix', color: '#cc0000', workspaceId }, owner.token)).status).toBe(200);
    const { page, problems, close } = await newPage();
    try {
      await signIn(page, owner.user.email, 'correct horse battery');
      await page.waitForURL((u) => u.pathname.startsWith('/w/'));
      await page.goto(`/w/${workspaceId}/p/${project.id}/t/${task.id}`);
      const panel = page.getByRole('dialog');
      await panel.getByRole('heading', { name: /Every field/ }).waitFor();

      await panel.getByLabel('Priority').selectOption('high');
      await panel.getByLabel('Assignee').selectOption(owner.user.id);
      await panel.getByLabel('Due date').fill('2026-12-24');
      await panel.getByRole('checkbox', { name: 'urgent-fix' }).check();
      const saved = async () => (await t.api.get(`/task/${task.id}`, owner.token)).body;
      await until('the fields saved', async () => {
        const x = await saved();
        return x.priority === 'high' && x.userId === owner.user.id && x.dueDate?.startsWith('2026-12-24');
      });
      await until('the label on the task', async () => (await t.api.get(`/label/task/${task.id}`, owner.token)).body.some((l: { name: string }) => l.name === 'urgent-fix'));
      // The history says each change, with who made it, newest first.
      const activity = panel.getByRole('region', { name: 'Activity' }).getByRole('listitem');
      await until('the four changes in the activity', async () => (await activity.count()) === 5);
      // (The four changes were sent without waiting for each other: their order is the server's.)
      const lines = await activity.allInnerTexts();
      expect(lines).toHaveLength(5);
      expect(lines.slice(0, 4)).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^Test User set the due date to Dec 24, 2026/),
          expect.stringMatching(/^Test User assigned it to Test User/),
          expect.stringMatching(/^Test User changed the priority from No priority to High/),
          expect.stringMatching(/^Test User added label urgent-fix/),
        ]),
      );
      expect(lines[4]).toMatch(/^Test User created the task/);

      // Markdown is rendered; markup in it is not run.
      await panel.getByRole('button', { name: 'Edit description' }).click();
      await panel.getByLabel('Description (Markdown)').fill('Some **bold** work <img src=x onerror="window.pwned=1"> [bad](javascript:alert(1))');
      await panel.getByRole('button', { name: 'Save description' }).click();
      await panel.locator('.description strong', { hasText: 'bold' }).waitFor();
      expect(await panel.locator('.description img').count()).toBe(0);
      expect(await panel.locator('.description a[href^="javascript"]').count()).toBe(0);
      expect(await page.evaluate('window.pwned')).toBeUndefined();

      await panel.getByRole('button', { name: 'Start timer' }).click();
      await panel.getByRole('timer').waitFor();
      await panel.getByRole('button', { name: 'Stop timer' }).click();
      await panel.getByRole('button', { name: 'Start timer' }).waitFor();
      expect((await t.api.get(`/time-entry/task/${task.id}`, owner.token)).body).toEqual([expect.objectContaining({ endTime: expect.any(String) })]);
      expect(await axeViolations(page)).toEqual([]);

      const oldKey = `${project.slug}-${task.number}`;
      await panel.getByText(oldKey, { exact: true }).waitFor();
      await panel.getByLabel('Destination project').selectOption(other.id);
      await panel.getByRole('button', { name: 'Move task' }).click();
      await page.waitForURL((u) => u.pathname === `/w/${workspaceId}/p/${other.id}/t/${task.id}`);
      await until('the task in the other project', async () => (await saved()).projectId === other.id);
      // The panel shows the task as it is now: its new key, on the other board, and a toast says both keys.
      const newKey = `${other.slug}-${(await saved()).number}`;
      await panel.getByText(newKey, { exact: true }).waitFor();
      await page.getByText(`Moved ${oldKey} to Elsewhere`).waitFor();
      await page.getByText(`It is ${newKey} now; ${oldKey} still finds it.`).waitFor();
      await card(page, 'Every field').waitFor();
      expect(await panel.getByRole('heading', { name: /Every field/ }).count()).toBe(1);
      expect(await panel.getByLabel('Status').inputValue()).toBe((await saved()).status);

      // The old key still finds it: search opens it on its board now.
      await page.goto(`/w/${workspaceId}`);
      await page.getByRole('button', { name: 'Search' }).click();
      await page.getByRole('combobox', { name: 'Search tasks, comments and projects' }).fill(oldKey);
      await page
        .getByRole('dialog', { name: 'Search' })
        .getByRole('option', { name: /Every field/ })
        .waitFor();
      await page.keyboard.press('Enter');
      await page.waitForURL((u) => u.pathname === `/w/${workspaceId}/p/${other.id}/t/${task.id}`);
      await page.getByRole('dialog').getByText(newKey, { exact: true }).waitFor();
      // So does an address made before the move (a chat message's link, a board address).
      for (const before of [`/projects/${project.id}/tasks/${task.id}`, `/w/${workspaceId}/p/${project.id}/t/${task.id}`]) {
        await page.goto(before);
        await page.waitForURL((u) => u.pathname === `/w/${workspaceId}/p/${other.id}/t/${task.id}`);
        await page.getByRole('dialog').getByText(newKey, { exact: true }).waitFor();
      }
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('task relations: add one by searching, read it from both ends, open the other task, remove it', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId, { name: 'Relations' });
    const parent = await createTask(t, owner.token, project.id, { title: 'Build the engine' });
    const child = await createTask(t, owner.token, project.id, { title: 'Cut the gears' });
    const { page, problems, close } = await newPage();
    try {
      await signIn(page, owner.user.email, 'correct horse battery');
      await page.waitForURL((u) => u.pathname.startsWith('/w/'));
      await page.goto(`/w/${workspaceId}/p/${project.id}/t/${parent.id}`);
      const panel = page.getByRole('dialog');
      await panel.getByText('No related tasks.').waitFor();
      await panel.getByRole('combobox', { name: /^Kind of relation/ }).selectOption({ label: 'Has subtask' });
      await panel.getByLabel('Find a task').fill('gears');
      await panel.getByRole('button', { name: /^Relate .*Cut the gears/ }).click();
      // The relation's entry in the list, there once the API has answered (the search's own result button names the task too).
      await panel
        .locator('.relations li', { hasText: 'Has subtask' })
        .getByRole('button', { name: /^\S+-\d+ Cut the gears$/ })
        .waitFor();
      const stored = async () => (await t.api.get(`/task-relation/${parent.id}`, owner.token)).body as { sourceTaskId: string; targetTaskId: string; relationType: string }[];
      expect((await stored()).map((r) => [r.sourceTaskId, r.targetTaskId, r.relationType])).toEqual([[parent.id, child.id, 'subtask']]);
      expect(await panel.locator('.relations li').first().textContent()).toContain('Has subtask');
      expect(await axeViolations(page)).toEqual([]);

      // From the other end it reads the other way; it opens from the list.
      await panel
        .locator('.relations li')
        .first()
        .getByRole('button', { name: /^\S+-\d+ Cut the gears$/ })
        .click();
      await page.waitForURL((u) => u.pathname.endsWith(`/t/${child.id}`));
      await panel.getByRole('heading', { name: /Cut the gears/ }).waitFor();
      await panel
        .locator('.relations li', { hasText: 'Is a subtask of' })
        .getByRole('button', { name: /^\S+-\d+ Build the engine$/ })
        .waitFor();
      await panel.getByRole('button', { name: 'Remove the relation to Build the engine' }).click();
      await panel.getByText('No related tasks.').waitFor();
      expect(await stored()).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('the list view filters by text, status, assignee, label, priority and due date', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId, { name: 'Listed' });
    const alpha = await createTask(t, owner.token, project.id, { title: 'Alpha urgent', priority: 'urgent', userId: owner.user.id, dueDate: '2026-12-01T00:00:00.000Z' });
    await createTask(t, owner.token, project.id, { title: 'Beta low', priority: 'low', status: 'done' });
    const gamma = await createTask(t, owner.token, project.id, { title: 'Gamma later', priority: 'urgent', dueDate: '2027-03-01T00:00:00.000Z' });
    const frontend = (await t.api.post('/label', { name: 'frontend', color: '#3366ff', workspaceId }, owner.token)).body;
    for (const task of [alpha, gamma]) expect((await t.api.put(`/label/${frontend.id}/task`, { taskId: task.id }, owner.token)).status).toBe(200);
    const { page, problems, close } = await newPage();
    try {
      await signIn(page, owner.user.email, 'correct horse battery');
      await page.waitForURL((u) => u.pathname.startsWith('/w/'));
      await page.goto(`/w/${workspaceId}/p/${project.id}`);
      await page.getByRole('link', { name: 'List' }).click();
      const rows = page.locator('.task-table tbody tr');
      await page.getByText('3 of 3 tasks').waitFor();
      await page.getByLabel('Label filter').selectOption({ label: 'frontend' });
      await page.getByText('2 of 3 tasks').waitFor();
      expect(await rows.allInnerTexts()).toEqual([expect.stringContaining('Alpha urgent'), expect.stringContaining('Gamma later')]);
      await page.getByLabel('Label filter').selectOption('');
      await page.getByText('3 of 3 tasks').waitFor();
      await page.getByLabel('Priority filter').selectOption('urgent');
      await page.getByText('2 of 3 tasks').waitFor();
      await page.getByLabel('Due by').fill('2026-12-31');
      await page.getByText('1 of 3 tasks').waitFor();
      expect(await rows.allInnerTexts()).toEqual([expect.stringContaining('Alpha urgent')]);
      await page.getByLabel('Due by').fill('');
      await page.getByLabel('Priority filter').selectOption('');
      await page.getByLabel('Assignee filter').selectOption('none');
      await page.getByText('2 of 3 tasks').waitFor();
      await page.getByLabel('Status').selectOption('done');
      await page.getByText('1 of 3 tasks').waitFor();
      await page.getByLabel('Status').selectOption('');
      await page.getByLabel('Assignee filter').selectOption('');
      await page.getByLabel('Text').fill('gamma');
      await page.getByText('1 of 3 tasks').waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Gamma later' }).click();
      await page
        .getByRole('dialog')
        .getByRole('heading', { name: /Gamma later/ })
        .waitFor();
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('a change made elsewhere shows on an open board without reload', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const bob = await userWithRole(t, workspaceId, 'member');
    const project = await createProject(t, owner.token, workspaceId, { name: 'Live board' });
    const task = await createTask(t, owner.token, project.id, { title: 'Watch me move' });
    const a = await newPage();
    const b = await newPage();
    try {
      await liveBoards([a.page, b.page], [owner, bob], `/w/${workspaceId}/p/${project.id}`);
      // A moves it in the task panel; B's board follows.
      await card(a.page, 'Watch me move').click();
      await a.page.getByRole('dialog').getByLabel('Status').selectOption('done');
      await b.page.locator('[data-column="done"] button.card-open', { hasText: 'Watch me move' }).waitFor({ timeout: 5_000 });
      // A change through the API (as the command line makes) shows in both.
      expect((await t.api.put(`/task/title/${task.id}`, { title: 'Moved by the CLI' }, owner.token)).status).toBe(200);
      for (const p of [a.page, b.page]) await card(p, 'Moved by the CLI').waitFor({ timeout: 5_000 });
      expect([...a.problems, ...b.problems]).toEqual([]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('a new order within a column, dragged on one board, shows on another open board without reload', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const bob = await userWithRole(t, workspaceId, 'member');
    const project = await createProject(t, owner.token, workspaceId, { name: 'Live order' });
    for (const title of ['First one', 'Second one', 'Third one']) await createTask(t, owner.token, project.id, { title });
    const a = await newPage();
    const b = await newPage();
    const shown = (p: typeof a.page) => p.locator('[data-column="to-do"] button.card-open').evaluateAll((els) => els.map((e) => e.textContent?.replace(/^\S+-\d+\s*/, '')).join());
    try {
      await liveBoards([a.page, b.page], [owner, bob], `/w/${workspaceId}/p/${project.id}`);
      for (const p of [a.page, b.page]) await card(p, 'Third one').waitFor();
      const to = (await card(a.page, 'First one').boundingBox())!;
      await dragTo(a.page, a.page.getByRole('button', { name: 'Move Third one' }), to.x + to.width / 2, to.y + to.height / 4);
      await until("the new order on A's board", async () => (await shown(a.page)) === 'Third one,First one,Second one');
      // B did nothing: its board follows the stream's reorder signal.
      await until("and on B's", async () => (await shown(b.page)) === 'Third one,First one,Second one', 5_000);
      expect([...a.problems, ...b.problems]).toEqual([]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('a task dragged onto a card lands before or after it, in its own column or another', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId, { name: 'Ordering' });
    for (const title of ['Alpha', 'Bravo', 'Charlie']) await createTask(t, owner.token, project.id, { title });
    await createTask(t, owner.token, project.id, { title: 'Delta', status: 'in-progress' });
    const { page, problems, close } = await newPage();
    // What a column shows, top to bottom, and what the API says (by position).
    const shown = (slug: string) => page.locator(`[data-column="${slug}"] button.card-open`).evaluateAll((els) => els.map((e) => e.textContent?.replace(/^\S+-\d+\s*/, '')));
    const stored = async (slug: string) =>
      ((await t.api.get(`/task/tasks/${project.id}?status=${slug}&sortBy=position&sortOrder=asc`, owner.token)).body.data as { title: string }[]).map((x) => x.title);
    // Drags a task's handle to a point of another card: its upper or lower quarter.
    const drag = async (title: string, onto: string, half: 'upper' | 'lower') => {
      const to = (await card(page, onto).boundingBox())!;
      await dragTo(page, page.getByRole('button', { name: `Move ${title}` }), to.x + to.width / 2, to.y + (half === 'upper' ? to.height / 4 : (to.height * 3) / 4));
    };
    try {
      await signIn(page, owner.user.email, 'correct horse battery');
      await page.waitForURL((u) => u.pathname.startsWith('/w/'));
      await page.goto(`/w/${workspaceId}/p/${project.id}`);
      await card(page, 'Charlie').waitFor();
      expect(await shown('to-do')).toEqual(['Alpha', 'Bravo', 'Charlie']);

      await drag('Charlie', 'Alpha', 'upper');
      await until('Charlie first on the board', async () => (await shown('to-do')).join() === 'Charlie,Alpha,Bravo');
      await until('and in the API', async () => (await stored('to-do')).join() === 'Charlie,Alpha,Bravo');

      await drag('Bravo', 'Delta', 'lower');
      await until('Bravo after Delta', async () => (await stored('in-progress')).join() === 'Delta,Bravo');
      await drag('Alpha', 'Delta', 'upper');
      await until('Alpha before Delta', async () => (await stored('in-progress')).join() === 'Alpha,Delta,Bravo');
      expect(await shown('in-progress')).toEqual(['Alpha', 'Delta', 'Bravo']);
      expect(await shown('to-do')).toEqual(['Charlie']);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it("a task's address in messages and emails (/projects/:id/tasks/:id) opens it on its board", async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId, { name: 'Linked' });
    const task = await createTask(t, owner.token, project.id, { title: 'Follow the link' });
    const { page, problems, close } = await newPage();
    try {
      await page.goto(`/projects/${project.id}/tasks/${task.id}`);
      // Signed out: the sign-in comes first, then the link.
      await page.waitForURL('**/sign-in?next=*');
      await page.getByLabel('Email').fill(owner.user.email);
      await page.getByLabel('Password').fill('correct horse battery');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((u) => u.pathname === `/w/${workspaceId}/p/${project.id}/t/${task.id}`);
      await page
        .getByRole('dialog')
        .getByRole('heading', { name: /Follow the link/ })
        .waitFor();
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it("a refused drag puts the card back and shows the API's message", async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId, { name: 'Refusals' });
    await createTask(t, owner.token, project.id, { title: 'Stay put' });
    const { page, problems, close } = await newPage();
    try {
      await signIn(page, owner.user.email, 'correct horse battery');
      await page.waitForURL((u) => u.pathname.startsWith('/w/'));
      await page.goto(`/w/${workspaceId}/p/${project.id}`);
      await card(page, 'Stay put').waitFor();
      // In Review goes away behind the board's back (a column change is not a task event).
      const columns = (await t.api.get(`/column/${project.id}`, owner.token)).body as { id: string; slug: string }[];
      expect((await t.api.delete(`/column/${columns.find((c) => c.slug === 'in-review')!.id}`, owner.token)).status).toBe(200);
      const to = (await page.locator('[data-column="in-review"]').boundingBox())!;
      await dragTo(page, page.getByRole('button', { name: 'Move Stay put' }), to.x + to.width / 2, to.y + 40);
      await page
        .getByRole('alert')
        .filter({ hasText: /Invalid status|not valid/i })
        .waitFor();
      await page.locator('[data-column="to-do"] button.card-open', { hasText: 'Stay put' }).waitFor();
      expect((await t.api.get(`/task/tasks/${project.id}`, owner.token)).body.data.map((x: { status: string }) => x.status)).toEqual(['to-do']);
      // The browser logged the refused request; nothing else went wrong.
      expect(problems.filter((p) => !/status of 400/.test(p))).toEqual([]);
    } finally {
      await close();
    }
  });

  it('after a lost connection the board fetches again what it may have missed', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId, { name: 'Flaky network' });
    await createTask(t, owner.token, project.id, { title: 'Still here' });
    // The browser reaches the service through a proxy that the test cuts and restores.
    const proxy = new TcpProxy('127.0.0.1', Number(new URL(origin).port));
    await proxy.start();
    const { page, problems, close } = await openPage(browser, `http://127.0.0.1:${proxy.port}`);
    try {
      await signIn(page, owner.user.email, 'correct horse battery');
      await page.waitForURL((u) => u.pathname.startsWith('/w/'));
      await page.goto(`/w/${workspaceId}/p/${project.id}`);
      await page.getByText('Live', { exact: true }).waitFor();
      await proxy.cut();
      await page.getByText('Connecting…').waitFor();
      // A change no event tells of (a column renamed) while the stream is down.
      const columns = (await t.api.get(`/column/${project.id}`, owner.token)).body as { id: string; slug: string }[];
      const todo = columns.find((c) => c.slug === 'to-do')!;
      expect((await t.api.put(`/column/${todo.id}`, { name: 'Backlog' }, owner.token)).status).toBe(200);
      await proxy.restore();
      await page.getByText('Live', { exact: true }).waitFor({ timeout: 10_000 });
      await page.getByRole('heading', { name: /^Backlog/ }).waitFor();
      // The browser reported the refused connections while the proxy was down; nothing else went wrong.
      expect(problems.filter((p) => !/ERR_CONNECTION_REFUSED|ERR_CONNECTION_RESET|ERR_EMPTY_RESPONSE|ERR_INCOMPLETE_CHUNKED_ENCODING/.test(p))).toEqual([]);
    } finally {
      await close();
      await proxy.stop();
    }
  });

  it('a viewer is not offered what the API would refuse', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const viewer = await userWithRole(t, workspaceId, 'viewer');
    const project = await createProject(t, owner.token, workspaceId, { name: 'Read only' });
    await createTask(t, owner.token, project.id, { title: 'Look, do not touch' });
    const v = await newPage();
    try {
      await signIn(v.page, viewer.user.email, 'correct horse battery');
      await v.page.waitForURL((u) => u.pathname.startsWith('/w/'));
      await v.page.getByRole('link', { name: /Read only/ }).waitFor();
      expect(await v.page.getByLabel('New project').count()).toBe(0);
      await v.page.getByRole('link', { name: /Read only/ }).click();
      await card(v.page, 'Look, do not touch').waitFor();
      expect(await v.page.getByRole('button', { name: /^Move / }).count()).toBe(0);
      expect(await v.page.getByRole('button', { name: /^Add task to/ }).count()).toBe(0);
      expect(v.problems).toEqual([]);
    } finally {
      await v.close();
    }
  });

  it('the app answers its routes at any depth, and /api stays the API', async () => {
    const deep = await fetch(`${origin}/w/whatever/p/else`);
    expect([deep.status, deep.headers.get('content-type')]).toEqual([200, expect.stringContaining('text/html')]);
    const page = await deep.text();
    expect(page).toContain('<div id="root">');
    expect(deep.headers.get('cache-control')).toBe('no-cache');
    // The page's scripts: content-hashed, so cached for good; a missing one is a 404, not the page.
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(page)![1];
    const asset = await fetch(`${origin}${script}`);
    expect([asset.status, asset.headers.get('cache-control'), asset.headers.get('content-type')]).toEqual([
      200,
      'public, max-age=31536000, immutable',
      expect.stringContaining('javascript'),
    ]);
    const missing = await fetch(`${origin}/assets/missing-0000.js`);
    expect([missing.status, await missing.json()]).toEqual([404, { message: expect.any(String) }]);
    const api = await fetch(`${origin}/api/nope`);
    expect([api.status, await api.json()]).toEqual([404, { message: expect.any(String) }]);
  });

  it("the app's files go out precompressed as the browser accepts (brotli, else gzip), and no source map is served", async () => {
    const page = await (await fetch(`${origin}/`)).text();
    const files = [...page.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
    expect(files.length).toBeGreaterThanOrEqual(2);
    for (const path of ['/', ...files]) {
      const plain = await rawGet(`${origin}${path}`);
      expect([path, plain.status, plain.headers['content-encoding'], plain.headers.vary]).toEqual([path, 200, undefined, 'Accept-Encoding']);
      for (const [accept, encoding] of [
        ['gzip, deflate, br, zstd', 'br'],
        ['gzip, deflate', 'gzip'],
        ['br;q=0, gzip;q=0.5', 'gzip'],
      ] as const) {
        const res = await rawGet(`${origin}${path}`, { 'accept-encoding': accept });
        expect([path, accept, res.status, res.headers['content-encoding'], res.headers['content-type']]).toEqual([path, accept, 200, encoding, plain.headers['content-type']]);
        expect(res.body.equals(plain.body)).toBe(true);
        if (path !== '/') expect(res.wire.length).toBeLessThan(plain.wire.length / 2);
      }
    }
    // The build writes source maps for the operator (hidden), but they are not linked and not served.
    const script = files.find((f) => f.endsWith('.js'))!;
    expect((await rawGet(`${origin}${script}`)).body.toString('utf8')).not.toContain('sourceMappingURL');
    const map = await rawGet(`${origin}${script}.map`);
    expect([map.status, JSON.parse(map.body.toString('utf8'))]).toEqual([404, { message: 'Not found' }]);
    expect((await rawGet(`${origin}${script}.br`)).status).toBe(404);
  });
});
