import { randomBytes } from 'node:crypto';
import { ForbiddenException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthUser } from '../../../src/common/decorators/current-user.decorator';
import { RequirePermission } from '../../../src/common/decorators/require-permission.decorator';
import { PermissionGuard } from '../../../src/common/guards/permission.guard';
import { AccessService } from '../../../src/common/permissions/access.service';
import { ScopeRegistry } from '../../../src/common/permissions/scope-registry';
import { Auth } from '../../support/api';
import { startTestApp, TestApp } from '../../support/app';
import { addMember, sql } from '../../support/fixtures';
import { TestSmtpServer } from '../../support/smtp';

const ORG = '/auth/organization';
const CLIENT_URL = 'https://app.example.test';
const H48 = 48 * 3600 * 1000;

let t: TestApp;
const smtp = new TestSmtpServer();

beforeAll(async () => {
  const port = await smtp.start();
  t = await startTestApp({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(port), SMTP_FROM: 'Tandem <noreply@tandem.test>', CLIENT_URL });
});
afterAll(async () => {
  await t?.close();
  await smtp.stop();
});

const rand = () => randomBytes(3).toString('hex');
const email = (name = 'invitee') => `${name}.${randomBytes(5).toString('hex')}@example.test`;

interface Owned {
  owner: Auth;
  ws: { id: string; name: string };
}

async function workspace(ownerName = 'Olivia Owner'): Promise<Owned> {
  const owner = await t.api.signUp({ name: ownerName });
  const ws = await t.api.createWorkspace(owner.token, `Acme ${rand()}`);
  return { owner, ws };
}

async function memberOf(workspaceId: string, role: string, name = 'Member'): Promise<Auth & { memberId: string }> {
  const u = await t.api.signUp({ name });
  const memberId = await addMember(t.databaseUrl, workspaceId, u.user.id, role);
  return { ...u, memberId };
}

async function ownerMemberId(workspaceId: string, userId: string): Promise<string> {
  const [row] = await sql(t.databaseUrl, `SELECT id FROM member WHERE organization_id = $1 AND user_id = $2`, [workspaceId, userId]);
  return row.id;
}

async function createRole(token: string, organizationId: string, role: string, permission: unknown) {
  const res = await t.api.post(`${ORG}/create-role`, { organizationId, role, permission }, token);
  if (res.status !== 200) throw new Error(`create-role failed: ${res.status} ${res.text}`);
  return res.body;
}

async function invite(token: string, body: Record<string, unknown>) {
  return t.api.post(`${ORG}/invite-member`, body, token);
}

/** The invitation record of an invite-member answer: without `emailSent` and `link`, which only that answer carries. */
function invitationRecord(answer: Record<string, unknown>) {
  const { emailSent: _sent, link: _link, ...record } = answer;
  return record;
}

describe('create-team / update-team / remove-team', () => {
  it('creates a team with exactly the Team shape; the active organization stands in for organizationId', async () => {
    const { owner, ws } = await workspace();
    const res = await t.api.post(`${ORG}/create-team`, { name: '  Design  ', organizationId: ws.id }, owner.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: expect.any(String), name: 'Design', organizationId: ws.id, createdAt: expect.any(String), updatedAt: expect.any(String) });

    const none = await t.api.post(`${ORG}/create-team`, { name: 'No org' }, owner.token);
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ message: 'No active organization' });
    await t.api.post(`${ORG}/set-active`, { organizationId: ws.id }, owner.token);
    const active = await t.api.post(`${ORG}/create-team`, { name: 'Via active' }, owner.token);
    expect(active.status).toBe(200);
    expect(active.body.organizationId).toBe(ws.id);

    const teams = await t.api.get(`${ORG}/list-teams?organizationId=${ws.id}`, owner.token);
    expect(teams.body.map((x: any) => x.name)).toEqual([ws.name, 'Design', 'Via active']);
  });

  it('allows at most 10 teams per workspace (the default team counts)', async () => {
    const { owner, ws } = await workspace();
    for (let i = 2; i <= 10; i++) {
      const ok = await t.api.post(`${ORG}/create-team`, { name: `Team ${i}`, organizationId: ws.id }, owner.token);
      expect(ok.status).toBe(200);
    }
    const over = await t.api.post(`${ORG}/create-team`, { name: 'Team 11', organizationId: ws.id }, owner.token);
    expect(over.status).toBe(400);
    expect(over.body).toEqual({ message: 'You have reached the maximum number of teams (10)' });
    const [{ count }] = await sql(t.databaseUrl, `SELECT count(*)::int AS count FROM team WHERE organization_id = $1`, [ws.id]);
    expect(count).toBe(10);
  });

  it('validates create-team and answers 404 to non-members, 403 to members without team:create', async () => {
    const { owner, ws } = await workspace();
    const missing = await t.api.post(`${ORG}/create-team`, { organizationId: ws.id }, owner.token);
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ message: 'name is required' });
    const long = await t.api.post(`${ORG}/create-team`, { organizationId: ws.id, name: 'x'.repeat(101) }, owner.token);
    expect(long.body).toEqual({ message: 'name must be at most 100 characters' });
    const extra = await t.api.post(`${ORG}/create-team`, { organizationId: ws.id, name: 'A', color: 'red' }, owner.token);
    expect(extra.status).toBe(400);
    expect(extra.body).toEqual({ message: 'property color should not exist' });

    const stranger = await t.api.signUp();
    const foreign = await t.api.post(`${ORG}/create-team`, { organizationId: ws.id, name: 'A' }, stranger.token);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ message: 'Workspace not found' });
    const malformed = await t.api.post(`${ORG}/create-team`, { organizationId: 'nope', name: 'A' }, owner.token);
    expect(malformed.status).toBe(404);
    const member = await memberOf(ws.id, 'member');
    const denied = await t.api.post(`${ORG}/create-team`, { organizationId: ws.id, name: 'A' }, member.token);
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ message: 'Insufficient permissions: team:create is needed' });
    const admin = await memberOf(ws.id, 'admin');
    expect((await t.api.post(`${ORG}/create-team`, { organizationId: ws.id, name: 'By admin' }, admin.token)).status).toBe(200);
    expect((await t.api.post(`${ORG}/create-team`, { organizationId: ws.id, name: 'x' })).status).toBe(401);
  });

  it('renames a team (only name is written) and answers the Team', async () => {
    const { owner, ws } = await workspace();
    const team = (await t.api.post(`${ORG}/create-team`, { name: 'Old', organizationId: ws.id }, owner.token)).body;
    const other = await workspace();
    const res = await t.api.post(
      `${ORG}/update-team`,
      { teamId: team.id, data: { id: 'ignored', name: 'New', organizationId: other.ws.id, createdAt: '2000-01-01T00:00:00Z', updatedAt: 'x' } },
      owner.token,
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: team.id, name: 'New', organizationId: ws.id, createdAt: team.createdAt, updatedAt: expect.any(String) });
    const [row] = await sql(t.databaseUrl, `SELECT name, organization_id FROM team WHERE id = $1`, [team.id]);
    expect(row).toEqual({ name: 'New', organization_id: ws.id });

    expect((await t.api.post(`${ORG}/update-team`, { teamId: team.id, data: { name: '' } }, owner.token)).body).toEqual({ message: 'data.name is required' });
    expect((await t.api.post(`${ORG}/update-team`, { teamId: team.id }, owner.token)).body).toEqual({ message: 'data is required' });
    expect((await t.api.post(`${ORG}/update-team`, { teamId: team.id, data: 'x' }, owner.token)).body.message).toMatch(/^data must be an object/);
    expect((await t.api.post(`${ORG}/update-team`, { data: { name: 'x' } }, owner.token)).body).toEqual({ message: 'teamId is required' });
    const unknown = await t.api.post(`${ORG}/update-team`, { teamId: '00000000-0000-4000-8000-000000000000', data: { name: 'x' } }, owner.token);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'Team not found' });
    const foreign = await t.api.post(`${ORG}/update-team`, { teamId: team.id, data: { name: 'Hijack' } }, other.owner.token);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ message: 'Team not found' });
    const viewer = await memberOf(ws.id, 'viewer');
    expect((await t.api.post(`${ORG}/update-team`, { teamId: team.id, data: { name: 'V' } }, viewer.token)).status).toBe(403);
  });

  it('removes a team (team:delete)', async () => {
    const { owner, ws } = await workspace();
    const team = (await t.api.post(`${ORG}/create-team`, { name: 'Temp', organizationId: ws.id }, owner.token)).body;
    const member = await memberOf(ws.id, 'member');
    expect((await t.api.post(`${ORG}/remove-team`, { teamId: team.id }, member.token)).status).toBe(403);
    const res = await t.api.post(`${ORG}/remove-team`, { teamId: team.id }, owner.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Team removed successfully.' });
    expect((await t.api.post(`${ORG}/update-team`, { teamId: team.id, data: { name: 'x' } }, owner.token)).status).toBe(404);
  });
});

describe('add-team-member / remove-team-member', () => {
  it('adds a workspace member to a team and removes them with the fixed sentence', async () => {
    const { owner, ws } = await workspace();
    const team = (await t.api.post(`${ORG}/create-team`, { name: 'Core', organizationId: ws.id }, owner.token)).body;
    const m = await memberOf(ws.id, 'member');

    const added = await t.api.post(`${ORG}/add-team-member`, { teamId: team.id, userId: m.user.id, organizationId: ws.id }, owner.token);
    expect(added.status).toBe(200);
    expect(added.body).toEqual({ id: expect.any(String), teamId: team.id, userId: m.user.id, createdAt: expect.any(String) });
    const again = await t.api.post(`${ORG}/add-team-member`, { teamId: team.id, userId: m.user.id }, owner.token);
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: 'User is already a member of this team' });
    const listed = await t.api.get(`${ORG}/list-team-members?teamId=${team.id}`, owner.token);
    expect([listed.status, listed.body]).toEqual([200, [added.body]]);
    const outsider = await t.api.signUp();
    const notMember = await t.api.post(`${ORG}/add-team-member`, { teamId: team.id, userId: outsider.user.id }, owner.token);
    expect(notMember.status).toBe(400);
    expect(notMember.body).toEqual({ message: 'User is not a member of this organization' });

    const other = await workspace();
    const wrongOrg = await t.api.post(`${ORG}/remove-team-member`, { teamId: team.id, userId: m.user.id, organizationId: other.ws.id }, owner.token);
    expect(wrongOrg.status).toBe(404);
    expect(wrongOrg.body).toEqual({ message: 'Team not found' });
    expect((await t.api.post(`${ORG}/remove-team-member`, { teamId: team.id, userId: m.user.id }, m.token)).status).toBe(403);
    expect((await t.api.post(`${ORG}/remove-team-member`, { teamId: team.id, userId: m.user.id }, other.owner.token)).status).toBe(404);

    const removed = await t.api.post(`${ORG}/remove-team-member`, { teamId: team.id, userId: m.user.id, organizationId: ws.id }, owner.token);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ message: 'Team member removed successfully.' });
    expect((await t.api.get(`${ORG}/list-team-members?teamId=${team.id}&organizationId=${ws.id}`, owner.token)).body).toEqual([]);
    const gone = await t.api.post(`${ORG}/remove-team-member`, { teamId: team.id, userId: m.user.id }, owner.token);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ message: 'Team member not found' });
    expect((await t.api.post(`${ORG}/remove-team-member`, { teamId: team.id }, owner.token)).body).toEqual({ message: 'userId is required' });
  });
});

describe('list-team-members', () => {
  it("lists a team's members, oldest first, to any member of its workspace and to nobody else", async () => {
    const { owner, ws } = await workspace();
    const team = (await t.api.post(`${ORG}/create-team`, { name: 'Crew', organizationId: ws.id }, owner.token)).body;
    const [a, b] = [await memberOf(ws.id, 'member'), await memberOf(ws.id, 'viewer')];
    for (const u of [b, a]) expect((await t.api.post(`${ORG}/add-team-member`, { teamId: team.id, userId: u.user.id }, owner.token)).status).toBe(200);
    const byViewer = await t.api.get(`${ORG}/list-team-members?teamId=${team.id}`, b.token);
    expect(byViewer.status).toBe(200);
    expect(byViewer.body.map((r: { userId: string }) => r.userId)).toEqual([b.user.id, a.user.id]);
    expect(byViewer.body[0]).toEqual({ id: expect.any(String), teamId: team.id, userId: b.user.id, createdAt: expect.any(String) });

    const other = await workspace();
    for (const [path, token] of [
      [`${ORG}/list-team-members?teamId=${team.id}`, other.owner.token],
      [`${ORG}/list-team-members?teamId=${team.id}&organizationId=${other.ws.id}`, owner.token],
      [`${ORG}/list-team-members?teamId=not-a-team`, owner.token],
    ] as const) {
      const res = await t.api.get(path, token);
      expect([res.status, res.body]).toEqual([404, { message: 'Team not found' }]);
    }
    const none = await t.api.get(`${ORG}/list-team-members`, owner.token);
    expect([none.status, none.body]).toEqual([400, { message: 'teamId is required' }]);
  });
});

describe('invite-member and the invitation email', () => {
  it('creates a pending invitation for 48 h and the worker emails the accept link, naming inviter and workspace', async () => {
    const { owner, ws } = await workspace('Olivia Owner');
    const to = email('Bob');
    const before = Date.now();
    const res = await invite(owner.token, { email: to.toUpperCase(), role: 'member', organizationId: ws.id });
    const after = Date.now();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(String),
      email: to.toLowerCase(),
      role: 'member',
      organizationId: ws.id,
      inviterId: owner.user.id,
      teamId: null,
      status: 'pending',
      expiresAt: expect.any(String),
      createdAt: expect.any(String),
      // This suite's service has SMTP: the worker emails the link below.
      emailSent: true,
      link: `${CLIENT_URL}/invitation/accept/${res.body.id}`,
    });
    const expires = new Date(res.body.expiresAt).getTime();
    expect(expires).toBeGreaterThanOrEqual(before + H48);
    expect(expires).toBeLessThanOrEqual(after + H48);

    const [mail] = await smtp.waitFor(to.toLowerCase(), 1);
    const link = `${CLIENT_URL}/invitation/accept/${res.body.id}`;
    expect(mail.parsed.subject).toBe(`Olivia Owner invited you to join ${ws.name} on Tandem`);
    expect(mail.parsed.from?.value).toEqual([{ name: 'Tandem', address: 'noreply@tandem.test' }]);
    expect(mail.envelope.to).toEqual([to.toLowerCase()]);
    expect(mail.parsed.text).toContain(link);
    expect(mail.parsed.text).toContain(`Olivia Owner (${owner.user.email})`);
    expect(mail.parsed.text).toContain(`"${ws.name}"`);
    expect(mail.parsed.html).toContain(`href="${link}"`);
    expect(mail.parsed.html).toContain(`<strong>${ws.name}</strong>`);
    // The outbox row was relayed and removed.
    const left = await sql(t.databaseUrl, `SELECT 1 FROM outbox o JOIN email_job j ON j.id::text = o.id WHERE j.reference->>'invitationId' = $1`, [res.body.id]);
    expect(left).toHaveLength(0);
  });

  it('refuses a second invitation without resend; resend extends the same invitation and sends a second email', async () => {
    const { owner, ws } = await workspace();
    const to = email();
    const first = await invite(owner.token, { email: to, role: 'member', organizationId: ws.id });
    await smtp.waitFor(to, 1);
    const dup = await invite(owner.token, { email: to, role: 'admin', organizationId: ws.id });
    expect(dup.status).toBe(400);
    expect(dup.body).toEqual({ message: 'User is already invited to this organization' });
    const notResend = await invite(owner.token, { email: to, role: 'member', organizationId: ws.id, resend: false });
    expect(notResend.status).toBe(400);

    await sql(t.databaseUrl, `UPDATE invitation SET expires_at = now() + interval '1 hour' WHERE id = $1`, [first.body.id]);
    const before = Date.now();
    const again = await invite(owner.token, { email: to, role: 'member', organizationId: ws.id, resend: true });
    const after = Date.now();
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.status).toBe('pending');
    // extended to 48 h from the resend
    expect(new Date(again.body.expiresAt).getTime()).toBeGreaterThanOrEqual(before + H48);
    expect(new Date(again.body.expiresAt).getTime()).toBeLessThanOrEqual(after + H48);
    const mails = await smtp.waitFor(to, 2);
    expect(mails).toHaveLength(2);
    for (const m of mails) expect(m.parsed.text).toContain(`${CLIENT_URL}/invitation/accept/${first.body.id}`);
    const rows = await sql(t.databaseUrl, `SELECT id, send_count FROM invitation WHERE organization_id = $1 AND email = $2`, [ws.id, to]);
    expect(rows).toEqual([{ id: first.body.id, send_count: 2 }]);
  });

  it('replaces an expired pending invitation with a new one', async () => {
    const { owner, ws } = await workspace();
    const to = email();
    const first = await invite(owner.token, { email: to, role: 'member', organizationId: ws.id });
    await sql(t.databaseUrl, `UPDATE invitation SET expires_at = now() - interval '1 minute' WHERE id = $1`, [first.body.id]);
    const second = await invite(owner.token, { email: to, role: 'admin', organizationId: ws.id });
    expect(second.status).toBe(200);
    expect(second.body.id).not.toBe(first.body.id);
    expect(second.body.role).toBe('admin');
    const rows = await sql(t.databaseUrl, `SELECT id, status FROM invitation WHERE organization_id = $1 ORDER BY created_at`, [ws.id]);
    expect(rows).toEqual([
      { id: first.body.id, status: 'canceled' },
      { id: second.body.id, status: 'pending' },
    ]);
  });

  it('refuses to invite a member, an owner by a non-owner, unknown roles and teams, bad emails', async () => {
    const { owner, ws } = await workspace();
    const existing = await memberOf(ws.id, 'member');
    const already = await invite(owner.token, { email: existing.user.email.toUpperCase(), role: 'member', organizationId: ws.id });
    expect(already.status).toBe(400);
    expect(already.body).toEqual({ message: 'User is already a member of this organization' });

    const admin = await memberOf(ws.id, 'admin');
    const byAdmin = await invite(admin.token, { email: email(), role: 'owner', organizationId: ws.id });
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body).toEqual({ message: 'Only an owner can invite an owner' });
    expect((await invite(admin.token, { email: email(), role: 'admin', organizationId: ws.id })).status).toBe(200);
    const byOwner = await invite(owner.token, { email: email(), role: 'owner', organizationId: ws.id });
    expect(byOwner.status).toBe(200);
    expect(byOwner.body.role).toBe('owner');

    expect((await invite(owner.token, { email: email(), role: 'boss', organizationId: ws.id })).body).toEqual({ message: 'Unknown role: boss' });
    expect((await invite(owner.token, { email: 'not-an-email', role: 'member', organizationId: ws.id })).body).toEqual({ message: 'email must be a valid email address' });
    expect((await invite(owner.token, { role: 'member', organizationId: ws.id })).body).toEqual({ message: 'email is required' });
    expect((await invite(owner.token, { email: email(), organizationId: ws.id })).body).toEqual({ message: 'role is required' });
    expect((await invite(owner.token, { email: email(), role: 'member', organizationId: ws.id, resend: 'yes' })).status).toBe(400);
    const team = await invite(owner.token, { email: email(), role: 'member', organizationId: ws.id, teamId: '00000000-0000-4000-8000-000000000000' });
    expect(team.status).toBe(404);
    expect(team.body).toEqual({ message: 'Team not found' });
    const other = await workspace();
    const [foreignTeam] = await sql(t.databaseUrl, `SELECT id FROM team WHERE organization_id = $1`, [other.ws.id]);
    expect((await invite(owner.token, { email: email(), role: 'member', organizationId: ws.id, teamId: foreignTeam.id })).status).toBe(404);

    const member = await memberOf(ws.id, 'member');
    const denied = await invite(member.token, { email: email(), role: 'viewer', organizationId: ws.id });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ message: 'Insufficient permissions: invitation:create is needed' });
    const stranger = await invite(other.owner.token, { email: email(), role: 'member', organizationId: ws.id });
    expect(stranger.status).toBe(404);
    expect(stranger.body).toEqual({ message: 'Workspace not found' });
  });

  it('cancel-invitation answers the canceled invitation; it can no longer be accepted', async () => {
    const { owner, ws } = await workspace();
    const invitee = await t.api.signUp();
    const inv = invitationRecord((await invite(owner.token, { email: invitee.user.email, role: 'member', organizationId: ws.id })).body);
    const member = await memberOf(ws.id, 'member');
    expect((await t.api.post(`${ORG}/cancel-invitation`, { invitationId: inv.id }, member.token)).status).toBe(403);
    const other = await workspace();
    const foreign = await t.api.post(`${ORG}/cancel-invitation`, { invitationId: inv.id }, other.owner.token);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ message: 'Invitation not found' });
    expect((await t.api.post(`${ORG}/cancel-invitation`, { invitationId: 'bad' }, owner.token)).status).toBe(404);
    expect((await t.api.post(`${ORG}/cancel-invitation`, {}, owner.token)).body).toEqual({ message: 'invitationId is required' });

    const res = await t.api.post(`${ORG}/cancel-invitation`, { invitationId: inv.id }, owner.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...inv, status: 'canceled' });
    const accept = await t.api.post(`${ORG}/accept-invitation`, { invitationId: inv.id }, invitee.token);
    expect(accept.status).toBe(400);
    expect(accept.body).toEqual({ message: 'Invitation is no longer pending' });
    // Canceling twice is harmless.
    expect((await t.api.post(`${ORG}/cancel-invitation`, { invitationId: inv.id }, owner.token)).body.status).toBe('canceled');
  });
});

describe('accept-invitation / reject-invitation', () => {
  it('the invited user joins with the role, the team, and the workspace as active organization', async () => {
    const { owner, ws } = await workspace();
    const team = (await t.api.post(`${ORG}/create-team`, { name: 'Ops', organizationId: ws.id }, owner.token)).body;
    const invitee = await t.api.signUp();
    const inv = invitationRecord((await invite(owner.token, { email: invitee.user.email, role: 'admin', teamId: team.id, organizationId: ws.id })).body);
    expect(inv.teamId).toBe(team.id);

    const intruder = await t.api.signUp();
    const wrong = await t.api.post(`${ORG}/accept-invitation`, { invitationId: inv.id }, intruder.token);
    expect(wrong.status).toBe(403);
    expect(wrong.body).toEqual({ message: 'You are not the recipient of the invitation' });
    expect((await t.api.post(`${ORG}/accept-invitation`, { invitationId: '00000000-0000-4000-8000-000000000000' }, invitee.token)).status).toBe(404);
    expect((await t.api.post(`${ORG}/accept-invitation`, { invitationId: 'x' }, invitee.token)).body).toEqual({ message: 'Invitation not found' });

    const res = await t.api.post(`${ORG}/accept-invitation`, { invitationId: inv.id }, invitee.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      invitation: { ...inv, status: 'accepted' },
      member: { id: expect.any(String), userId: invitee.user.id, organizationId: ws.id, role: 'admin', createdAt: expect.any(String) },
    });
    const session = await t.api.get('/auth/get-session', invitee.token);
    expect(session.body.session.activeOrganizationId).toBe(ws.id);
    const inTeam = await sql(t.databaseUrl, `SELECT 1 FROM team_member WHERE team_id = $1 AND user_id = $2`, [team.id, invitee.user.id]);
    expect(inTeam).toHaveLength(1);
    // Now a member: admin rights work, and a second accept is refused.
    expect((await t.api.post(`${ORG}/create-team`, { name: 'By invitee' }, invitee.token)).status).toBe(200);
    expect((await t.api.post(`${ORG}/accept-invitation`, { invitationId: inv.id }, invitee.token)).status).toBe(400);
  });

  it('refuses an expired invitation; reject answers the rejected invitation', async () => {
    const { owner, ws } = await workspace();
    const invitee = await t.api.signUp();
    const inv = invitationRecord((await invite(owner.token, { email: invitee.user.email, role: 'member', organizationId: ws.id })).body);
    await sql(t.databaseUrl, `UPDATE invitation SET expires_at = now() - interval '1 second' WHERE id = $1`, [inv.id]);
    const expired = await t.api.post(`${ORG}/accept-invitation`, { invitationId: inv.id }, invitee.token);
    expect(expired.status).toBe(400);
    expect(expired.body).toEqual({ message: 'Invitation has expired' });
    const [row] = await sql(t.databaseUrl, `SELECT status FROM invitation WHERE id = $1`, [inv.id]);
    expect(row.status).toBe('pending');

    const second = await workspace();
    const inv2 = invitationRecord((await invite(second.owner.token, { email: invitee.user.email, role: 'member', organizationId: second.ws.id })).body);
    expect((await t.api.post(`${ORG}/reject-invitation`, { invitationId: inv2.id }, owner.token)).status).toBe(403);
    const rejected = await t.api.post(`${ORG}/reject-invitation`, { invitationId: inv2.id }, invitee.token);
    expect(rejected.status).toBe(200);
    expect(rejected.body).toEqual({ ...inv2, status: 'rejected' });
    expect((await t.api.post(`${ORG}/accept-invitation`, { invitationId: inv2.id }, invitee.token)).body).toEqual({ message: 'Invitation is no longer pending' });
    expect((await t.api.get(`${ORG}/list-members?organizationId=${second.ws.id}`, invitee.token)).status).toBe(404);
  });
});

describe('update-member-role', () => {
  it('sets roles from a string, a comma list or an array and answers {member}', async () => {
    const { owner, ws } = await workspace();
    const m = await memberOf(ws.id, 'member');
    const one = await t.api.post(`${ORG}/update-member-role`, { role: 'admin', memberId: m.memberId, organizationId: ws.id }, owner.token);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ member: { id: m.memberId, userId: m.user.id, organizationId: ws.id, role: 'admin', createdAt: expect.any(String) } });
    const list = await t.api.post(`${ORG}/update-member-role`, { role: 'member, viewer', memberId: m.memberId, organizationId: ws.id }, owner.token);
    expect(list.body.member.role).toBe('member,viewer');
    const arr = await t.api.post(`${ORG}/update-member-role`, { role: ['viewer', 'admin'], memberId: m.memberId, organizationId: ws.id }, owner.token);
    expect(arr.body.member.role).toBe('viewer,admin');
    const [row] = await sql(t.databaseUrl, `SELECT role FROM member WHERE id = $1`, [m.memberId]);
    expect(row.role).toBe('viewer,admin');
  });

  it('uses the active organization when organizationId is omitted; none → 400', async () => {
    const { owner, ws } = await workspace();
    const m = await memberOf(ws.id, 'member');
    const none = await t.api.post(`${ORG}/update-member-role`, { role: 'admin', memberId: m.memberId }, owner.token);
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ message: 'No active organization' });
    await t.api.post(`${ORG}/set-active`, { organizationId: ws.id }, owner.token);
    const ok = await t.api.post(`${ORG}/update-member-role`, { role: 'admin', memberId: m.memberId }, owner.token);
    expect(ok.status).toBe(200);
    expect(ok.body.member.role).toBe('admin');
  });

  it('keeps an owner: the last owner cannot demote itself; only owners grant or change owner', async () => {
    const { owner, ws } = await workspace();
    const ownerId = await ownerMemberId(ws.id, owner.user.id);
    const last = await t.api.post(`${ORG}/update-member-role`, { role: 'admin', memberId: ownerId, organizationId: ws.id }, owner.token);
    expect(last.status).toBe(400);
    expect(last.body).toEqual({ message: 'You cannot leave the organization without an owner' });

    const admin = await memberOf(ws.id, 'admin');
    const m = await memberOf(ws.id, 'member');
    const grant = await t.api.post(`${ORG}/update-member-role`, { role: 'owner', memberId: m.memberId, organizationId: ws.id }, admin.token);
    expect(grant.status).toBe(403);
    expect(grant.body).toEqual({ message: 'Only an owner can grant the owner role' });
    const demote = await t.api.post(`${ORG}/update-member-role`, { role: 'member', memberId: ownerId, organizationId: ws.id }, admin.token);
    expect(demote.status).toBe(403);
    expect(demote.body).toEqual({ message: 'Only an owner can change the role of an owner' });
    expect((await t.api.post(`${ORG}/update-member-role`, { role: 'viewer', memberId: m.memberId, organizationId: ws.id }, admin.token)).status).toBe(200);

    // With a second owner, the first may step down.
    expect((await t.api.post(`${ORG}/update-member-role`, { role: 'owner', memberId: m.memberId, organizationId: ws.id }, owner.token)).status).toBe(200);
    const stepDown = await t.api.post(`${ORG}/update-member-role`, { role: ['admin'], memberId: ownerId, organizationId: ws.id }, owner.token);
    expect(stepDown.status).toBe(200);
    expect(stepDown.body.member.role).toBe('admin');
  });

  it('validates the role and the member; 404 to non-members, 403 without member:update', async () => {
    const { owner, ws } = await workspace();
    const m = await memberOf(ws.id, 'member');
    const post = (body: object, token = owner.token) => t.api.post(`${ORG}/update-member-role`, { organizationId: ws.id, ...body }, token);
    expect((await post({ role: 'superuser', memberId: m.memberId })).body).toEqual({ message: 'Unknown role: superuser' });
    expect((await post({ role: 'Admin', memberId: m.memberId })).body).toEqual({ message: 'Unknown role: Admin' });
    expect((await post({ role: [], memberId: m.memberId })).body).toEqual({ message: 'role must be a role name or an array of role names' });
    expect((await post({ role: 5, memberId: m.memberId })).status).toBe(400);
    expect((await post({ role: ' , ', memberId: m.memberId })).body).toEqual({ message: 'role is required' });
    expect((await post({ role: 'admin' })).body).toEqual({ message: 'memberId is required' });
    const unknown = await post({ role: 'admin', memberId: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'Member not found' });
    const other = await workspace();
    const foreignMember = await ownerMemberId(other.ws.id, other.owner.user.id);
    expect((await post({ role: 'admin', memberId: foreignMember })).status).toBe(404);
    expect((await post({ role: 'admin', memberId: m.memberId }, other.owner.token)).status).toBe(404);
    const denied = await post({ role: 'admin', memberId: m.memberId }, m.token);
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ message: 'Insufficient permissions: member:update is needed' });
  });
});

describe('remove-member', () => {
  it('removes by member id or email, with the team memberships; the member loses access', async () => {
    const { owner, ws } = await workspace();
    const [team] = await sql(t.databaseUrl, `SELECT id FROM team WHERE organization_id = $1`, [ws.id]);
    const a = await memberOf(ws.id, 'member');
    const b = await memberOf(ws.id, 'viewer');
    await t.api.post(`${ORG}/add-team-member`, { teamId: team.id, userId: a.user.id }, owner.token);

    const byId = await t.api.post(`${ORG}/remove-member`, { memberIdOrEmail: a.memberId, organizationId: ws.id }, owner.token);
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual({ member: { id: a.memberId, userId: a.user.id, organizationId: ws.id, role: 'member', createdAt: expect.any(String) } });
    expect(await sql(t.databaseUrl, `SELECT 1 FROM team_member WHERE user_id = $1`, [a.user.id])).toHaveLength(0);
    expect((await t.api.get(`${ORG}/list-members?organizationId=${ws.id}`, a.token)).status).toBe(404);

    const byEmail = await t.api.post(`${ORG}/remove-member`, { memberIdOrEmail: b.user.email.toUpperCase(), organizationId: ws.id }, owner.token);
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.member.id).toBe(b.memberId);
    const again = await t.api.post(`${ORG}/remove-member`, { memberIdOrEmail: b.memberId, organizationId: ws.id }, owner.token);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: 'Member not found' });
    expect((await t.api.post(`${ORG}/remove-member`, { memberIdOrEmail: 'nobody', organizationId: ws.id }, owner.token)).status).toBe(404);
    expect((await t.api.post(`${ORG}/remove-member`, { organizationId: ws.id }, owner.token)).body).toEqual({ message: 'memberIdOrEmail is required' });
  });

  it('never removes the last owner; only an owner removes an owner; 403 without member:delete', async () => {
    const { owner, ws } = await workspace();
    const ownerId = await ownerMemberId(ws.id, owner.user.id);
    const last = await t.api.post(`${ORG}/remove-member`, { memberIdOrEmail: ownerId, organizationId: ws.id }, owner.token);
    expect(last.status).toBe(400);
    expect(last.body).toEqual({ message: 'You cannot leave the organization without an owner' });
    const admin = await memberOf(ws.id, 'admin');
    const byAdmin = await t.api.post(`${ORG}/remove-member`, { memberIdOrEmail: owner.user.email, organizationId: ws.id }, admin.token);
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body).toEqual({ message: 'Only an owner can remove an owner' });
    const m = await memberOf(ws.id, 'member');
    expect((await t.api.post(`${ORG}/remove-member`, { memberIdOrEmail: admin.memberId, organizationId: ws.id }, m.token)).status).toBe(403);
    expect((await t.api.post(`${ORG}/remove-member`, { memberIdOrEmail: m.memberId, organizationId: ws.id }, admin.token)).status).toBe(200);

    const second = await memberOf(ws.id, 'owner');
    const ok = await t.api.post(`${ORG}/remove-member`, { memberIdOrEmail: ownerId, organizationId: ws.id }, second.token);
    expect(ok.status).toBe(200);
    const owners = await sql(t.databaseUrl, `SELECT user_id FROM member WHERE organization_id = $1 AND role = 'owner'`, [ws.id]);
    expect(owners).toEqual([{ user_id: second.user.id }]);
  });
});

describe('create-role', () => {
  it('creates a role from an object or a JSON string and answers {success, roleData, statements}', async () => {
    const { owner, ws } = await workspace();
    const res = await t.api.post(
      `${ORG}/create-role`,
      { role: 'task-editor', permission: { task: ['update', 'read', 'update'] }, organizationId: ws.id, additionalFields: { color: 'teal' } },
      owner.token,
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      roleData: { id: expect.any(String), organizationId: ws.id, role: 'task-editor', permission: { task: ['update', 'read'] }, createdAt: expect.any(String) },
      statements: { task: ['update', 'read'] },
    });
    const str = await t.api.post(`${ORG}/create-role`, { role: 'labeler', permission: JSON.stringify({ label: ['create', 'update'] }), organizationId: ws.id }, owner.token);
    expect(str.status).toBe(200);
    expect(str.body.roleData.permission).toEqual({ label: ['create', 'update'] });

    const roles = await t.api.get(`${ORG}/list-roles?organizationId=${ws.id}`, owner.token);
    expect(roles.body.map((r: any) => [r.role, r.additionalFields])).toEqual([
      ['task-editor', { color: 'teal' }],
      ['labeler', null],
    ]);
  });

  it('answers 400 to missing or invalid parameters, unknown resources or actions, taken names', async () => {
    const { owner, ws } = await workspace();
    const post = (body: object) => t.api.post(`${ORG}/create-role`, { organizationId: ws.id, ...body }, owner.token);
    const invalid = { message: 'The provided permission includes an invalid resource' };
    expect((await post({ role: 'r1', permission: { spaceship: ['fly'] } })).body).toEqual(invalid);
    expect((await post({ role: 'r1', permission: { task: ['fly'] } })).body).toEqual(invalid);
    expect((await post({ role: 'r1', permission: { task: 'update' } })).body).toEqual(invalid);
    expect((await post({ role: 'r1', permission: '{"task":["explode"]}' })).body).toEqual(invalid);
    expect((await post({ role: 'r1', permission: '{not json' })).body).toEqual({ message: 'permission must be an object or a JSON string of one' });
    expect((await post({ role: 'r1', permission: '[1]' })).status).toBe(400);
    expect((await post({ role: 'r1', permission: {} })).body).toEqual({ message: 'permission must grant at least one action' });
    expect((await post({ role: 'r1' })).body).toEqual({ message: 'permission is required' });
    expect((await post({ permission: { task: ['update'] } })).body).toEqual({ message: 'role is required' });
    expect((await post({ role: 'a,b', permission: { task: ['update'] } })).status).toBe(400);
    expect((await post({ role: 'r1', permission: { task: ['update'] }, additionalFields: 'x' })).status).toBe(400);

    expect((await post({ role: 'Reviewer', permission: { task: ['update'] } })).status).toBe(200);
    const taken = { message: 'That role name is already taken' };
    expect((await post({ role: 'Reviewer', permission: { task: ['read'] } })).body).toEqual(taken);
    expect((await post({ role: 'reviewer', permission: { task: ['read'] } })).body).toEqual(taken);
    expect((await post({ role: 'admin', permission: { task: ['read'] } })).body).toEqual(taken);
    expect((await post({ role: 'Owner', permission: { task: ['read'] } })).body).toEqual(taken);
    // The same name in another workspace is fine.
    const other = await workspace();
    expect((await t.api.post(`${ORG}/create-role`, { organizationId: other.ws.id, role: 'Reviewer', permission: { task: ['read'] } }, other.owner.token)).status).toBe(200);
  });

  it('allows at most 25 roles per workspace', async () => {
    const { owner, ws } = await workspace();
    for (let i = 1; i <= 25; i++) await createRole(owner.token, ws.id, `role-${i}`, { task: ['read'] });
    const over = await t.api.post(`${ORG}/create-role`, { organizationId: ws.id, role: 'role-26', permission: { task: ['read'] } }, owner.token);
    expect(over.status).toBe(400);
    expect(over.body).toEqual({ message: 'You have reached the maximum number of roles (25)' });
  });

  it('refuses to grant what the caller lacks (403), members without ac:create (403), non-members (404)', async () => {
    const { owner, ws } = await workspace();
    const admin = await memberOf(ws.id, 'admin');
    const escalate = await t.api.post(`${ORG}/create-role`, { organizationId: ws.id, role: 'destroyer', permission: { organization: ['delete'] } }, admin.token);
    expect(escalate.status).toBe(403);
    expect(escalate.body).toEqual({ message: 'You cannot grant permissions you do not have' });
    expect((await t.api.post(`${ORG}/create-role`, { organizationId: ws.id, role: 'helper', permission: { task: ['update'] } }, admin.token)).status).toBe(200);
    expect((await t.api.post(`${ORG}/create-role`, { organizationId: ws.id, role: 'destroyer', permission: { organization: ['delete'] } }, owner.token)).status).toBe(200);
    const member = await memberOf(ws.id, 'member');
    const denied = await t.api.post(`${ORG}/create-role`, { organizationId: ws.id, role: 'mine', permission: { task: ['read'] } }, member.token);
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ message: 'Insufficient permissions: ac:create is needed' });
    const stranger = await t.api.signUp();
    expect((await t.api.post(`${ORG}/create-role`, { organizationId: ws.id, role: 'x', permission: { task: ['read'] } }, stranger.token)).status).toBe(404);
    expect((await t.api.post(`${ORG}/create-role`, { role: 'x', permission: { task: ['read'] } }, owner.token)).body).toEqual({ message: 'No active organization' });

    // An admin cannot hand the owner-created role to anyone (it holds organization:delete).
    const m2 = await memberOf(ws.id, 'member');
    const grant = await t.api.post(`${ORG}/update-member-role`, { organizationId: ws.id, memberId: m2.memberId, role: 'destroyer' }, admin.token);
    expect(grant.status).toBe(403);
    expect(grant.body).toEqual({ message: 'You cannot grant a role with permissions you do not have' });
    expect((await t.api.post(`${ORG}/update-member-role`, { organizationId: ws.id, memberId: m2.memberId, role: 'destroyer' }, owner.token)).status).toBe(200);
  });
});

// A stand-in for the task-move / project-rename routes of another branch: the same guard, the
// same declarations, on a real workspace of the running app.
class Probe {
  @RequirePermission('task', 'update', { kind: 'workspace', from: 'body', key: 'organizationId' })
  moveTask() {}
  @RequirePermission('project', 'update', { kind: 'workspace', from: 'body', key: 'organizationId' })
  renameProject() {}
}

function probe(handler: () => void, user: Auth, organizationId: string) {
  const guard = new PermissionGuard(new Reflector(), t.running.app.get(AccessService), t.running.app.get(ScopeRegistry));
  const req: any = {
    user: { id: user.user.id, name: user.user.name, email: user.user.email, isInstanceAdmin: false } satisfies AuthUser,
    body: { organizationId },
    params: {},
    query: {},
  };
  const ctx: any = { getType: () => 'http', getHandler: () => handler, getClass: () => Probe, switchToHttp: () => ({ getRequest: () => req }) };
  return guard.canActivate(ctx).then((ok) => ({ ok, scope: req.scope }));
}

describe('custom roles in the permission guard', () => {
  it('a role granting only task:update allows task:update and nothing else', async () => {
    const { owner, ws } = await workspace();
    await createRole(owner.token, ws.id, 'task-editor', { task: ['update'] });
    const u = await t.api.signUp();
    const inv = invitationRecord((await invite(owner.token, { email: u.user.email, role: 'task-editor', organizationId: ws.id })).body);
    const joined = await t.api.post(`${ORG}/accept-invitation`, { invitationId: inv.id }, u.token);
    expect(joined.body.member.role).toBe('task-editor');

    const perms = await t.running.app.get(AccessService).permissionsFor(ws.id, ['task-editor']);
    expect([...perms].map(([r, a]) => [r, [...a]])).toEqual([['task', ['update']]]);

    const allowed = await probe(Probe.prototype.moveTask, u, ws.id);
    expect(allowed.ok).toBe(true);
    expect(allowed.scope.roles).toEqual(['task-editor']);
    await expect(probe(Probe.prototype.renameProject, u, ws.id)).rejects.toBeInstanceOf(ForbiddenException);

    // Real routes: reads work (any member), every write outside its grant is refused.
    expect((await t.api.get(`${ORG}/list-members?organizationId=${ws.id}`, u.token)).status).toBe(200);
    const refused: [string, { status: number; body: unknown }][] = [
      ['organization:update', await t.api.post(`${ORG}/update`, { organizationId: ws.id, data: { name: 'Renamed' } }, u.token)],
      ['invitation:create', await invite(u.token, { email: email(), role: 'viewer', organizationId: ws.id })],
      ['team:create', await t.api.post(`${ORG}/create-team`, { organizationId: ws.id, name: 'T' }, u.token)],
      ['ac:create', await t.api.post(`${ORG}/create-role`, { organizationId: ws.id, role: 'x', permission: { task: ['update'] } }, u.token)],
      ['member:update', await t.api.post(`${ORG}/update-member-role`, { organizationId: ws.id, memberId: joined.body.member.id, role: 'admin' }, u.token)],
    ];
    for (const [permission, r] of refused) expect([r.status, r.body]).toEqual([403, { message: `Insufficient permissions: ${permission} is needed` }]);

    // A stranger is not found, whatever the role names.
    const stranger = await t.api.signUp();
    await expect(probe(Probe.prototype.moveTask, stranger, ws.id)).rejects.toMatchObject({ status: 404 });
  });

  it('a role granting invitation and team actions opens exactly those routes, without escalation', async () => {
    const { owner, ws } = await workspace();
    await createRole(owner.token, ws.id, 'recruiter', { invitation: ['create', 'cancel'], team: ['create'] });
    const r = await memberOf(ws.id, 'recruiter');
    const viewerInvite = await invite(r.token, { email: email(), role: 'viewer', organizationId: ws.id });
    expect(viewerInvite.status).toBe(200);
    expect((await t.api.post(`${ORG}/cancel-invitation`, { invitationId: viewerInvite.body.id }, r.token)).body.status).toBe('canceled');
    expect((await t.api.post(`${ORG}/create-team`, { organizationId: ws.id, name: 'Recruits' }, r.token)).status).toBe(200);
    // 'member' carries task and project actions the recruiter does not hold.
    const memberInvite = await invite(r.token, { email: email(), role: 'member', organizationId: ws.id });
    expect(memberInvite.status).toBe(403);
    expect(memberInvite.body).toEqual({ message: 'You cannot invite with a role that has permissions you do not have' });
    expect((await t.api.post(`${ORG}/update`, { organizationId: ws.id, data: { name: 'x' } }, r.token)).status).toBe(403);
    expect((await t.api.post(`${ORG}/remove-member`, { organizationId: ws.id, memberIdOrEmail: r.memberId }, r.token)).status).toBe(403);

    // Multi-role members get the union: viewer + recruiter still invites.
    const both = await memberOf(ws.id, 'viewer,recruiter');
    expect((await invite(both.token, { email: email(), role: 'viewer', organizationId: ws.id })).status).toBe(200);
  });
});
