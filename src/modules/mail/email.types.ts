/** A rendered email, ready for SMTP. */
export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * Renders the email of a job from the current state of the database, or returns null when the
 * email is obsolete (e.g. the invitation was canceled before the worker got to it).
 */
export type EmailComposer = (data: any) => Promise<EmailMessage | null>;
