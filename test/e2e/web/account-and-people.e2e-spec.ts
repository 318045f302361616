import type { Browser, Page } from 'playwright-core';
import { startTestApp, TestApp } from '../../support/app';
import { TestSmtpServer } from '../../support/smtp';
import { until } from '../../support/until';
import { axeViolations, newPage as openPage, signIn, startWebApp, type WebApp } from '../../support/web-page';
import { ownerWithWorkspace, userWithRole } from '../../support/work-items';

/** The account page and a workspace's people page in a real Chromium against the real service. */
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

// A step that does not happen fails naming itself, well within the test's own timeout.
const newPage = async () => {
  const opened = await openPage(browser, origin);
  opened.page.setDefaultTimeout(8_000);
  return opened;
};
const PASSWORD = 'correct horse battery';

/** The page's width at a 375 px wide phone screen (wider: the page scrolls sideways). */
async function widthAt375(page: Page, shot?: string): Promise<number> {
  const before = page.viewportSize();
  await page.setViewportSize({ width: 375, height: 800 });
  const width = (await page.evaluate('document.documentElement.scrollWidth')) as number;
  if (shot) await page.screenshot({ path: shot, fullPage: true });
  if (before) await page.setViewportSize(before);
  return width;
}

async function signedIn(page: Page, email: string, password = PASSWORD) {
  await signIn(page, email, password);
  await page.waitForURL((u) => u.pathname.startsWith('/w/'));
}

describe('the account page', () => {
  it('profile, an API key with one scope shown once and deleted, and a session revoked', async () => {
    const { owner } = await ownerWithWorkspace(t);
    const { page, problems, close } = await newPage();
    try {
      await signedIn(page, owner.user.email);
      await page.getByRole('button', { name: /^Your account/ }).click();
      await page.getByRole('menuitem', { name: 'Account' }).click();
      await page.waitForURL('**/account');
      await page.getByRole('heading', { name: 'Your account' }).waitFor();
      await page.getByRole('list', { name: 'Sessions' }).waitFor();
      await page.getByRole('checkbox', { name: 'workspace:read', exact: true }).waitFor();
      expect(await axeViolations(page)).toEqual([]);

      // The name: saved, shown in the header, and the API has it.
      await page.getByLabel('Name', { exact: true }).fill('Grace Hopper');
      await page.getByRole('button', { name: 'Save profile' }).click();
      await page.getByRole('button', { name: 'Your account: Grace Hopper' }).waitFor();
      expect((await t.api.get('/auth/get-session', owner.token)).body.user.name).toBe('Grace Hopper');

      // A key limited to workspace:read.
      await page.getByLabel('Key name').fill('ci reader');
      await page.getByLabel('Expires').selectOption({ label: 'In 30 days' });
      await page.getByRole('checkbox', { name: 'workspace:read', exact: true }).check();
      await page.getByRole('button', { name: 'Create key' }).click();
      const field = page.getByLabel('Your new API key');
      await field.waitFor();
      await page.getByText('it is shown only this once').waitFor();
      const key = await field.inputValue();
      expect(key.length).toBeGreaterThan(20);
      expect(await widthAt375(page, process.env.WEB_SHOTS && `${process.env.WEB_SHOTS}/account.png`)).toBeLessThanOrEqual(375);
      const asKey = { headers: { 'x-api-key': key } };
      const listed = await t.api.get('/auth/organization/list', undefined, asKey);
      expect(listed.status).toBe(200);
      // Its scope is what the page sent: the key may not list keys (that needs an unscoped key).
      expect((await t.api.get('/auth/api-key/list', undefined, asKey)).status).toBe(403);
      const row = page.getByRole('list', { name: 'API keys' }).getByRole('listitem').filter({ hasText: 'ci reader' });
      await row.getByText('Scopes: workspace:read').waitFor();
      const [apiKey] = (await t.api.get('/auth/api-key/list', owner.token)).body as { name: string; expiresAt: string; permissions: unknown }[];
      expect(apiKey!.name).toBe('ci reader');
      expect(apiKey!.permissions).toEqual({ workspace: ['read'] });
      expect(Math.abs(Date.parse(apiKey!.expiresAt) - Date.now() - 30 * 86_400_000)).toBeLessThan(120_000);

      // Shown once: gone once dismissed, and not on the page after a reload.
      await page.getByRole('button', { name: 'Done' }).click();
      expect(await field.count()).toBe(0);
      await page.reload();
      await row.waitFor();
      expect(await page.content()).not.toContain(key);

      // Delete, confirmed; then the key no longer works.
      await row.getByRole('button', { name: 'Delete ci reader' }).click();
      await page.getByRole('alertdialog', { name: 'Delete ci reader?' }).getByRole('button', { name: 'Delete', exact: true }).click();
      await page.getByText('No API keys yet.').waitFor();
      expect((await t.api.get('/auth/organization/list', undefined, asKey)).status).toBe(401);

      // A second sign-in of the same user shows up; Revoke ends it.
      const second = await t.api.post('/auth/sign-in/email', { email: owner.user.email, password: PASSWORD }, undefined, { headers: { 'user-agent': 'second-device-cli/1.0' } });
      expect(second.status).toBe(200);
      await page.reload();
      const sessions = page.getByRole('list', { name: 'Sessions' });
      const secondRow = sessions.getByRole('listitem').filter({ hasText: 'second-device-cli/1.0' });
      await secondRow.waitFor();
      expect(await sessions.getByRole('listitem').filter({ hasText: 'This browser' }).count()).toBe(1);
      expect(await secondRow.getByText('This browser').count()).toBe(0);
      await secondRow.getByRole('button', { name: 'Revoke' }).click();
      await secondRow.waitFor({ state: 'detached' });
      expect((await t.api.get('/auth/get-session', second.body.token)).status).toBe(401);
      // The browser's own session goes on.
      expect(await page.evaluate(`fetch('/api/auth/get-session').then((r) => r.status)`)).toBe(200);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('changing the password signs out the other sessions unless unticked', async () => {
    const { owner } = await ownerWithWorkspace(t);
    const { page, problems, close } = await newPage();
    try {
      await signedIn(page, owner.user.email);
      await page.goto('/account');
      const box = page.getByLabel('Sign out my other sessions');
      expect(await box.isChecked()).toBe(true);
      await page.getByLabel('Current password').fill(PASSWORD);
      await page.getByLabel('New password').fill('a much newer horse');
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByText('Password changed.').waitFor();
      // The sign-up session (another session) ended; the browser's did not.
      expect((await t.api.get('/auth/get-session', owner.token)).status).toBe(401);
      expect(await page.evaluate(`fetch('/api/auth/get-session').then((r) => r.status)`)).toBe(200);

      // Unticked: another session stays.
      const other = await t.api.post('/auth/sign-in/email', { email: owner.user.email, password: 'a much newer horse' });
      expect(other.status).toBe(200);
      await box.uncheck();
      await page.getByLabel('Current password').fill('a much newer horse');
      await page.getByLabel('New password').fill('the newest horse yet');
      await page.getByRole('button', { name: 'Change password' }).click();
      // The form empties once the API said yes.
      await until('the second change', async () => (await page.getByLabel('Current password').inputValue()) === '', 8_000);
      expect((await t.api.post('/auth/sign-in/email', { email: owner.user.email, password: 'the newest horse yet' })).status).toBe(200);
      expect((await t.api.get('/auth/get-session', other.body.token)).status).toBe(200);

      // A wrong current password: the API's message.
      await page.getByLabel('Current password').fill('not the password');
      await page.getByLabel('New password').fill('yet another horse');
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByRole('alert').filter({ hasText: 'Invalid password' }).waitFor();
      expect(problems.filter((p) => !/status of 400/.test(p))).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe('the people page', () => {
  it('the owner invites and cancels, changes a role; a viewer gets no controls', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const bob = await userWithRole(t, workspaceId, 'member');
    const viewer = await userWithRole(t, workspaceId, 'viewer');
    const o = await newPage();
    const v = await newPage();
    try {
      await signedIn(o.page, owner.user.email);
      await o.page.getByRole('link', { name: 'People' }).click();
      await o.page.waitForURL(`**/w/${workspaceId}/members`);
      const members = o.page.getByRole('list', { name: 'Members' });
      await members.getByText(bob.user.email, { exact: true }).waitFor();
      await o.page.getByText('No pending invitations.').waitFor();
      expect(await axeViolations(o.page)).toEqual([]);

      // Invite an email as member: pending; cancel it: gone.
      const email = `invitee${Date.now()}@example.test`;
      await o.page.getByLabel('Email to invite').fill(email);
      await o.page.getByLabel('Role', { exact: true }).selectOption('member');
      await o.page.getByRole('button', { name: 'Invite' }).click();
      const pending = o.page.getByRole('list', { name: 'Pending invitations' });
      await pending
        .getByRole('listitem')
        .filter({ hasText: email })
        .getByText(/^member ·/)
        .waitFor();
      const invitations = async () =>
        (await t.api.get(`/auth/organization/list-invitations?organizationId=${workspaceId}`, owner.token)).body as { email: string; role: string; status: string }[];
      expect((await invitations()).map((i) => [i.email, i.role, i.status])).toEqual([[email, 'member', 'pending']]);
      // Resend: the same invitation, 48 hours from now again.
      const expiry = async () =>
        ((await t.api.get(`/auth/organization/list-invitations?organizationId=${workspaceId}`, owner.token)).body as { expiresAt: string }[])[0]!.expiresAt;
      const before = await expiry();
      await o.page.getByRole('button', { name: `Resend the invitation to ${email}` }).click();
      await until('a later expiry', async () => (await expiry()) > before);
      expect(await axeViolations(o.page)).toEqual([]);
      expect(await widthAt375(o.page, process.env.WEB_SHOTS && `${process.env.WEB_SHOTS}/people.png`)).toBeLessThanOrEqual(375);
      await o.page.getByRole('button', { name: `Cancel the invitation to ${email}` }).click();
      await o.page.getByText('No pending invitations.').waitFor();
      expect((await invitations()).map((i) => i.status)).toEqual(['canceled']);

      // Bob's role: member → admin.
      await o.page.getByLabel(`Role of Test User (${bob.user.email})`).selectOption('admin');
      const roleOf = async (userId: string) =>
        ((await t.api.get(`/auth/organization/list-members?organizationId=${workspaceId}`, owner.token)).body as { userId: string; role: string }[]).find(
          (m) => m.userId === userId,
        )?.role;
      await until('the API to say admin', async () => (await roleOf(bob.user.id)) === 'admin');
      await until('the page to say admin', async () => (await o.page.getByLabel(`Role of Test User (${bob.user.email})`).inputValue()) === 'admin', 8_000);
      expect(o.problems).toEqual([]);

      // A team.
      await o.page.getByLabel('New team').fill('Design');
      await o.page.getByRole('button', { name: 'Create team' }).click();
      await o.page.getByRole('list', { name: 'Teams' }).getByText('Design', { exact: true }).waitFor();
      const teams = (await t.api.get(`/auth/organization/list-teams?organizationId=${workspaceId}`, owner.token)).body as { name: string }[];
      expect(teams.map((x) => x.name)).toContain('Design');
      // Bob joins the team and leaves it again.
      const design = (teams as { id: string; name: string }[]).find((x) => x.name === 'Design')!;
      const inDesign = async () => ((await t.api.get(`/auth/organization/list-team-members?teamId=${design.id}`, owner.token)).body as { userId: string }[]).map((r) => r.userId);
      await o.page.getByLabel('Add a member to Design').selectOption(bob.user.id);
      await o.page.getByRole('list', { name: 'Teams' }).getByRole('listitem').filter({ hasText: 'Design' }).getByRole('button', { name: 'Add', exact: true }).click();
      await o.page
        .getByRole('list', { name: 'Members of Design' })
        .getByText(bob.user.name || bob.user.email)
        .waitFor();
      await until('the API to list Bob in Design', async () => (await inDesign()).includes(bob.user.id));
      await o.page.getByRole('button', { name: `Remove ${bob.user.name || bob.user.email} from Design` }).click();
      await o.page.getByRole('list', { name: 'Teams' }).getByRole('listitem').filter({ hasText: 'Design' }).getByText('No members.').waitFor();
      expect(await inDesign()).toEqual([]);
      await o.page.getByRole('list', { name: 'Teams' }).getByRole('listitem').filter({ hasText: 'Design' }).getByRole('button', { name: 'Delete' }).click();
      await o.page.getByRole('alertdialog', { name: 'Delete the team Design?' }).getByRole('button', { name: 'Yes, delete Design' }).click();
      await o.page.getByRole('list', { name: 'Teams' }).getByText('Design', { exact: true }).waitFor({ state: 'detached' });
      const left = (await t.api.get(`/auth/organization/list-teams?organizationId=${workspaceId}`, owner.token)).body as { name: string }[];
      expect(left.map((x) => x.name)).not.toContain('Design');

      // A viewer: the members, no role, remove or invite controls.
      await signedIn(v.page, viewer.user.email);
      const permissions = v.page.waitForResponse((r) => r.url().includes('/my-permissions') && r.status() === 200);
      await v.page.goto(`/w/${workspaceId}/members`);
      await permissions;
      await v.page.getByRole('list', { name: 'Members' }).getByText(bob.user.email, { exact: true }).waitFor();
      await v.page.getByRole('heading', { name: 'Teams' }).waitFor();
      expect(await v.page.getByRole('combobox', { name: /^Role of / }).count()).toBe(0);
      expect(await v.page.getByRole('button', { name: /^Remove / }).count()).toBe(0);
      expect(await v.page.getByLabel('Email to invite').count()).toBe(0);
      expect(await v.page.getByRole('heading', { name: 'Invitations' }).count()).toBe(0);
      expect(await v.page.getByLabel('New team').count()).toBe(0);
      // The owner has them all (the same page, other roles).
      expect(
        await o.page
          .getByRole('list', { name: 'Members', exact: true })
          .getByRole('button', { name: /^Remove / })
          .count(),
      ).toBe(2);
      expect(await o.page.getByLabel('New team').count()).toBe(1);
      expect(await axeViolations(v.page)).toEqual([]);
      expect(v.problems).toEqual([]);
    } finally {
      await o.close();
      await v.close();
    }
  });
});

describe('the pages the emails link to', () => {
  // Another instance with SMTP (a real server on loopback) and a public address of its own, as the
  // emails show it; the browser follows each link's path and query on the instance's real port.
  const smtp = new TestSmtpServer();
  let m: TestApp;
  let mOrigin: string;
  beforeAll(async () => {
    const port = await smtp.start();
    m = await startTestApp({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(port), CLIENT_URL: 'http://app.tandem.test' });
    mOrigin = m.url.replace(/\/api$/, '');
  }, 60_000);
  afterAll(async () => {
    await m?.close();
    await smtp.stop();
  });
  const mPage = async () => {
    const opened = await openPage(browser, mOrigin);
    opened.page.setDefaultTimeout(8_000);
    return opened;
  };
  /** The token link of the mail with `subject` to `to`, as the path and query to open on the instance. */
  const linkIn = async (to: string, subject: string, path: RegExp) => {
    const mail = await until(`"${subject}" to ${to}`, () => smtp.to(to).find((x) => x.parsed.subject?.startsWith(subject)));
    const links = ((mail.parsed.text ?? '').match(/https?:\/\/\S+/g) ?? []).map((l) => new URL(l)).filter((l) => path.test(l.pathname));
    expect(links).toHaveLength(1);
    return links[0]!;
  };

  it('the invitation email: its link asks for a sign-in, then joins', async () => {
    const owner = await m.api.signUp();
    const ws = await m.api.createWorkspace(owner.token);
    const invitee = await m.api.signUp({ name: 'Ivy Invitee' });
    const inv = await m.api.post('/auth/organization/invite-member', { organizationId: ws.id, email: invitee.user.email, role: 'member' }, owner.token);
    expect(inv.status).toBe(200);
    const link = await linkIn(invitee.user.email, 'Test User invited you', /^\/invitation\/accept\//);
    expect(link.origin + link.pathname).toBe(`http://app.tandem.test/invitation/accept/${inv.body.id}`);
    const { page, problems, close } = await mPage();
    try {
      await page.goto(link.pathname);
      await page.waitForURL('**/sign-in?next=*');
      await page.getByLabel('Email').fill(invitee.user.email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`**${link.pathname}`);
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Join the workspace' }).click();
      await page.getByText('You joined as member.').waitFor();
      const members = (await m.api.get(`/auth/organization/list-members?organizationId=${ws.id}`, owner.token)).body as { userId: string; role: string }[];
      expect(members.find((x) => x.userId === invitee.user.id)?.role).toBe('member');
      // Once more: the API's message.
      await page.reload();
      await page.getByRole('button', { name: 'Join the workspace' }).click();
      await page.getByRole('alert').filter({ hasText: 'Invitation is no longer pending' }).waitFor();
      expect(problems.filter((p) => !/status of 400/.test(p))).toEqual([]);
    } finally {
      await close();
    }
  });

  it('the account page sends the verification link, which comes back to it', async () => {
    const user = await m.api.signUp({ name: 'Vera Unverified' });
    const { page, problems, close } = await mPage();
    try {
      await signIn(page, user.user.email, PASSWORD);
      await page.waitForURL((u) => u.pathname === '/');
      await page.goto('/account');
      await page.getByText('Your email address is not verified yet.').waitFor();
      // No key until the address is proven: the API's message.
      await page.getByLabel('Key name').fill('too early');
      await page.getByRole('button', { name: 'Create key' }).click();
      await page.getByRole('alert').filter({ hasText: 'Email not verified' }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Send a verification link' }).click();
      await page.getByText('follow the link in the email').waitFor();
      // The second verification email (sign-up sent the first) carries the way back to the app.
      const mail = await until('a second verification email', () => {
        const got = smtp.to(user.user.email).filter((x) => x.parsed.subject?.startsWith('Verify your email address'));
        return got.length >= 2 ? got[1] : null;
      });
      const link = new URL((mail.parsed.text ?? '').match(/https?:\/\/\S*verify-email\S*/)![0]);
      expect(link.searchParams.get('callbackURL')).toBe('http://app.tandem.test/verify-email?verified=1');
      const followed = await m.api.get(link.pathname.replace(/^\/api/, '') + link.search);
      expect([followed.status, followed.headers.get('location')]).toEqual([302, 'http://app.tandem.test/verify-email?verified=1']);
      expect((await m.api.post('/auth/sign-in/email', { email: user.user.email, password: PASSWORD })).body.user.emailVerified).toBe(true);
      expect(problems.filter((p) => !/status of 403/.test(p))).toEqual([]);
    } finally {
      await close();
    }
  });

  it("signing up in the app: the verification email's link verifies and comes back to the app's page", async () => {
    const email = `signup${Date.now()}@example.test`;
    const { page, problems, close } = await mPage();
    try {
      await page.goto('/sign-up');
      await page.getByLabel('Name').fill('Sam Signup');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign up' }).click();
      await page.waitForURL((u) => u.pathname === '/');
      const link = await linkIn(email, 'Verify your email address', /verify-email$/);
      expect(link.searchParams.get('callbackURL')).toBe('http://app.tandem.test/verify-email?verified=1');
      // The API's link verifies and sends the browser to the app's page (app.tandem.test is not
      // a real host: the redirect is read, then its path opened on the instance).
      const followed = await m.api.get(link.pathname.replace(/^\/api/, '') + link.search);
      expect([followed.status, followed.headers.get('location')]).toEqual([302, 'http://app.tandem.test/verify-email?verified=1']);
      await page.goto('/verify-email?verified=1');
      await page.getByText('Your email is verified.').waitFor();
      expect(await axeViolations(page)).toEqual([]);
      expect((await m.api.post('/auth/sign-in/email', { email, password: PASSWORD })).body.user.emailVerified).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('the verification token verifies; a forgotten password: the reset email’s link sets a new one', async () => {
    const user = await m.api.signUp({ name: 'Rita Reset' });
    const { page, problems, close } = await mPage();
    try {
      // The verification email's link is the API's own (docs/accounts.md, "Emails"); its token works on the app's page too.
      const verifyLink = await linkIn(user.user.email, 'Verify your email address', /verify-email$/);
      await page.goto(`/verify-email${verifyLink.search}`);
      await page.getByText(`${user.user.email} is verified.`).waitFor();
      // Spent: a second visit gets the API's message.
      await page.goto(`/verify-email${verifyLink.search}`);
      await page.getByRole('alert').filter({ hasText: 'Invalid or expired token' }).waitFor();

      await page.goto('/sign-in');
      await page.getByRole('link', { name: 'Forgot your password?' }).click();
      await page.getByLabel('Email').fill(user.user.email);
      await page.getByRole('button', { name: 'Email me a link' }).click();
      await page.getByText('is on its way').waitFor();
      const resetLink = await linkIn(user.user.email, 'Reset your Tandem password', /reset-password$/);
      expect(resetLink.origin + resetLink.pathname).toBe('http://app.tandem.test/reset-password');
      await page.goto(resetLink.pathname + resetLink.search);
      expect(await axeViolations(page)).toEqual([]);
      await page.getByLabel('New password', { exact: true }).fill('brand new horse');
      await page.getByLabel('New password again').fill('brand new horse');
      await page.getByRole('button', { name: 'Set password' }).click();
      await page.getByText('Your password is changed').waitFor();
      expect((await m.api.post('/auth/sign-in/email', { email: user.user.email, password: 'brand new horse' })).status).toBe(200);
      expect((await m.api.post('/auth/sign-in/email', { email: user.user.email, password: PASSWORD })).status).toBe(401);
      const me = await m.api.post('/auth/sign-in/email', { email: user.user.email, password: 'brand new horse' });
      expect(me.body.user.emailVerified).toBe(true);
      expect(problems.filter((p) => !/status of 400/.test(p))).toEqual([]);
    } finally {
      await close();
    }
  });
});
