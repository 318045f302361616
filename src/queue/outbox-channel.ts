/** The notification channel that wakes the outbox relay (sent after commit by OutboxSignal). */
export const OUTBOX_CHANNEL = 'outbox';
