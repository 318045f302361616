import { randomBytes } from 'node:crypto';
import { Job, Queue } from 'bullmq';
import { PERSON_CHANNELS, PersonChannel } from '../../../src/modules/delivery/channels';
import { deliveryBackoffMs } from '../../../src/queue/queues';
import { startTestApp, TestApp } from '../../support/app';
import { freePort, TestSmtpServer } from '../../support/smtp';
import { until } from '../../support/until';
import { queueOf, retryDelay, runNow, ScriptedReceiver } from '../integrations/delivery-support';
import { notifiedTimes, savePreferences, saveRule, settled, taskFor, taskMails, team, userDeliveries, waitForTaskMails } from './notification-support';

/**
 * Bursts, failures and the checks made when a message goes out (docs/notifications.md, "Bursts"
 * and "Delivery, retries and records"). Each describe runs its own app, so each test passes alone
 * and in any order:
 * - "a channel that fails": a 3 s burst window (nothing there depends on its length) and an SMTP
 *   server that is down until the first test starts it on its port. Retries are not waited for:
 *   the test reads the backoff a failed job is held for (src/queue/queues.ts) and runs it now.
 * - the others: the mail server up from the start and a window of LONG_WINDOW_MS, far longer than
 *   any test takes: a push that arrives within PUSHED_WITHIN did not wait for it, everything a
 *   test does after the first message of a burst (30 changes to one task, a member removed, a
 *   channel turned off) is within its window however loaded the machine, and no window ends by
 *   itself while a test runs. A test that needs a window's end runs the job that waits for it
 *   (endWindow) instead of waiting for it.
 */
const FAILURE_WINDOW_MS = 3_000;
const LONG_WINDOW_MS = 60_000;
/** How long a test waits for a push sent at once before it fails (a deadline, not a measurement: that it did not wait is read from its job). */
const PUSHED_WITHIN = 5_000;
/** The error a delivery records when its channel is no longer wanted when the message goes out (docs/notifications.md). */
const CHANNEL_OFF = 'Channel turned off or not configured for this notification';
const receiver = new ScriptedReceiver();
/** The mail server of the apps whose SMTP is up from the start. */
const smtp = new TestSmtpServer();
let smtpPort: number;
let t: TestApp;

beforeAll(async () => {
  await receiver.start();
  smtpPort = await smtp.start();
});
afterAll(async () => {
  await receiver.stop();
  await smtp.stop();
});

/** The describe's own app (`t` while its tests run), started before its first test and dropped after its last. */
function appPerDescribe(env: () => Record<string, string>) {
  beforeAll(async () => {
    t = await startTestApp(env());
  });
  afterAll(async () => {
    await t?.close();
  });
}

/** Every channel of the user on, each to its own path. */
async function allChannels(token: string) {
  const id = randomBytes(5).toString('hex');
  await savePreferences(t, token, {
    emailEnabled: true,
    topicpushEnabled: true,
    topicpushServerUrl: `${receiver.url}/ntfy`,
    topicpushTopic: `t${id}`,
    serverpushEnabled: true,
    serverpushServerUrl: `${receiver.url}/gotify${id}`,
    serverpushToken: `token-${id}`,
    webhookEnabled: true,
    webhookUrl: `${receiver.url}/hook${id}`,
  });
  return { topicpush: `/ntfy/t${id}`, serverpush: `/gotify${id}/message`, webhook: `/hook${id}` };
}

describe('a channel that fails', () => {
  /** Nothing listens on this app's SMTP port until the first test starts this server there. */
  const lateSmtp = new TestSmtpServer();
  let lateSmtpPort: number;
  beforeAll(async () => {
    lateSmtpPort = await freePort();
  });
  appPerDescribe(() => ({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(lateSmtpPort), NOTIFICATION_BATCH_WINDOW_MS: String(FAILURE_WINDOW_MS) }));
  afterAll(() => lateSmtp.stop());

  it('SMTP down and a 503 receiver: each retried and every attempt recorded; the other channels are not held up', async () => {
    const { owner, bob, project } = await team(t);
    const paths = await allChannels(bob.token);
    receiver.script(paths.serverpush, { status: 503, body: 'maintenance' });
    await taskFor(t, owner, project.id, bob);

    // topicpush and the webhook go out while email and serverpush are failing.
    await receiver.waitFor(paths.topicpush, 1, 20_000);
    await receiver.waitFor(paths.webhook, 1, 20_000);
    const [email] = await until(
      'a failed email attempt',
      async () => {
        const rows = await userDeliveries(t, bob.user.id, 'email');
        return rows[0]?.attempts.length === 1 && rows;
      },
      20_000,
    );
    // The mail server comes up before the retry runs: that retry delivers.
    await lateSmtp.start(lateSmtpPort);
    expect(email.status).toBe('pending');
    expect(email.attempts).toEqual([{ at: expect.any(String), statusCode: null, durationMs: expect.any(Number), error: 'SMTP server refused the connection' }]);
    const [pushFailed] = await until('a failed serverpush attempt', async () => {
      const rows = await userDeliveries(t, bob.user.id, 'serverpush');
      return rows[0]?.attempts.length === 1 && rows;
    });
    // Each failed job is held for the computed backoff; the test runs it now instead of waiting.
    for (const [channel, id] of [
      ['email', email.id],
      ['serverpush', pushFailed.id],
    ]) {
      const queue = queueOf(t, `notify-${channel}` as never);
      try {
        expect([channel, await retryDelay(queue, id, 1)]).toEqual([channel, deliveryBackoffMs(1)]);
        await runNow(queue, id);
      } finally {
        await queue.close();
      }
    }
    const [topicpush] = await settled(t, bob.user.id, 'topicpush', 1);
    expect(topicpush.status).toBe('delivered');

    const [mail] = await waitForTaskMails(lateSmtp, bob.user.email, 1, 30_000);
    expect(mail.parsed.subject).toBe(`[Apollo] #1 Launch: ${owner.user.name} created a task for you`);
    const [emailDone] = await settled(t, bob.user.id, 'email', 1, 30_000);
    expect(emailDone.status).toBe('delivered');
    expect(emailDone.attempts.map((a) => [a.statusCode, a.error])).toEqual([
      [null, 'SMTP server refused the connection'],
      [250, null],
    ]);

    const [push] = await settled(t, bob.user.id, 'serverpush', 1, 30_000);
    expect(push.status).toBe('delivered');
    expect(push.attempts.map((a) => [a.statusCode, a.error])).toEqual([
      [503, 'HTTP 503: maintenance'],
      [200, null],
    ]);
    const reqs = receiver.to(paths.serverpush);
    expect(reqs).toHaveLength(2);
    expect(reqs[1].raw).toBe(reqs[0].raw);
    expect(taskMails(lateSmtp, bob.user.email)).toHaveLength(1);
  }, 60_000);

  it('a 4xx other than 408/429 is not retried: failed after one attempt, with an excerpt of the answer', async () => {
    const { owner, bob, project } = await team(t);
    const paths = await allChannels(bob.token);
    receiver.script(paths.topicpush, { status: 403, body: { error: 'topic is reserved' } });
    await taskFor(t, owner, project.id, bob);
    const [d] = await settled(t, bob.user.id, 'topicpush', 1, 20_000);
    expect(d.status).toBe('failed');
    expect(d.attempts.map((a) => [a.statusCode, a.error])).toEqual([[403, 'HTTP 403: {"error":"topic is reserved"}']]);
    expect(receiver.to(paths.topicpush)).toHaveLength(1);
  }, 30_000);
});

/** How long a test may wait for a message once the window it waited for has ended (a deadline for a failure, not a measurement). */
const SENT_WITHIN = 20_000;
const withSmtpUp = () => ({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtpPort), NOTIFICATION_BATCH_WINDOW_MS: String(LONG_WINDOW_MS) });

/** The job of `deliveryId` in the channel's queue once it is there and delayed (it waits for the end of a window); `open` is a queue the caller closes, else one is opened for the look. */
async function delayedJob(channel: string, deliveryId: string, open?: Queue): Promise<Job> {
  const queue = open ?? queueOf(t, `notify-${channel}` as never);
  try {
    return await until(`the delayed ${channel} job of delivery ${deliveryId}`, async () => {
      const job = await queue.getJob(deliveryId);
      return job && (await job.getState()) === 'delayed' && job;
    });
  } finally {
    if (!open) await queue.close();
  }
}

/**
 * Ends the window the user's pending `channel` deliveries wait for: the job of their burst, held
 * for at most the window, runs now.
 */
async function endWindow(channel: string, userId: string): Promise<void> {
  const queue = queueOf(t, `notify-${channel}` as never);
  try {
    const job = await until(`the ${channel} job waiting for the window`, async () => {
      const pending = new Set((await userDeliveries(t, userId, channel)).filter((d) => d.status === 'pending').map((d) => d.id));
      return (await queue.getJobs(['delayed'])).find((j) => j?.id !== undefined && pending.has(j.id));
    });
    expect([channel, job.delay > 0 && job.delay <= LONG_WINDOW_MS]).toEqual([channel, true]);
    await job.promote();
  } finally {
    await queue.close();
  }
}

describe('the first push of a burst goes out at once', () => {
  appPerDescribe(withSmtpUp);

  it('with a 60 s window: the first notification about each task is pushed at once; email and what follows about the task wait for the window', async () => {
    const { owner, bob, project } = await team(t);
    const paths = await allChannels(bob.token);
    const task = await taskFor(t, owner, project.id, bob);
    const [push] = await receiver.waitFor(paths.topicpush, 1, PUSHED_WITHIN);
    expect(push.headers.title).toBe(`${owner.user.name} created a task for you`);
    expect(push.raw).toBe('[Apollo] #1 Launch');
    const [gotify] = await receiver.waitFor(paths.serverpush, 1, PUSHED_WITHIN);
    expect(gotify.json.title).toBe(`${owner.user.name} created a task for you`);

    // Another task is another burst: its first push goes out at once too.
    await taskFor(t, owner, project.id, bob, { title: 'Land' });
    const [, other] = await receiver.waitFor(paths.topicpush, 2, PUSHED_WITHIN);
    expect(other.raw).toBe('[Apollo] #2 Land');
    await receiver.waitFor(paths.serverpush, 2, PUSHED_WITHIN);
    // Sent at once, not at a window's end: the jobs of both first pushes were queued without a delay.
    for (const channel of ['topicpush', 'serverpush']) {
      const queue = queueOf(t, `notify-${channel}` as never);
      try {
        const firsts = (await userDeliveries(t, bob.user.id, channel)).filter((d) => d.event === 'task.created');
        expect([
          channel,
          await Promise.all(
            firsts.map(async (d) => {
              const job = await queue.getJob(d.id);
              return job ? (job.opts.delay ?? 0) : 'no job';
            }),
          ),
        ]).toEqual([channel, [0, 0]]);
      } finally {
        await queue.close();
      }
    }

    // A comment on the first task within its window waits for the window's end (about 60 s away), gathered with whatever else comes.
    expect((await t.api.post(`/comment/${task.id}`, { content: 'soon' }, owner.token)).status).toBe(200);
    await notifiedTimes(t, bob.user.id, 3);
    for (const channel of ['topicpush', 'serverpush']) {
      const comment = (await userDeliveries(t, bob.user.id, channel)).find((d) => d.event === 'task.comment_created')!;
      const job = await delayedJob(channel, comment.id);
      expect([channel, job.opts.delay]).toEqual([channel, expect.any(Number)]);
      expect(job.opts.delay).toBeGreaterThan(LONG_WINDOW_MS - 30_000);
      expect(job.opts.delay).toBeLessThanOrEqual(LONG_WINDOW_MS);
      expect((await userDeliveries(t, bob.user.id, channel)).find((d) => d.id === comment.id)).toMatchObject({ status: 'pending', attempts: [] });
    }
    // Email has no first at once: the first email about a task waits for the window too.
    const [firstEmail] = await userDeliveries(t, bob.user.id, 'email');
    expect(firstEmail.event).toBe('task.created');
    expect((await delayedJob('email', firstEmail.id)).opts.delay).toBeGreaterThan(LONG_WINDOW_MS - 30_000);
    expect(taskMails(smtp, bob.user.email)).toEqual([]);
    expect(receiver.to(paths.topicpush)).toHaveLength(2);
    expect(receiver.to(paths.serverpush)).toHaveLength(2);
  }, 40_000);

  it('two jobs of one burst running at once (as on two workers) send one message: nothing twice', async () => {
    const { owner, bob, project } = await team(t);
    const paths = await allChannels(bob.token);
    await savePreferences(t, bob.token, { emailEnabled: false, serverpushEnabled: false, webhookEnabled: false });
    const task = await taskFor(t, owner, project.id, bob);
    await receiver.waitFor(paths.topicpush, 1, PUSHED_WITHIN);
    for (const content of ['one', 'two']) expect((await t.api.post(`/comment/${task.id}`, { content }, owner.token)).status).toBe(200);
    await notifiedTimes(t, bob.user.id, 3);
    const [, one, two] = await userDeliveries(t, bob.user.id, 'topicpush');
    // The burst's job waits for the window's end; a second job naming the burst's other delivery
    // (a fan-out that saw only that one, on another worker) is added, and both run now.
    const queue = queueOf(t, 'notify-topicpush' as never);
    try {
      const trailing = await delayedJob('topicpush', one.id, queue);
      await Promise.all([queue.add('deliver', { deliveryId: two.id }, { jobId: two.id }), trailing.promote()]);
      await settled(t, bob.user.id, 'topicpush', 3, PUSHED_WITHIN);
      await until('both jobs finished', async () => (await Promise.all([one.id, two.id].map(async (id) => (await queue.getJob(id))?.getState()))).every((s) => s === 'completed'));
      const rows = await userDeliveries(t, bob.user.id, 'topicpush');
      expect(rows.map((d) => [d.status, d.attempts.length])).toEqual([
        ['delivered', 1],
        ['delivered', 1],
        ['delivered', 1],
      ]);
    } finally {
      await queue.close();
    }
    const pushes = receiver.to(paths.topicpush);
    expect(pushes.map((p) => p.headers.title)).toEqual([`${owner.user.name} created a task for you`, '2 updates on your task']);
  }, 30_000);
});

describe('bursts', () => {
  appPerDescribe(withSmtpUp);

  it('30 changes to one task within the window: the first push at once, the 30 gathered into one push at its end; one email for all; the webhook and the in-app list one per event; nothing twice', async () => {
    const { owner, bob, project } = await team(t);
    const paths = await allChannels(bob.token);
    const task = await taskFor(t, owner, project.id, bob);
    // The creation is pushed at once and opens the window.
    await receiver.waitFor(paths.topicpush, 1, PUSHED_WITHIN);
    await receiver.waitFor(paths.serverpush, 1, PUSHED_WITHIN);
    for (const channel of ['topicpush', 'serverpush']) await settled(t, bob.user.id, channel, 1, PUSHED_WITHIN);

    const statuses = ['in-progress', 'in-review', 'done'];
    for (let i = 0; i < 30; i++) {
      const res = await t.api.put(`/task/status/${task.id}`, { status: statuses[i % 3] }, owner.token);
      expect(res.status).toBe(200);
    }
    // Every change reached the channels within the window opened by the first message (it ends
    // only when the test ends it); then the windows end.
    await notifiedTimes(t, bob.user.id, 31);
    for (const channel of ['topicpush', 'serverpush', 'email']) await endWindow(channel, bob.user.id);

    const [, push] = await receiver.waitFor(paths.topicpush, 2, SENT_WITHIN);
    expect(push.headers.title).toBe('30 updates on your task');
    expect(push.raw).toContain(`\n${owner.user.name} changed the status: to-do \u2192 in-progress`);
    const [, gotify] = await receiver.waitFor(paths.serverpush, 2, SENT_WITHIN);
    expect(gotify.json.title).toBe('30 updates on your task');
    // Email waits for the window from the first notification: the creation and the 30 changes make one email.
    const [mail] = await waitForTaskMails(smtp, bob.user.email, 1, SENT_WITHIN);
    expect(mail.parsed.subject).toBe('[Apollo] #1 Launch: 31 updates');
    expect(mail.parsed.text).toContain('31 updates on your task.');
    expect(mail.parsed.text).toContain(`- ${owner.user.name} created the task`);
    expect(mail.parsed.text).toContain('\u2026 and 11 more');
    await receiver.waitFor(paths.webhook, 31, 20_000);

    // Every delivery is delivered once: the push's first by its own attempt, the 30 by one attempt
    // made when the window (started again as the first went out) ended; the email's 31 by one.
    for (const channel of ['topicpush', 'serverpush']) {
      const rows = await settled(t, bob.user.id, channel, 31, SENT_WITHIN);
      expect([channel, rows.every((d) => d.status === 'delivered' && d.attempts.length === 1)]).toEqual([channel, true]);
      const [first, ...burst] = rows;
      expect([channel, first.event, new Set(burst.map((d) => JSON.stringify(d.attempts))).size]).toEqual([channel, 'task.created', 1]);
    }
    const emails = await settled(t, bob.user.id, 'email', 31, SENT_WITHIN);
    expect(new Set(emails.map((d) => JSON.stringify(d.attempts))).size).toBe(1);
    expect(emails.every((d) => d.status === 'delivered')).toBe(true);
    const webhook = await settled(t, bob.user.id, 'webhook', 31, 20_000);
    expect(new Set(webhook.map((d) => d.attempts[0].at)).size).toBeGreaterThan(1);
    expect(taskMails(smtp, bob.user.email)).toHaveLength(1);
    expect(receiver.to(paths.topicpush)).toHaveLength(2);
    expect(receiver.to(paths.serverpush)).toHaveLength(2);
    expect(receiver.to(paths.webhook)).toHaveLength(31);
    expect((await t.api.get('/notification?limit=100', bob.token)).body).toHaveLength(31);
  }, 60_000);
});

/** A task for bob whose first push went out (at once); what comes next about it waits for the window. */
async function firstPushSent(paths: { topicpush: string; serverpush: string }, owner: Parameters<typeof taskFor>[1], projectId: string, bob: Parameters<typeof taskFor>[3]) {
  const task = await taskFor(t, owner, projectId, bob);
  await receiver.waitFor(paths.topicpush, 1, PUSHED_WITHIN);
  await receiver.waitFor(paths.serverpush, 1, PUSHED_WITHIN);
  // Recorded as sent: what comes next is a burst of its own, whose job waits for the window.
  for (const channel of ['topicpush', 'serverpush']) await settled(t, bob.user.id, channel, 1, PUSHED_WITHIN);
  expect((await t.api.post(`/comment/${task.id}`, { content: 'within the window' }, owner.token)).status).toBe(200);
  await notifiedTimes(t, bob.user.id, 2);
}

describe('checked again when the message goes out', () => {
  appPerDescribe(withSmtpUp);

  it('a user removed from the workspace within the window: the pending deliveries fail as not sent, nothing more is received', async () => {
    const { owner, bob, workspaceId, project } = await team(t);
    const paths = await allChannels(bob.token);
    await savePreferences(t, bob.token, { webhookEnabled: false, emailEnabled: false });
    await firstPushSent(paths, owner, project.id, bob);
    const members = (await t.api.get(`/auth/organization/list-members?organizationId=${workspaceId}`, owner.token)).body;
    const m = members.find((x: any) => x.userId === bob.user.id);
    expect((await t.api.post('/auth/organization/remove-member', { memberIdOrEmail: m.id, organizationId: workspaceId }, owner.token)).status).toBe(200);
    await endWindow('topicpush', bob.user.id);
    const [created, comment] = await settled(t, bob.user.id, 'topicpush', 2, SENT_WITHIN);
    expect(created.status).toBe('delivered');
    expect(comment.status).toBe('failed');
    expect(comment.attempts).toEqual([{ at: expect.any(String), statusCode: null, durationMs: 0, error: 'Recipient is no longer a member of the workspace' }]);
    expect(receiver.to(paths.topicpush)).toHaveLength(1);
  });

  it('a channel turned off within the window: not sent, recorded as such', async () => {
    const { owner, bob, project } = await team(t);
    const paths = await allChannels(bob.token);
    await savePreferences(t, bob.token, { webhookEnabled: false, emailEnabled: false });
    await firstPushSent(paths, owner, project.id, bob);
    await savePreferences(t, bob.token, { topicpushEnabled: false });
    for (const channel of ['topicpush', 'serverpush']) await endWindow(channel, bob.user.id);
    const [, off] = await settled(t, bob.user.id, 'topicpush', 2, SENT_WITHIN);
    expect(off.status).toBe('failed');
    expect(off.attempts[0].error).toBe('Channel turned off or not configured for this notification');
    const [, on] = await settled(t, bob.user.id, 'serverpush', 2, SENT_WITHIN);
    expect(on.status).toBe('delivered');
    expect(receiver.to(paths.topicpush)).toHaveLength(1);
    const gotify = receiver.to(paths.serverpush);
    expect(gotify).toHaveLength(2);
    expect(gotify[1].json.title).toBe(`${owner.user.name} commented on your task`);
  });

  it('a rule muting the workspace saved after the notification was queued: nothing is sent on any channel, each delivery recorded as not sent; the in-app list keeps it', async () => {
    const { bob, deliveries, received } = await ruleSavedWhileQueued(() => ({ isActive: false }));
    for (const channel of PERSON_CHANNELS) {
      expect([channel, deliveries[channel].status, deliveries[channel].attempts]).toEqual([
        channel,
        'failed',
        [{ at: expect.any(String), statusCode: null, durationMs: 0, error: CHANNEL_OFF }],
      ]);
    }
    expect(received).toEqual({ email: 0, topicpush: 0, serverpush: 0, webhook: 0 });
    expect((await t.api.get('/notification', bob.token)).body.map((n: any) => n.type)).toEqual(['task.created']);
  }, 40_000);

  it("a rule turning channels off saved after the notification was queued: those channels send nothing, the rule's others deliver", async () => {
    const { deliveries, received } = await ruleSavedWhileQueued(() => ({ emailEnabled: false, topicpushEnabled: false }));
    expect(PERSON_CHANNELS.map((c) => [c, deliveries[c].status, deliveries[c].attempts.map((a) => a.error)])).toEqual([
      ['email', 'failed', [CHANNEL_OFF]],
      ['topicpush', 'failed', [CHANNEL_OFF]],
      ['serverpush', 'delivered', [null]],
      ['webhook', 'delivered', [null]],
    ]);
    expect(received).toEqual({ email: 0, topicpush: 0, serverpush: 1, webhook: 1 });
  }, 40_000);

  it('a rule selecting only another project saved after the notification was queued: nothing is sent about this project', async () => {
    const { deliveries, received } = await ruleSavedWhileQueued((other) => ({ projectMode: 'selected', selectedProjectIds: [other] }));
    expect(PERSON_CHANNELS.map((c) => [c, deliveries[c].status, deliveries[c].attempts.map((a) => a.error)])).toEqual(PERSON_CHANNELS.map((c) => [c, 'failed', [CHANNEL_OFF]]));
    expect(received).toEqual({ email: 0, topicpush: 0, serverpush: 0, webhook: 0 });
  }, 40_000);
});

/**
 * A task created for bob (every channel on, in `project`) whose four deliveries are queued and
 * held while bob saves the workspace rule `rule` (given the id of the workspace's other project);
 * then they go. Answers each channel's settled delivery and how many messages reached each channel.
 */
async function ruleSavedWhileQueued(rule: (otherProjectId: string) => Record<string, unknown>) {
  const { owner, bob, workspaceId, project, other } = await team(t);
  const paths = await allChannels(bob.token);
  await whileHeld(
    bob.user.id,
    4,
    () => taskFor(t, owner, project.id, bob),
    () => saveRule(t, bob.token, workspaceId, rule(other.id)),
  );
  const deliveries = Object.fromEntries(await Promise.all(PERSON_CHANNELS.map(async (c) => [c, (await settled(t, bob.user.id, c, 1, SENT_WITHIN))[0]] as const)));
  const received = {
    email: taskMails(smtp, bob.user.email).length,
    topicpush: receiver.to(paths.topicpush).length,
    serverpush: receiver.to(paths.serverpush).length,
    webhook: receiver.to(paths.webhook).length,
  };
  return { bob, deliveries, received };
}

/**
 * Runs `act`, which queues `count` channel deliveries to the user, while no worker may take them:
 * the person channels' queues are paused (BullMQ stops handing out their jobs). Once every
 * delivery is written, pending, unattempted and its job is in its queue, runs `meanwhile`; then
 * lets the jobs go (a job waiting for a window's end runs now) and resumes the queues, also when
 * the test fails on the way.
 */
async function whileHeld(userId: string, count: number, act: () => Promise<unknown>, meanwhile: () => Promise<unknown>): Promise<void> {
  const queues = new Map(PERSON_CHANNELS.map((c) => [c, queueOf(t, `notify-${c}` as never)]));
  try {
    await Promise.all([...queues.values()].map((q) => q.pause()));
    await act();
    const held = await until(`${count} deliveries of ${userId} queued and held`, async () => {
      const rows = await userDeliveries(t, userId);
      if (rows.length !== count || rows.some((d) => d.status !== 'pending' || d.attempts.length)) return false;
      const jobs = await Promise.all(rows.map((d) => queues.get(d.target_type as PersonChannel)!.getJob(d.id)));
      return jobs.every(Boolean) && jobs;
    });
    await meanwhile();
    for (const job of held) if ((await job!.getState()) === 'delayed') await job!.promote();
    // Still nothing sent: the deliveries waited for the test, not for a worker that had already sent them.
    expect((await userDeliveries(t, userId)).map((d) => [d.status, d.attempts.length])).toEqual(Array.from({ length: count }, () => ['pending', 0]));
  } finally {
    for (const q of queues.values()) {
      await q.resume();
      await q.close();
    }
  }
}
