import { createHmac } from 'node:crypto';
import type { Browser, Locator, Page } from 'playwright-core';
import { startTestApp, TestApp } from '../../support/app';
import { launchBrowser } from '../../support/browser';
import { FakeSelfgit } from '../../support/git-hosts';
import { HttpReceiver } from '../../support/http-receiver';
import { axeViolations, newPage as openPage, signIn } from '../../support/web-page';
import { BOT_TOKEN, insertDelivery, MASKED_BOT_TOKEN } from '../../support/integrations';
import { createProject, createTask, ownerWithWorkspace, userWithRole } from '../../support/work-items';

/** The project integrations screen (docs/integrations.md) in a real Chromium against the real service, delivering to a loopback receiver. */
// A browser journey takes several seconds, and more on a loaded machine.
jest.setTimeout(90_000);

let t: TestApp;
let browser: Browser;
let origin: string;
const receiver = new HttpReceiver();
const git = new FakeSelfgit();
const GIT_TOKEN = 'a1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8a9b0';
beforeAll(async () => {
  t = await startTestApp();
  origin = t.url.replace(/\/api$/, '');
  browser = await launchBrowser();
  await receiver.start();
  await git.start();
  git.addUser(GIT_TOKEN, 'ada');
}, 60_000);
afterAll(async () => {
  await receiver.stop();
  await git.stop();
  await browser?.close();
  await t?.close();
});

const newPage = () => openPage(browser, origin);
const region = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
/** The delivery rows of a card's log. */
const deliveries = (card: Locator) => card.locator('ol.deliveries > li');
/** Nothing on the page is wider than a 375 px screen. */
const fitsWidth = (page: Page) => page.evaluate('document.documentElement.scrollWidth') as Promise<number>;

async function openIntegrations(page: Page, email: string, workspaceId: string, projectId: string) {
  await signIn(page, email, 'correct horse battery');
  await page.waitForURL((u) => u.pathname.startsWith('/w/'));
  await page.goto(`/w/${workspaceId}/p/${projectId}`);
  // A control of the board that owners and members are both offered: the caller's permissions have
  // loaded (the app keeps them across the move to the integrations page), so what is absent there
  // is absent because of them.
  await page.getByRole('button', { name: 'Add task to To Do' }).waitFor();
  await page.getByRole('link', { name: 'Integrations' }).click();
  await page.waitForURL(`**/w/${workspaceId}/p/${projectId}/integrations`);
}

describe('the integrations screen', () => {
  it('the owner sets up a generic webhook; its deliveries show in the log; Redeliver sends the same webhook again; delete asks first', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId, { name: 'Hooked' });
    const path = `/hook-${project.id}`;
    const { page, problems, close } = await newPage();
    try {
      await page.setViewportSize({ width: 375, height: 800 });
      await openIntegrations(page, owner.user.email, workspaceId, project.id);
      const card = region(page, 'Generic webhook');
      await card.getByText('not set up', { exact: true }).waitFor();
      for (const name of ['Messenger', 'Team chat', 'Community chat', 'Self-hosted git', 'Hosted git']) {
        await region(page, name).getByText('not set up', { exact: true }).waitFor();
      }
      expect(await axeViolations(page)).toEqual([]);

      // A URL the API refuses: its 400 message shows, nothing is stored.
      await card.getByLabel('Webhook URL').fill('ftp://example.com/hook');
      await card.getByRole('button', { name: 'Set up Generic webhook' }).click();
      await card.getByRole('alert').getByText('webhookUrl must be an http(s) URL').waitFor();
      expect((await t.api.get(`/generic-webhook-integration/project/${project.id}`, owner.token)).body).toBeNull();

      // Set it up: the receiver's URL, a signing secret, title changes instead of comments.
      await card.getByLabel('Webhook URL').fill(`${receiver.url}${path}`);
      await card.getByLabel('Signing secret').fill('s3cret-signing-value');
      await card.getByRole('checkbox', { name: 'Title changed' }).check();
      await card.getByRole('checkbox', { name: 'Comment added' }).uncheck();
      // The flags beyond the six, and the reminder's lead time (a day unless typed).
      await card.getByRole('checkbox', { name: 'Due date coming up' }).check();
      expect(await card.getByRole('checkbox', { name: 'Task deleted' }).isChecked()).toBe(false);
      await card.getByLabel('Reminder lead time (minutes)').fill('90');
      await card.getByRole('button', { name: 'Set up Generic webhook' }).click();
      await card.getByText('active', { exact: true }).waitFor();
      // Secrets come back only as masks.
      await card.getByText('s3cr\u2026alue').waitFor();
      expect(await card.getByText('s3cret-signing-value').count()).toBe(0);
      const stored = await t.api.get(`/generic-webhook-integration/project/${project.id}`, owner.token);
      expect(stored.body).toMatchObject({
        isActive: true,
        secretConfigured: true,
        dueDateReminderLeadTimeMinutes: 90,
        events: { taskTitleChanged: true, taskCommentCreated: false, taskCreated: true, dueDateReminder: true, taskDeleted: false },
      });
      await card.getByText('Nothing delivered yet.').waitFor();

      // A task made elsewhere: the receiver gets it and the log shows it delivered.
      await createTask(t, owner.token, project.id, { title: 'Ring the bell' });
      const [first] = await receiver.waitFor(path, 1);
      const webhookId = first!.headers['webhook-id'];
      expect(webhookId).toEqual(expect.any(String));
      expect(first!.json).toMatchObject({ event: 'task.created' });
      const signed = `${webhookId}.${first!.headers['webhook-timestamp']}.${first!.raw}`;
      expect(first!.headers['webhook-signature']).toBe(`v1,${createHmac('sha256', 's3cret-signing-value').update(signed).digest('base64')}`);
      const row = deliveries(card).first();
      // Within 8 s: the live task event makes the log look again (its idle refresh is every 10 s).
      await row.and(page.locator('[data-status="delivered"]')).waitFor({ timeout: 8_000 });
      await row.getByText('task.created').waitFor();
      await row.getByText('1 attempt', { exact: true }).waitFor();
      await row.getByText('HTTP 200', { exact: true }).waitFor();
      // The row is that delivery: the webhook-id is the delivery id.
      expect(await row.getAttribute('data-delivery')).toBe(webhookId);
      expect(await axeViolations(page)).toEqual([]);

      // Redeliver while the receiver holds its answer: the row is pending, then delivered with a second attempt.
      let release!: () => void;
      receiver.answerNext({ status: 200, hold: new Promise<void>((r) => (release = r)) });
      await row.getByRole('button', { name: /^Redeliver task\.created/ }).click();
      await row.and(page.locator('[data-status="pending"]')).waitFor();
      await row.getByText('pending', { exact: true }).waitFor();
      expect(await row.getByRole('button', { name: /^Redeliver task\.created/ }).isDisabled()).toBe(true);
      const again = await receiver.waitFor(path, 2);
      expect(again[1]!.headers['webhook-id']).toBe(webhookId);
      expect(again[1]!.raw).toBe(first!.raw);
      release();
      await row.and(page.locator('[data-status="delivered"]')).waitFor({ timeout: 10_000 });
      await row.getByText('2 attempts', { exact: true }).waitFor();
      expect(await deliveries(card).count()).toBe(1);

      // A receiver that fails: the attempt's HTTP 500 shows in the log (the delivery waits for its retry).
      receiver.answerNext({ status: 500, body: 'boom' });
      await row.getByRole('button', { name: /^Redeliver task\.created/ }).click();
      await row.getByText('HTTP 500', { exact: true }).waitFor({ timeout: 10_000 });
      await row.getByText('HTTP 500: boom').waitFor();
      await row.getByText('3 attempts', { exact: true }).waitFor();
      expect(await row.getAttribute('data-status')).toBe('pending');
      // Waiting for its retry, it may be redelivered now; while a redelivery is on its way, not.
      expect(await row.getByRole('button', { name: /^Redeliver task\.created/ }).isEnabled()).toBe(true);

      // Inactive, then active again, through the toggle.
      await card.getByRole('checkbox', { name: 'Active' }).uncheck();
      await card.getByText('inactive', { exact: true }).waitFor();
      expect((await t.api.get(`/generic-webhook-integration/project/${project.id}`, owner.token)).body.isActive).toBe(false);
      await card.getByRole('checkbox', { name: 'Active' }).check();
      await card.getByText('active', { exact: true }).waitFor();

      // Change the URL only: the secret is not asked for again, and stays.
      await card.getByRole('button', { name: 'Change settings' }).click();
      await card.getByLabel('Webhook URL').fill(`${receiver.url}${path}/v2`);
      await card.getByRole('button', { name: 'Save changes' }).click();
      await card.getByRole('button', { name: 'Change settings' }).waitFor();
      expect((await t.api.get(`/generic-webhook-integration/project/${project.id}`, owner.token)).body).toMatchObject({ secretConfigured: true, maskedSecret: 's3cr\u2026alue' });
      expect(await fitsWidth(page)).toBeLessThanOrEqual(375);

      // Delete asks first; Cancel keeps it.
      await card.getByRole('button', { name: 'Delete', exact: true }).click();
      const asked = page.getByRole('alertdialog', { name: 'Delete the Generic webhook integration?' });
      await asked.getByRole('button', { name: 'Cancel' }).click();
      await asked.waitFor({ state: 'detached' });
      expect((await t.api.get(`/generic-webhook-integration/project/${project.id}`, owner.token)).body).not.toBeNull();
      await card.getByRole('button', { name: 'Delete', exact: true }).click();
      await asked.getByRole('button', { name: 'Yes, delete' }).click();
      await card.getByText('not set up', { exact: true }).waitFor();
      expect((await t.api.get(`/generic-webhook-integration/project/${project.id}`, owner.token)).body).toBeNull();

      // The one console problem is the browser's report of the refused 400 above.
      expect(problems).toEqual([expect.stringContaining('status of 400')]);
    } finally {
      await close();
    }
  }, 90_000);

  it('a member without workspace:manage_settings sees the settings but no controls and no delivery log', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const member = await userWithRole(t, workspaceId, 'member');
    const project = await createProject(t, owner.token, workspaceId, { name: 'Watched' });
    const made = await t.api.post(`/generic-webhook-integration/project/${project.id}`, { webhookUrl: `${receiver.url}/member-${project.id}/abcdefghijkl` }, owner.token);
    expect(made.status).toBe(200);
    const { page, problems, close } = await newPage();
    try {
      await page.setViewportSize({ width: 375, height: 800 });
      await openIntegrations(page, member.user.email, workspaceId, project.id);
      const card = region(page, 'Generic webhook');
      await card.getByText('active', { exact: true }).waitFor();
      await card.getByText(made.body.maskedWebhookUrl).waitFor();
      await region(page, 'Hosted git').getByText('not set up', { exact: true }).waitFor();
      const main = page.getByRole('main');
      expect(await main.getByRole('button').count()).toBe(0);
      expect(await main.getByRole('textbox').count()).toBe(0);
      expect(await main.getByRole('checkbox').count()).toBe(0);
      expect(await card.getByRole('heading', { name: 'Delivery log' }).count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      expect(await fitsWidth(page)).toBeLessThanOrEqual(375);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('messenger settings change without the bot token again; the log pages with Older; Link repository asks the API', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId, { name: 'Chatty' });
    const hook = await t.api.post(`/generic-webhook-integration/project/${project.id}`, { webhookUrl: `${receiver.url}/paged-${project.id}` }, owner.token);
    // 25 deliveries, one a minute: a page holds 20, the oldest 5 come with Older.
    const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 12, i)).toISOString();
    for (let i = 0; i < 25; i++) {
      await insertDelivery(t, {
        workspaceId,
        projectId: project.id,
        targetType: 'generic-webhook',
        targetId: hook.body.id,
        event: i === 0 ? 'task.title_changed' : 'task.created',
        createdAt: at(i),
      });
    }
    const { page, problems, close } = await newPage();
    try {
      await openIntegrations(page, owner.user.email, workspaceId, project.id);

      const messenger = region(page, 'Messenger');
      await messenger.getByLabel('Bot token').fill(BOT_TOKEN);
      await messenger.getByLabel('Chat id').fill('-1001234567890');
      await messenger.getByRole('button', { name: 'Set up Messenger' }).click();
      await messenger.getByText(MASKED_BOT_TOKEN).waitFor();
      expect(await page.getByText(BOT_TOKEN).count()).toBe(0);
      // Another field changes without typing the token again: the form shows its mask, and keeps it.
      await messenger.getByRole('button', { name: 'Change settings' }).click();
      const token = messenger.getByLabel('Bot token');
      expect([await token.inputValue(), await token.getAttribute('placeholder'), await token.getAttribute('required')]).toEqual(['', MASKED_BOT_TOKEN, null]);
      await messenger.getByLabel('Chat label').fill('Ops room');
      await messenger.getByRole('button', { name: 'Save changes' }).click();
      await messenger.getByText('Ops room').waitFor();
      expect((await t.api.get(`/messenger-integration/project/${project.id}`, owner.token)).body).toMatchObject({
        chatLabel: 'Ops room',
        botTokenConfigured: true,
        maskedBotToken: MASKED_BOT_TOKEN,
      });

      const generic = region(page, 'Generic webhook');
      await deliveries(generic).nth(19).waitFor();
      expect(await deliveries(generic).count()).toBe(20);
      await generic.getByRole('button', { name: 'Older Generic webhook deliveries' }).click();
      await deliveries(generic).nth(24).waitFor();
      expect(await deliveries(generic).count()).toBe(25);
      // Newest first: the oldest (the only title change) is last.
      await deliveries(generic).last().getByText('task.title_changed').waitFor();
      expect(await generic.getByRole('button', { name: 'Older Generic webhook deliveries' }).count()).toBe(0);

      // This server has no hosted git App configured: the API's 503 message shows.
      const hosted = region(page, 'Hosted git');
      await hosted.getByRole('textbox', { name: 'Owner', exact: true }).fill('acme');
      await hosted.getByRole('textbox', { name: 'Repository', exact: true }).fill('website');
      await hosted.getByRole('button', { name: 'Link repository' }).click();
      await hosted
        .getByRole('alert')
        .getByText(/Linking a hostedgit repository is not configured on this server/)
        .waitFor();
      expect(await axeViolations(page)).toEqual([]);
      expect(problems).toEqual([expect.stringContaining('status of 503')]);
    } finally {
      await close();
    }
  });

  it('selfgit: connect a repository (a refused token shows the API message), its webhook settings, rotate the secret, change the options', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId, { name: 'Gitted' });
    const repoName = `site-${project.id.slice(0, 8)}`;
    git.addRepo('acme', repoName, { access: { [GIT_TOKEN]: 'write' } });
    const { page, problems, close } = await newPage();
    try {
      await page.setViewportSize({ width: 375, height: 800 });
      await openIntegrations(page, owner.user.email, workspaceId, project.id);
      const card = region(page, 'Self-hosted git');
      await card.getByLabel('Server URL').fill(git.url);
      await card.getByLabel('Access token').fill('not-a-known-token');
      await card.getByLabel('Repository owner').fill('acme');
      await card.getByLabel('Repository name').fill(repoName);
      await card.getByRole('button', { name: 'Connect repository' }).click();
      await card.getByRole('alert').getByText('The selfgit server refused the access token').waitFor();

      await card.getByLabel('Access token').fill(GIT_TOKEN);
      await card.getByRole('button', { name: 'Connect repository' }).click();
      await card.getByText('active', { exact: true }).waitFor();
      const record = (await t.api.get(`/selfgit-integration/project/${project.id}`, owner.token)).body;
      await card.getByText(record.maskedAccessToken).waitFor();
      await card.getByText(record.webhookUrl).waitFor();
      await card.getByText(record.webhookSecret).waitFor();
      expect(await page.getByText(GIT_TOKEN).count()).toBe(0);
      await card.getByText(/previous webhook secret is still accepted for 24 hours/).waitFor();

      // Rotation asks first, then shows the new secret.
      await card.getByRole('button', { name: 'Rotate webhook secret' }).click();
      await page.getByRole('alertdialog', { name: 'Make a new webhook secret?' }).getByRole('button', { name: 'Yes, rotate' }).click();
      await card.getByText(record.webhookSecret).waitFor({ state: 'detached' });
      const rotated = (await t.api.get(`/selfgit-integration/project/${project.id}`, owner.token)).body;
      expect(rotated.webhookSecret).toMatch(/^[0-9a-f]{48}$/);
      expect(rotated.webhookSecret).not.toBe(record.webhookSecret);
      await card.getByText(rotated.webhookSecret).waitFor();

      await card.getByLabel('Branch pattern').fill('feature/{slug}-{number}');
      await card.getByRole('button', { name: 'Save pattern' }).click();
      await card.getByText('feature/{slug}-{number}', { exact: true }).waitFor();
      await card.getByRole('checkbox', { name: /Comment the task's link/ }).check();
      await card.getByRole('checkbox', { name: 'Active' }).uncheck();
      await card.getByText('inactive', { exact: true }).waitFor();
      expect((await t.api.get(`/selfgit-integration/project/${project.id}`, owner.token)).body).toMatchObject({
        branchPattern: 'feature/{slug}-{number}',
        commentTaskLinkOnSelfgitIssue: true,
        isActive: false,
      });
      expect(await axeViolations(page)).toEqual([]);
      expect(await fitsWidth(page)).toBeLessThanOrEqual(375);
      expect(problems).toEqual([expect.stringContaining('status of 400')]);
    } finally {
      await close();
    }
  });
});
