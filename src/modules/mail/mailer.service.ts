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

  async send(message: EmailMessage): Promise<{ messageId: string }> {
    if (!this.transport) throw new Error('SMTP is not configured');
    const info = await this.transport.sendMail({
      from: this.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
    });
    return { messageId: info.messageId };
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
