import { escapeHtml } from '../../common/text/html';
import { EmailMessage } from '../mail/email.types';

export interface InvitationEmailInput {
  to: string;
  workspaceName: string;
  inviterName: string | null;
  inviterEmail: string | null;
  role: string;
  acceptUrl: string;
  expiresAt: Date;
}

/** User-supplied names go into a header: no line breaks, bounded length. */
const oneLine = (s: string, max = 120) => {
  const flat = s
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** The invitation email: names the workspace and the inviter, carries the accept link. */
export function renderInvitationEmail(input: InvitationEmailInput): EmailMessage {
  const inviter = input.inviterName?.trim() || input.inviterEmail || 'Someone';
  const inviterFull = input.inviterEmail && input.inviterName?.trim() ? `${input.inviterName.trim()} (${input.inviterEmail})` : inviter;
  const workspace = input.workspaceName;
  const expires = input.expiresAt
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');
  const subject = `${oneLine(inviter)} invited you to join ${oneLine(workspace)} on Tandem`;
  const text = [
    'Hello,',
    '',
    `${inviterFull} has invited you to join the workspace "${workspace}" on Tandem as ${input.role}.`,
    '',
    'Accept the invitation:',
    input.acceptUrl,
    '',
    `The invitation expires on ${expires}. If you did not expect it, you can ignore this email.`,
    '',
  ].join('\n');
  const e = escapeHtml;
  const html = `<!doctype html>
<html>
  <body style="font-family: sans-serif; line-height: 1.5">
    <p>Hello,</p>
    <p><strong>${e(inviterFull)}</strong> has invited you to join the workspace <strong>${e(workspace)}</strong> on Tandem as ${e(input.role)}.</p>
    <p><a href="${e(input.acceptUrl)}">Accept the invitation</a></p>
    <p style="color: #666">Or open this link: ${e(input.acceptUrl)}<br>The invitation expires on ${e(expires)}. If you did not expect it, you can ignore this email.</p>
  </body>
</html>
`;
  return { to: input.to, subject, text, html };
}
