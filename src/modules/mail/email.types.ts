/** A rendered email, ready for SMTP. */
export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** An email the caller wants sent once its transaction commits. */
export interface EmailJobRequest {
  /** Composer name (registered in EmailComposerRegistry). */
  name: string;
  /** Stable id, e.g. `invitation-<id>-<send>`: a re-enqueue of the same send is a no-op. No ':'. */
  jobId: string;
  /** Ids only: the composer reads the current state when the worker sends. */
  data: Record<string, unknown>;
}

/**
 * Renders the email of a job from the current state of the database, or returns null when the
 * email is obsolete (e.g. the invitation was canceled before the worker got to it).
 */
export type EmailComposer = (data: any) => Promise<EmailMessage | null>;
