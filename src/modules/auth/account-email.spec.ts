import { renderPasswordResetEmail, renderVerificationEmail } from './account-email';
import { allowedRedirect, resetPasswordLink, verifyEmailLink } from './account-links';

const config = { clientUrl: 'https://app.example.test', publicApiUrl: 'https://api.example.test' };
const expiresAt = new Date('2030-01-02T03:04:05.678Z');

describe('account email links', () => {
  it('verification: PUBLIC_API_URL/api/auth/verify-email with the token, and the callbackURL when given', () => {
    expect(verifyEmailLink(config, 'tok_en-1', null)).toBe('https://api.example.test/api/auth/verify-email?token=tok_en-1');
    expect(verifyEmailLink(config, 'tok', 'https://app.example.test/done?a=1&b=2')).toBe(
      'https://api.example.test/api/auth/verify-email?token=tok&callbackURL=https%3A%2F%2Fapp.example.test%2Fdone%3Fa%3D1%26b%3D2',
    );
  });

  it('reset: redirectTo or CLIENT_URL/reset-password, with ?token= (an existing query is kept)', () => {
    expect(resetPasswordLink(config, 'tok', null)).toBe('https://app.example.test/reset-password?token=tok');
    expect(resetPasswordLink(config, 'tok', 'https://app.example.test/pw')).toBe('https://app.example.test/pw?token=tok');
    expect(resetPasswordLink(config, 'tok', 'https://app.example.test/pw?lang=fr&token=old')).toBe('https://app.example.test/pw?lang=fr&token=tok');
  });

  it('redirects only to the origins of CLIENT_URL and PUBLIC_API_URL; a path is on CLIENT_URL', () => {
    expect(allowedRedirect('/welcome', config)).toBe('https://app.example.test/welcome');
    expect(allowedRedirect('https://api.example.test/x#frag', config)).toBe('https://api.example.test/x');
    for (const bad of [
      'https://evil.test/',
      '//evil.test/x',
      'javascript:alert(1)',
      'https://app.example.test.evil.test/',
      'https://user@app.example.test/',
      'http://app.example.test/',
    ]) {
      expect([bad, allowedRedirect(bad, config)]).toEqual([bad, null]);
    }
  });
});

describe('account emails', () => {
  const input = { to: 'ada@example.test', name: 'Ada <b>', link: 'https://api.example.test/api/auth/verify-email?token=t&callbackURL=x', expiresAt };

  it('verification: plain text and HTML with the link, the expiry, and escaped names', () => {
    const m = renderVerificationEmail(input);
    expect(m.to).toBe('ada@example.test');
    expect(m.subject).toBe('Verify your email address on Tandem');
    expect(m.text).toContain('Hello Ada <b>,');
    expect(m.text).toContain(`\n${input.link}\n`);
    expect(m.text).toContain('2030-01-02 03:04:05 UTC');
    expect(m.html).toContain('Hello Ada &lt;b&gt;,');
    expect(m.html).not.toContain('<b>');
    expect(m.html).toContain('<a href="https://api.example.test/api/auth/verify-email?token=t&amp;callbackURL=x">');
  });

  it('reset: plain text and HTML with the link and what a reset does', () => {
    const m = renderPasswordResetEmail({ ...input, name: '  ', link: 'https://app.example.test/reset-password?token=t' });
    expect(m.subject).toBe('Reset your Tandem password');
    expect(m.text).toContain('Hello ada@example.test,');
    expect(m.text).toContain('signs the account out everywhere');
    expect(m.text).toContain('https://app.example.test/reset-password?token=t');
    expect(m.html).toContain('<a href="https://app.example.test/reset-password?token=t">');
  });
});
