import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '../../support/app';
import { until } from '../../support/until';
import { axeViolations, card, newPage as openPage, signIn, startWebApp, type WebApp } from '../../support/web-page';
import { createProject, createTask, ownerWithWorkspace, userWithRole } from '../../support/work-items';

/** Project settings (columns, details, archive) and notification preferences in a real Chromium against the real service. */
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

/** The page's width at a 375 px wide phone screen (wider: the page scrolls sideways). */
async function widthAt375(page: Page): Promise<number> {
  const before = page.viewportSize();
  await page.setViewportSize({ width: 375, height: 800 });
  const width = (await page.evaluate('document.documentElement.scrollWidth')) as number;
  if (before) await page.setViewportSize(before);
  return width;
}

describe('project settings', () => {
  it('columns: add, rename, move left (the board follows), a column with a task is not deleted; rename and archive the project', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId, { name: 'Orrery' });
    await createTask(t, owner.token, project.id, { title: 'Polish the brass' });
    const apiColumns = async () => ((await t.api.get(`/column/${project.id}`, owner.token)).body as { id: string; name: string; slug: string }[]).map((c) => c.name);
    const before = await apiColumns();
    const { page, problems, close } = await newPage();
    try {
      await signIn(page, owner.user.email, 'correct horse battery');
      await page.waitForURL((u) => u.pathname.startsWith('/w/'));
      await page.goto(`/w/${workspaceId}/p/${project.id}`);
      await card(page, 'Polish the brass').waitFor();
      await page.getByRole('link', { name: 'Settings' }).click();
      await page.waitForURL(`**/w/${workspaceId}/p/${project.id}/settings`);
      const columns = page.getByRole('list', { name: 'Columns in board order' });
      await columns.getByRole('listitem').first().waitFor();
      expect(await axeViolations(page)).toEqual([]);

      // Add "Blocked": it comes last.
      await page.getByLabel('New column').fill('Blocked');
      await page.getByRole('button', { name: 'Add column' }).click();
      await columns.getByLabel('Name of column Blocked').waitFor();
      expect(await apiColumns()).toEqual([...before, 'Blocked']);

      // Rename it.
      await columns.getByLabel('Name of column Blocked').fill('Blocked by others');
      await columns.getByRole('button', { name: 'Rename column Blocked' }).click();
      await columns.getByLabel('Name of column Blocked by others').waitFor();
      await until('the rename in the API', async () => (await apiColumns()).includes('Blocked by others'));

      // Move it left, with the keyboard: the focus stays on the moved column's button.
      await columns.getByRole('button', { name: 'Move Blocked by others left' }).focus();
      await page.keyboard.press('Enter');
      const moved = [...before.slice(0, -1), 'Blocked by others', before[before.length - 1]!];
      await until('the new order in the API', async () => JSON.stringify(await apiColumns()) === JSON.stringify(moved));
      await until(
        'the new order on the page',
        async () => JSON.stringify(await columns.locator('input').evaluateAll((els) => els.map((e) => (e as unknown as { value: string }).value))) === JSON.stringify(moved),
      );
      await until('the focus on the moved column', async () => (await page.evaluate('document.activeElement?.getAttribute("aria-label")')) === 'Move Blocked by others left');

      // Deleting the first column, which holds the task: the API's message, and the column stays.
      const first = before[0]!;
      await columns.getByRole('button', { name: `Delete ${first}` }).click();
      await page
        .getByRole('alertdialog', { name: `Delete the column ${first}?` })
        .getByRole('button', { name: 'Yes, delete' })
        .click();
      await page.getByRole('alert').getByText('Column still holds tasks; move them first').waitFor();
      expect(await apiColumns()).toEqual(moved);
      expect(await columns.getByLabel(`Name of column ${first}`).count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
      expect(await widthAt375(page)).toBeLessThanOrEqual(375);

      // Rename the project.
      await page.getByLabel('Project name').fill('Grand Orrery');
      await page.getByRole('button', { name: 'Save project' }).click();
      await page.getByRole('status').getByText('Project saved.').waitFor();
      expect((await t.api.get(`/project/${project.id}`, owner.token)).body.name).toBe('Grand Orrery');

      // The board: the new title, and its columns in the new order.
      await page.getByRole('link', { name: '← Back to the board' }).click();
      await page.getByRole('heading', { name: 'Grand Orrery', level: 1 }).waitFor();
      await card(page, 'Polish the brass').waitFor();
      const headings = await page.locator('.board .column h2').evaluateAll((els) => els.map((e) => (e.firstChild?.textContent ?? '').trim()));
      expect(headings).toEqual(moved);

      // Archive it: it leaves the workspace's project list.
      await page.getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('button', { name: 'Archive project' }).click();
      await page.getByRole('button', { name: 'Unarchive project' }).waitFor();
      expect((await t.api.get(`/project/${project.id}`, owner.token)).body.archivedAt).toEqual(expect.any(String));
      await page.goto(`/w/${workspaceId}`);
      await page.getByRole('heading', { name: 'Projects' }).waitFor();
      await page.getByText('No projects yet.').waitFor();
      expect(await page.getByRole('link', { name: /Grand Orrery/ }).count()).toBe(0);

      // The refused delete logged one failed load in the browser; nothing else went wrong.
      expect(problems).toEqual([expect.stringContaining('status of 409')]);
    } finally {
      await close();
    }
  });

  it('a member without project:update sees the settings and no controls; delete takes the owner back to the workspace', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId, { name: 'Readonly' });
    const member = await userWithRole(t, workspaceId, 'member');
    const { page, problems, close } = await newPage();
    try {
      await signIn(page, member.user.email, 'correct horse battery');
      await page.waitForURL((u) => u.pathname.startsWith('/w/'));
      await page.goto(`/w/${workspaceId}/p/${project.id}/settings`);
      await page.getByRole('list', { name: 'Columns in board order' }).getByRole('listitem').first().waitFor();
      // A member's roles lack project:update and project:delete (docs/decisions-local.md): nothing to press.
      await page.getByText('Your roles let you see these settings, not change them.').waitFor();
      expect(await page.getByLabel('Project name').isDisabled()).toBe(true);
      for (const name of ['Add column', 'Save project', 'Archive project', 'Delete project', /^Move /, /^Delete /])
        expect(await page.getByRole('button', { name }).count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }

    const owned = await newPage();
    try {
      await signIn(owned.page, owner.user.email, 'correct horse battery');
      await owned.page.waitForURL((u) => u.pathname.startsWith('/w/'));
      await owned.page.goto(`/w/${workspaceId}/p/${project.id}/settings`);
      await owned.page.getByRole('button', { name: 'Delete project' }).click();
      await owned.page.getByRole('button', { name: 'Yes, delete it' }).click();
      await owned.page.waitForURL(`**/w/${workspaceId}`);
      await owned.page.getByText('No projects yet.').waitFor();
      expect((await t.api.get(`/project/${project.id}`, owner.token)).status).toBe(404);
      expect(owned.problems).toEqual([]);
    } finally {
      await owned.close();
    }
  });
});

describe('notification preferences', () => {
  it('the webhook channel with a URL and a secret (masked), then a workspace rule for selected projects', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const wanted = await createProject(t, owner.token, workspaceId, { name: 'Wanted' });
    await createProject(t, owner.token, workspaceId, { name: 'Ignored' });
    const prefs = async () => (await t.api.get('/notification-preferences', owner.token)).body;
    const { page, problems, close } = await newPage();
    try {
      await signIn(page, owner.user.email, 'correct horse battery');
      await page.waitForURL((u) => u.pathname.startsWith('/w/'));
      await page.goto('/account');
      await page.getByRole('link', { name: 'Notification preferences' }).click();
      await page.waitForURL('**/account/notifications');
      await page.getByRole('heading', { name: 'Notification preferences' }).waitFor();
      await page.getByLabel('Webhook notifications').waitFor();
      expect(await axeViolations(page)).toEqual([]);

      await page.getByLabel('Webhook notifications').check();
      await page.getByLabel('Webhook URL').fill('http://127.0.0.1:9/hook');
      await page.getByRole('textbox', { name: 'Webhook signing secret' }).fill('s3cret-signing-value');
      await page.getByRole('button', { name: 'Save channels' }).click();
      await page.getByRole('status').getByText('Channels saved.').waitFor();
      expect(await prefs()).toMatchObject({
        webhookEnabled: true,
        webhookUrl: 'http://127.0.0.1:9/hook',
        webhookSecretConfigured: true,
        maskedWebhookSecret: 's3cr\u2026alue',
        emailEnabled: false,
      });
      // The page shows the mask, never the secret, and the field is empty again.
      await page.getByText('s3cr\u2026alue').waitFor();
      expect(await page.getByRole('textbox', { name: 'Webhook signing secret' }).inputValue()).toBe('');
      expect(await page.content()).not.toContain('s3cret-signing-value');

      // The workspace's rule: selected projects, none ticked → the API's 400; then one ticked.
      const rule = page.locator(`form[data-workspace="${workspaceId}"]`);
      await rule.getByLabel('Selected projects').check();
      await rule.getByRole('button', { name: /^Save rule for/ }).click();
      await rule.getByRole('alert').getByText('selectedProjectIds must not be empty when projectMode is selected').waitFor();
      expect((await prefs()).workspaces).toEqual([]);
      await rule.getByRole('checkbox', { name: 'Wanted' }).check();
      await rule.getByRole('button', { name: /^Save rule for/ }).click();
      await rule.getByRole('status').getByText('Rule saved.').waitFor();
      expect((await prefs()).workspaces).toEqual([
        expect.objectContaining({ workspaceId, isActive: true, webhookEnabled: true, emailEnabled: false, projectMode: 'selected', selectedProjectIds: [wanted.id] }),
      ]);
      expect(await axeViolations(page)).toEqual([]);
      expect(await widthAt375(page)).toBeLessThanOrEqual(375);

      // A reload shows what was saved.
      await page.reload();
      await page.locator(`form[data-workspace="${workspaceId}"]`).getByRole('checkbox', { name: 'Wanted' }).waitFor();
      expect(await page.locator(`form[data-workspace="${workspaceId}"]`).getByRole('checkbox', { name: 'Wanted' }).isChecked()).toBe(true);
      expect(await page.locator(`form[data-workspace="${workspaceId}"]`).getByRole('checkbox', { name: 'Ignored' }).isChecked()).toBe(false);
      expect(await page.getByLabel('Webhook notifications').isChecked()).toBe(true);

      // The emails' preferences link (docs/notifications.md) opens the same page.
      await page.goto('/settings/notifications');
      await page.getByRole('heading', { name: 'Notification preferences' }).waitFor();
      await page.getByText('s3cr\u2026alue').waitFor();

      // The refused rule logged one failed load in the browser; nothing else went wrong.
      expect(problems).toEqual([expect.stringContaining('status of 400')]);
    } finally {
      await close();
    }
  });
});
