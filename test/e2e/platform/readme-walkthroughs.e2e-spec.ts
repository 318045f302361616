import { startTestApp, TestApp } from '../../support/app';
import { shellBlocks, substitute, Walkthrough } from '../../support/readme';
import { freePort } from '../../support/smtp';
import { until } from '../../support/until';

/**
 * The README's walkthroughs, run as written: the shell blocks of each section are taken from the
 * README itself and run in bash against a fresh app, with only the service's address
 * (`http://localhost:3000`) and the receiver's port (9000, 9001: another run may hold them)
 * replaced. `curl` fails on an HTTP error there, so a step that does not work as written stops the
 * walkthrough and fails the test with the answer. Each test has its own app (each signs Ada up as
 * the first user), started with the settings its walkthrough says it needs and no others: rate
 * limits at their defaults, no SMTP.
 */
let t: TestApp | undefined;
let run: Walkthrough | undefined;

afterEach(async () => {
  await run?.stop();
  await t?.close();
  run = undefined;
  t = undefined;
});

/** Rate limits as in production (the test apps turn them off unless told), private destinations as `allowPrivate`. */
const appWith = (allowPrivate: boolean) =>
  startTestApp({ RATE_LIMIT_AUTH: undefined, RATE_LIMIT_INVITES: undefined, RATE_LIMIT_API: undefined, ALLOW_PRIVATE_DESTINATIONS: String(allowPrivate) });

/** The blocks of the README sections, one after the other, pointed at the test app and at `ports` for the README's receiver ports. */
function script(app: TestApp, sections: readonly string[], ports: Record<number, number> = {}): string {
  const origin = app.url.replace(/\/api$/, '');
  const text = sections.flatMap((s) => shellBlocks(s)).join('\n');
  return substitute(text, [
    ['http://localhost:3000', origin],
    ...Object.entries(ports).flatMap(([from, to]) => [[`listen(${from})`, `listen(${to})`] as const, [`127.0.0.1:${from}/`, `127.0.0.1:${to}/`] as const]),
  ]);
}

const SIGN_UP = 'Getting a token';
const PROJECTS = 'Working with projects and tasks';
const PROJECT_WEBHOOK = 'A project webhook to a local receiver';
const NOTIFICATIONS = 'Notifications';

it('sign up, a workspace, my permissions, an API key, sign out and in; then a project, a task, its status, search and activity', async () => {
  t = await appWith(false);
  run = new Walkthrough(script(t, [SIGN_UP, PROJECTS]), ['TOKEN', 'WS', 'P', 'T']);
  const { TOKEN, WS, P, T } = await run.finished();

  const session = await t.api.get('/auth/get-session', TOKEN);
  expect(session.status).toBe(200);
  expect(session.body.user).toMatchObject({ name: 'Ada', email: 'ada@example.com' });
  const workspaces = (await t.api.get('/auth/organization/list', TOKEN)).body;
  expect(workspaces.map((w: { id: string; name: string }) => [w.id, w.name])).toEqual([[WS, 'Acme']]);
  // Each answer was printed as the README's comments say: the permissions, the key (shown once), the sign-out.
  expect(run.output).toContain(`{"organizationId":"${WS}","roles":["owner"]`);
  expect(run.output).toContain('"key":"tdm_');
  expect(run.output).toContain('{"success":true}');
  const task = (await t.api.get(`/task/${T}`, TOKEN)).body;
  expect(task).toMatchObject({ id: T, projectId: P, number: 1, title: 'Rate-limit the login', priority: 'high', status: 'in-progress' });
  // The search by key found the task; the activity is status_changed, then created (newest first).
  expect(run.output).toContain(`{"tasks":[{"id":"${T}"`);
  expect(run.output).toMatch(/"type":"status_changed".*"type":"created"/);
}, 60_000);

it('a project webhook to a local receiver: with ALLOW_PRIVATE_DESTINATIONS=true the receiver prints the signed event', async () => {
  const port = await freePort();
  t = await appWith(true);
  run = new Walkthrough(script(t, [SIGN_UP, PROJECTS, PROJECT_WEBHOOK], { 9000: port }), ['TOKEN', 'P']);
  const { TOKEN, P } = await run.finished();
  const printed = await run.printed(['POST /project-hook', '"event":"task.status_changed"', "'webhook-signature': 'v1,"]);
  expect(printed).toContain('"newStatus":"done"');
  const deliveries = await until('the delivery recorded as delivered', async () => {
    const res = await t!.api.get(`/generic-webhook-integration/project/${P}/deliveries`, TOKEN);
    return res.status === 200 && res.body.deliveries.some((d: { status: string }) => d.status === 'delivered') && res.body.deliveries;
  });
  expect(deliveries.length).toBeGreaterThanOrEqual(1);
}, 60_000);

it('a project webhook to a local receiver: without ALLOW_PRIVATE_DESTINATIONS the step is refused, as the README says', async () => {
  const port = await freePort();
  t = await appWith(false);
  run = new Walkthrough(script(t, [SIGN_UP, PROJECTS, PROJECT_WEBHOOK], { 9000: port }), []);
  const { code, output } = await run.exited();
  expect(code).not.toBe(0);
  expect(output).toContain('Webhook destination resolves to a non-routable address');
}, 60_000);

it('notifications: a second member joins without SMTP, as an admin assigns you the task, and your webhook receives it', async () => {
  const port = await freePort();
  t = await appWith(true);
  run = new Walkthrough(script(t, [SIGN_UP, PROJECTS, NOTIFICATIONS], { 9001: port }), ['TOKEN', 'TOKEN2', 'WS', 'T', 'ME']);
  const { TOKEN, TOKEN2, WS, T, ME } = await run.finished();

  const members = (await t.api.get(`/auth/organization/list-members?organizationId=${WS}`, TOKEN)).body;
  expect(members.map((m: { role: string; user: { email: string } }) => [m.user.email, m.role]).sort()).toEqual([
    ['ada@example.com', 'owner'],
    ['bo@example.com', 'admin'],
  ]);
  expect((await t.api.get(`/task/${T}`, TOKEN2)).body.userId).toBe(ME);
  const printed = await run.printed(['POST /hook', '"event":"task.assigned"']);
  expect(printed).toContain("'webhook-signature': 'v1,");
  const list = await until('the in-app notification', async () => {
    const res = await t!.api.get('/notification', TOKEN);
    return res.body.length === 1 && res.body;
  });
  expect(list[0]).toMatchObject({ type: 'task.assigned', taskId: T, actor: { name: 'Bo' } });
}, 60_000);
