/** A rendered email, ready for SMTP. */
export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * Renders an email from what its request refers to (the `reference` of its `email_job` row) and
 * the current state of the database, or returns null when the email is obsolete (e.g. the
 * invitation was canceled before the worker got to it).
 */
export type EmailComposer = (reference: any) => Promise<EmailMessage | null>;
