import { renderInvitationEmail } from './invitation-email';

const base = {
  to: 'bob@example.test',
  workspaceName: 'Acme',
  inviterName: 'Ada',
  inviterEmail: 'ada@example.test',
  role: 'member',
  acceptUrl: 'https://app.example.test/invitation/accept/3f1c1d4e-0000-4000-8000-000000000001',
  expiresAt: new Date('2030-01-02T03:04:05.678Z'),
};

describe('renderInvitationEmail', () => {
  it('names the inviter and the workspace in subject and body and carries the link in both parts', () => {
    const m = renderInvitationEmail(base);
    expect(m.to).toBe('bob@example.test');
    expect(m.subject).toBe('Ada invited you to join Acme on Tandem');
    expect(m.text).toContain('Ada (ada@example.test) has invited you to join the workspace "Acme" on Tandem as member.');
    expect(m.text).toContain(base.acceptUrl);
    expect(m.text).toContain('2030-01-02 03:04:05 UTC');
    expect(m.html).toContain(`<a href="${base.acceptUrl}">`);
    expect(m.html).toContain('<strong>Acme</strong>');
  });

  it('escapes user-supplied names in the HTML part, keeps them readable in the text part', () => {
    const m = renderInvitationEmail({ ...base, workspaceName: '<script>alert("x")</script> & Co', inviterName: "O'Brien <b>" });
    expect(m.html).not.toContain('<script>');
    expect(m.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co');
    expect(m.html).toContain('O&#39;Brien &lt;b&gt;');
    expect(m.text).toContain('"<script>alert("x")</script> & Co"');
  });

  it('keeps the subject on one line and bounded', () => {
    const m = renderInvitationEmail({ ...base, inviterName: 'Eve\r\nBcc: victim@example.test', workspaceName: 'W'.repeat(500) });
    expect(m.subject).not.toMatch(/[\r\n]/);
    expect(m.subject.length).toBeLessThan(300);
  });

  it('falls back to the inviter email, then to "Someone"', () => {
    expect(renderInvitationEmail({ ...base, inviterName: null }).subject).toBe('ada@example.test invited you to join Acme on Tandem');
    expect(renderInvitationEmail({ ...base, inviterName: null, inviterEmail: null }).subject).toBe('Someone invited you to join Acme on Tandem');
  });
});
