import { escapeHtml } from '../../common/text/html';
import { EmailMessage } from '../mail/email.types';

/** What an account email needs: the addressee, the link that carries the token and its expiry. */
export interface AccountEmailInput {
  to: string;
  name: string;
  link: string;
  expiresAt: Date;
}

const when = (d: Date) =>
  d
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');

function html(paragraphs: string[], link: string, action: string, footer: string): string {
  const e = escapeHtml;
  return `<!doctype html>
<html>
  <body style="font-family: sans-serif; line-height: 1.5">
${paragraphs.map((p) => `    <p>${e(p)}</p>`).join('\n')}
    <p><a href="${e(link)}">${e(action)}</a></p>
    <p style="color: #666">Or open this link: ${e(link)}<br>${e(footer)}</p>
  </body>
</html>
`;
}

/** The email that proves an address: its link verifies the email of the account (docs/accounts.md). */
export function renderVerificationEmail(input: AccountEmailInput): EmailMessage {
  const hello = `Hello ${input.name.trim() || input.to},`;
  const body = `Please confirm that ${input.to} is your email address on Tandem.`;
  const footer = `The link works once and expires on ${when(input.expiresAt)}. If you did not sign up for Tandem, you can ignore this email.`;
  return {
    to: input.to,
    subject: 'Verify your email address on Tandem',
    text: [hello, '', body, '', 'Verify your email address:', input.link, '', footer, ''].join('\n'),
    html: html([hello, body], input.link, 'Verify your email address', footer),
  };
}

/** The email that lets the owner of an address choose a new password (docs/accounts.md). */
export function renderPasswordResetEmail(input: AccountEmailInput): EmailMessage {
  const hello = `Hello ${input.name.trim() || input.to},`;
  const body = `Someone, hopefully you, asked to reset the password of the Tandem account ${input.to}. Choosing a new password signs the account out everywhere.`;
  const footer = `The link works once and expires on ${when(input.expiresAt)}. If you did not ask for it, ignore this email: your password stays as it is.`;
  return {
    to: input.to,
    subject: 'Reset your Tandem password',
    text: [hello, '', body, '', 'Choose a new password:', input.link, '', footer, ''].join('\n'),
    html: html([hello, body], input.link, 'Choose a new password', footer),
  };
}
