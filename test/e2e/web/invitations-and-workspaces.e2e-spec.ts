import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '../../support/app';
import { sql } from '../../support/fixtures';
import { until } from '../../support/until';
import { axeViolations, newPage as openPage, signIn, startWebApp, type WebApp } from '../../support/web-page';

/** Invitations without an email server, and workspaces made, renamed and deleted from the app (SMTP off). */
let t: TestApp;
let browser: Browser;
let origin: string;
let web: WebApp | undefined;
beforeAll(async () => {
  web = await startWebApp();
  ({ t, browser, origin } = web);
}, 60_000);
afterAll(() => web?.close());

const newPage = async () => {
  const opened = await openPage(browser, origin);
  opened.page.setDefaultTimeout(10_000);
  return opened;
};

/** The API lists invitations only to a verified address. */
const verify = (userId: string) => sql(t.databaseUrl, `UPDATE "user" SET email_verified = true WHERE id = $1`, [userId]);

type Ws = { id: string; name: string };
const workspacesOf = async (token: string) => (await t.api.get('/auth/organization/list', token)).body as Ws[];

/** What the page's focused field has selected (the fallback when the clipboard is refused). */
const selectedText = (page: Page) =>
  page.evaluate('(() => { const el = document.activeElement; return el && "value" in el ? el.value.slice(el.selectionStart, el.selectionEnd) : ""; })()') as Promise<string>;

describe('invitations without SMTP', () => {
  it('shows the copyable link; the invitee sees the invitation named on home and on the accept page, accepts and lands in the workspace', async () => {
    const owner = await t.api.signUp({ name: 'Olive Owner' });
    const ws = await t.api.createWorkspace(owner.token, 'Orchard');
    const invitee = await t.api.signUp({ name: 'Ivan Invitee' });
    await verify(invitee.user.id);

    const o = await newPage();
    let link: string;
    try {
      await signIn(o.page, owner.user.email, owner.password);
      await o.page.waitForURL(`**/w/${ws.id}`);
      await o.page.getByRole('link', { name: 'People' }).click();
      await o.page.getByLabel('Email to invite').fill(invitee.user.email);
      await o.page.getByRole('button', { name: 'Invite', exact: true }).click();
      await o.page.getByRole('status').filter({ hasText: 'The email was not sent because this instance has no email server' }).waitFor();
      const invitations = (await t.api.get(`/auth/organization/list-invitations?organizationId=${ws.id}`, owner.token)).body as { id: string; email: string }[];
      const inv = invitations.find((i) => i.email === invitee.user.email)!;
      expect(inv).toBeDefined();
      const field = o.page.getByRole('textbox', { name: `Invitation link for ${invitee.user.email}` });
      link = await field.inputValue();
      expect(link).toMatch(new RegExp(`^https?://[^/]+/invitation/accept/${inv.id}$`));
      expect(await field.getAttribute('readonly')).not.toBeNull();
      await o.page.getByRole('button', { name: `Copy link for ${invitee.user.email}` }).click();
      // The clipboard may be refused to a headless page: then the link is selected for a manual copy.
      const said = o.page.getByText(/^(Link copied\.|The link is selected)/);
      await said.waitFor();
      if ((await said.textContent())!.startsWith('The link is selected')) expect(await selectedText(o.page)).toBe(link);
      else expect(await o.page.evaluate('navigator.clipboard.readText()')).toBe(link);
      expect(await axeViolations(o.page)).toEqual([]);
      // After a reload (the notice gone), the pending invitation still offers its link.
      await o.page.reload();
      const row = o.page.getByRole('list', { name: 'Pending invitations' }).getByRole('listitem').filter({ hasText: invitee.user.email });
      expect(await row.getByRole('textbox', { name: `Invitation link for ${invitee.user.email}` }).inputValue()).toBe(link);
      expect(o.problems).toEqual([]);
    } finally {
      await o.close();
    }

    const i = await newPage();
    try {
      await signIn(i.page, invitee.user.email, invitee.password);
      // No workspace yet: the home page stays, with the invitation naming the workspace and the inviter.
      const pending = i.page.getByRole('list', { name: 'Pending invitations' }).getByRole('listitem');
      await pending.filter({ hasText: 'Orchard' }).waitFor();
      await expect(pending.textContent()).resolves.toContain('Olive Owner invited you as member');
      expect(await axeViolations(i.page)).toEqual([]);

      // The link the owner copied: the accept page names the workspace and the inviter.
      await i.page.goto(new URL(link).pathname);
      await i.page.getByRole('heading', { name: 'Join Orchard' }).waitFor();
      await i.page.getByText('Olive Owner invited you to join the workspace Orchard as member.').waitFor();
      expect(await axeViolations(i.page)).toEqual([]);

      // Accepted from the home page (the accept page has no top bar): it opens the workspace.
      await i.page.goto('/');
      await i.page.getByRole('button', { name: 'Accept the invitation to Orchard' }).click();
      await i.page.waitForURL(`**/w/${ws.id}`);
      await i.page.getByRole('heading', { name: 'Projects' }).waitFor();
      const members = (await t.api.get(`/auth/organization/list-members?organizationId=${ws.id}`, owner.token)).body as { userId: string; role: string }[];
      expect(members.find((m) => m.userId === invitee.user.id)?.role).toBe('member');

      // Now answered: the accept page says it is no longer pending.
      await i.page.goto(new URL(link).pathname);
      await i.page.getByText('This invitation is no longer pending, or it is addressed to another email').waitFor();
      expect(i.problems).toEqual([]);
    } finally {
      await i.close();
    }
  }, 90_000);
});

describe('workspaces from the app', () => {
  it('makes a second workspace from home, renames it and deletes it after typing its name', async () => {
    const owner = await t.api.signUp({ name: 'Wanda Workspaces' });
    const first = await t.api.createWorkspace(owner.token, 'First place');
    const { page, problems, close } = await newPage();
    try {
      await signIn(page, owner.user.email, owner.password);
      await page.waitForURL(`**/w/${first.id}`);
      // Back home (the brand link): "New workspace" is there although there is a workspace.
      await page.getByRole('link', { name: 'Tandem' }).click();
      await page.getByRole('link', { name: 'First place' }).waitFor();
      await page.getByLabel('New workspace').fill('Second place');
      await page.getByRole('button', { name: 'Create workspace' }).click();
      const second = await until('the second workspace', async () => (await workspacesOf(owner.token)).find((w) => w.name === 'Second place'));
      await page.waitForURL(`**/w/${second.id}`);

      await page.getByRole('heading', { name: 'Workspace settings' }).waitFor();
      await page.getByLabel('Workspace name').fill('Renamed place');
      await page.getByRole('button', { name: 'Rename' }).click();
      await until('the rename', async () => (await workspacesOf(owner.token)).find((w) => w.id === second.id)?.name === 'Renamed place');
      expect(await axeViolations(page)).toEqual([]);

      await page.getByRole('button', { name: 'Delete workspace' }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Delete Renamed place?' });
      await dialog.waitFor();
      const confirm = dialog.getByRole('button', { name: 'Delete for good' });
      expect(await confirm.isDisabled()).toBe(true);
      await dialog.getByLabel('Type the workspace name to confirm').fill('Renamed place');
      expect(await confirm.isDisabled()).toBe(false);
      expect(await axeViolations(page)).toEqual([]);
      await confirm.click();
      await page.waitForURL((u) => u.pathname === '/');
      await until('the deletion', async () => !(await workspacesOf(owner.token)).some((w) => w.id === second.id));
      expect((await workspacesOf(owner.token)).map((w) => w.id)).toEqual([first.id]);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('offers no workspace settings to a member without organization:update or delete', async () => {
    const owner = await t.api.signUp();
    const ws = await t.api.createWorkspace(owner.token, 'Guarded');
    const viewer = await t.api.signUp();
    await sql(t.databaseUrl, `INSERT INTO member (organization_id, user_id, role) VALUES ($1, $2, 'member')`, [ws.id, viewer.user.id]);
    const { page, problems, close } = await newPage();
    try {
      await signIn(page, viewer.user.email, viewer.password);
      await page.waitForURL(`**/w/${ws.id}`);
      await page.getByRole('heading', { name: 'Projects' }).waitFor();
      // Permissions loaded (the project form shows for members) and still no settings.
      await page.getByLabel('New project').waitFor();
      expect(await page.getByRole('heading', { name: 'Workspace settings' }).count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
