import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '../../support/app';
import { until } from '../../support/until';
import { axeViolations, newPage as openPage, signIn, startWebApp, type WebApp } from '../../support/web-page';
import { createProject, createTask, ownerWithWorkspace, userWithRole } from '../../support/work-items';

/** Label management: the workspace's catalogue in a project's settings, and a label created from a task, in a real Chromium against the real service. */
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

type Label = { id: string; name: string; color: string; taskId: string | null };
const catalogue = async (workspaceId: string, token: string) => (await t.api.get(`/label/workspace/${workspaceId}`, token)).body as Label[];

/** Signs in and opens the project's settings, resolving once the caller's permissions have arrived. */
async function openSettings(page: Page, email: string, workspaceId: string, projectId: string): Promise<void> {
  await signIn(page, email, 'correct horse battery');
  await page.waitForURL((u) => u.pathname.startsWith('/w/'));
  const permissions = page.waitForResponse((r) => r.url().includes('/api/auth/organization/my-permissions') && r.ok());
  await page.goto(`/w/${workspaceId}/p/${projectId}/settings`);
  await permissions;
  await page.getByRole('heading', { name: 'Labels', level: 2 }).waitFor();
}

describe('labels', () => {
  it('settings: create, rename, recolour and delete a label (the API has each change); a taken name shows the API message; axe clean in both themes', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId, { name: 'Labelled' });
    const { page, problems, close } = await newPage();
    try {
      await openSettings(page, owner.user.email, workspaceId, project.id);
      const section = page.getByRole('region', { name: 'Labels' });
      await section.getByText('The workspace has no labels yet.').waitFor();

      // Create "Needs design" in red.
      await section.getByLabel('New label').fill('Needs design');
      await section.getByLabel('Colour', { exact: true }).fill('#dd2211');
      await section.getByRole('button', { name: 'Create label' }).click();
      const list = section.getByRole('list', { name: 'Workspace labels' });
      await list.getByLabel('Name of label Needs design').waitFor();
      expect((await section.getByLabel('New label').inputValue()) === '').toBe(true);
      let [label] = await catalogue(workspaceId, owner.token);
      expect(label).toEqual(expect.objectContaining({ name: 'Needs design', color: '#dd2211', taskId: null }));
      expect(await axeViolations(page)).toEqual([]);
      // On a 375 px phone the Labels section fits.
      await page.setViewportSize({ width: 375, height: 800 });
      expect(await page.evaluate(`[...document.querySelectorAll('.label-manager, .label-manager *')].filter((e) => e.getBoundingClientRect().right > 375).length`)).toBe(0);
      await page.setViewportSize({ width: 1280, height: 720 });

      // Rename it.
      await list.getByLabel('Name of label Needs design').fill('Design');
      await list.getByRole('button', { name: 'Save label Needs design' }).click();
      await list.getByLabel('Name of label Design').waitFor();
      await until('the rename in the API', async () => (await catalogue(workspaceId, owner.token))[0]?.name === 'Design');

      // Recolour it: the row's dot follows.
      await list.getByLabel('Colour of label Design').fill('#1188aa');
      await list.getByRole('button', { name: 'Save label Design' }).click();
      await until('the new colour in the API', async () => (await catalogue(workspaceId, owner.token))[0]?.color === '#1188aa');
      await until(
        'the saved colour on the page',
        async () => (await list.getByRole('button', { name: 'Save label Design' }).isDisabled()) && (await list.getByLabel('Colour of label Design').inputValue()) === '#1188aa',
      );
      expect(await page.evaluate('getComputedStyle(document.querySelector(".label-manager .label-dot")).backgroundColor')).toBe('rgb(17, 136, 170)');

      // A second label, then renaming it to the first's name: the API refuses, the page says why.
      await section.getByLabel('New label').fill('Backend');
      await section.getByRole('button', { name: 'Create label' }).click();
      await list.getByLabel('Name of label Backend').fill('Design');
      await list.getByRole('button', { name: 'Save label Backend' }).click();
      await list.getByRole('alert').getByText('A label named "Design" already exists').waitFor();
      expect((await catalogue(workspaceId, owner.token)).map((l) => l.name)).toEqual(['Backend', 'Design']);

      // The dark theme: the names stay in the page's text colour, and axe finds nothing.
      await page.emulateMedia({ colorScheme: 'dark' });
      await until('the dark theme', async () => (await page.evaluate('getComputedStyle(document.body).backgroundColor')) !== 'rgb(246, 247, 249)');
      expect(await axeViolations(page)).toEqual([]);
      await page.emulateMedia({ colorScheme: 'light' });

      // Delete "Design" through the confirm dialog: Cancel keeps it, Yes deletes it.
      await list.getByRole('button', { name: 'Delete Design' }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Delete the label Design?' });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect((await catalogue(workspaceId, owner.token)).map((l) => l.name)).toEqual(['Backend', 'Design']);
      await list.getByRole('button', { name: 'Delete Design' }).click();
      await dialog.getByRole('button', { name: 'Yes, delete' }).click();
      await list.getByLabel('Name of label Design').waitFor({ state: 'detached' });
      expect((await catalogue(workspaceId, owner.token)).map((l) => l.name)).toEqual(['Backend']);
      [label] = await catalogue(workspaceId, owner.token);
      expect(label?.name).toBe('Backend');

      // The refused rename logged one failed load in the browser; nothing else went wrong.
      expect(problems).toEqual([expect.stringContaining('status of 409')]);
    } finally {
      await close();
    }
  });

  it('from a task: the empty state offers a new label, which the task carries at once', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId, { name: 'Inline' });
    const task = await createTask(t, owner.token, project.id, { title: 'Wire the lamps' });
    const { page, problems, close } = await newPage();
    try {
      await signIn(page, owner.user.email, 'correct horse battery');
      await page.waitForURL((u) => u.pathname.startsWith('/w/'));
      await page.goto(`/w/${workspaceId}/p/${project.id}/t/${task.id}`);
      const panel = page.getByRole('dialog');
      const labels = panel.getByRole('region', { name: 'Labels' });
      await labels.getByText('The workspace has no labels yet: name the first one below and this task carries it.').waitFor();

      await labels.getByLabel('New label').fill('Electrics');
      await labels.getByRole('button', { name: 'Add label' }).click();
      await labels.getByRole('checkbox', { name: 'Electrics' }).waitFor();
      expect(await labels.getByRole('checkbox', { name: 'Electrics' }).isChecked()).toBe(true);
      expect(await labels.getByLabel('New label').inputValue()).toBe('');
      const onTask = (await t.api.get(`/label/task/${task.id}`, owner.token)).body as Label[];
      expect(onTask).toEqual([expect.objectContaining({ name: 'Electrics', taskId: task.id })]);
      expect((await catalogue(workspaceId, owner.token)).filter((l) => l.taskId === null).map((l) => l.name)).toEqual(['Electrics']);

      // Unticking takes it off the task; the catalogue keeps it.
      await labels.getByRole('checkbox', { name: 'Electrics' }).uncheck();
      await until('the label off the task', async () => ((await t.api.get(`/label/task/${task.id}`, owner.token)).body as Label[]).length === 0);
      expect(await axeViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('a viewer (no label:create) sees the labels and no control to create, change or delete one; a member does', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId, { name: 'Watched' });
    const task = await createTask(t, owner.token, project.id, { title: 'Only look' });
    expect((await t.api.post('/label', { name: 'visible', color: 'purple', workspaceId }, owner.token)).status).toBe(200);
    const viewer = await userWithRole(t, workspaceId, 'viewer');
    const member = await userWithRole(t, workspaceId, 'member');

    const seen = await newPage();
    try {
      const { page } = seen;
      await openSettings(page, viewer.user.email, workspaceId, project.id);
      const section = page.getByRole('region', { name: 'Labels' });
      await section.getByText('visible').waitFor();
      expect(await section.getByLabel('New label').count()).toBe(0);
      expect(await section.getByRole('textbox').count()).toBe(0);
      for (const name of ['Create label', /^Save label/, /^Delete /]) expect(await section.getByRole('button', { name }).count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);

      // In the task panel: the label shown, not tickable, and no "New label".
      await page.goto(`/w/${workspaceId}/p/${project.id}/t/${task.id}`);
      const labels = page.getByRole('dialog').getByRole('region', { name: 'Labels' });
      await labels.getByRole('checkbox', { name: 'visible' }).waitFor();
      expect(await labels.getByRole('checkbox', { name: 'visible' }).isDisabled()).toBe(true);
      expect(await labels.getByLabel('New label').count()).toBe(0);
      expect(seen.problems).toEqual([]);
    } finally {
      await seen.close();
    }

    const can = await newPage();
    try {
      const { page } = can;
      await openSettings(page, member.user.email, workspaceId, project.id);
      const section = page.getByRole('region', { name: 'Labels' });
      await section.getByLabel('New label').waitFor();
      await section.getByLabel('Name of label visible').waitFor();
      await section.getByRole('button', { name: 'Delete visible' }).waitFor();
      expect(can.problems).toEqual([]);
    } finally {
      await can.close();
    }
  });
});
