import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { createTransport, Transporter } from 'nodemailer';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { QueueName } from '../../queue/queues';
import { EmailMessage } from './email.types';

/** SMTP through nodemailer (worker role). Without SMTP_HOST it is "not configured" and sends nothing. */
@Injectable()
export class MailerService implements OnApplicationShutdown {
  private readonly transport: Transporter | null;
  private readonly from: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const smtp = config.smtp;
    this.from = smtp.from;
    this.transport = smtp.host
      ? createTransport({
          host: smtp.host,
          port: smtp.port,
          secure: smtp.secure,
          auth: smtp.user ? { user: smtp.user, pass: smtp.password ?? '' } : undefined,
          // Reuse connections across jobs (one per concurrent job of the email queue); closed on shutdown.
          pool: true,
          maxConnections: config.queueConcurrency[QueueName.Email],
          // Short timeouts: a job stuck on a dead server would hold up retries and a clean shutdown.
          connectionTimeout: 10_000,
          greetingTimeout: 10_000,
          socketTimeout: 30_000,
          // nodemailer's own logger could print credentials; ours logs outcomes only.
          logger: false,
          debug: false,
        })
      : null;
  }

  get configured(): boolean {
    return this.transport !== null;
  }

  /** Sends the message; answers its id and the SMTP reply code of the acceptance (null when the server gave none). */
  async send(message: EmailMessage): Promise<{ messageId: string; smtpCode: number | null }> {
    if (!this.transport) throw new Error('SMTP is not configured');
    const info = await this.transport.sendMail({
      from: this.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
    });
    const code = /^\d{3}/.exec(String(info.response ?? ''));
    return { messageId: info.messageId, smtpCode: code ? Number(code[0]) : null };
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}

/**
 * SMTP answers that will not change on a retry: the server refused the recipient or the message
 * with a 5xx. Everything else (connection refused, timeouts, 4xx, authentication while a server is
 * being fixed) is worth retrying.
 */
export function isPermanentSmtpError(err: any): boolean {
  const code = Number(err?.responseCode);
  return (err?.code === 'EENVELOPE' || err?.code === 'EMESSAGE') && code >= 500 && code < 600;
}

/**
 * Why an email job failed, as BullMQ keeps it (failedReason, shown on the queue dashboard) and as
 * it is logged: by the SMTP reply code, never the server's text, which quotes the recipient's
 * address (`SMTP refused the recipient (550)`); other failures as describeSmtpError says them.
 */
export function smtpFailureReason(err: any): string {
  const reply = Number(err?.responseCode);
  const known = reply >= 200 && reply < 600;
  if (err?.code === 'EENVELOPE' && known) return `SMTP refused the recipient (${reply})`;
  if (err?.code === 'EMESSAGE' && known) return `SMTP refused the message (${reply})`;
  if (err?.code === 'EAUTH') return `SMTP authentication failed${known ? ` (${reply})` : ''}`;
  return describeSmtpError(err);
}

/**
 * A short description of an SMTP failure for a delivery record: by its codes, never its message,
 * which may name the server or the addresses.
 */
export function describeSmtpError(err: any): string {
  const reply = Number(err?.responseCode);
  if (reply >= 200 && reply < 600) return `SMTP ${reply}: the server refused the message`;
  const code = String(err?.code ?? '');
  const text = String(err?.message ?? '');
  if (code === 'ECONNREFUSED' || /ECONNREFUSED/.test(text)) return 'SMTP server refused the connection';
  if (code === 'ETIMEDOUT' || /timeout|greeting never received/i.test(text)) return 'SMTP server did not answer in time';
  if (code === 'EAUTH') return 'SMTP authentication failed';
  if (code === 'ETLS') return 'SMTP TLS error';
  if (/ECONNRESET|closed/i.test(text)) return 'SMTP connection closed unexpectedly';
  return `SMTP error${/^[A-Z_]{2,20}$/.test(code) ? ` (${code})` : ''}`;
}
