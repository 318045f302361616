/**
 * The delivery channels (docs/architecture.md, "Delivery"): every way an event leaves the service,
 * each with the kind of target it delivers to and its queue. The queue list (src/queue/queues.ts),
 * the integration types, the users' channels and the delivery processors are all derived from this
 * table, so adding a channel starts here (CONTRIBUTING.md, "Adding a delivery channel").
 *
 * Pure data with no imports: the shared queue code reads it.
 */

/** Who a channel delivers to: a project integration (`target_id` = the integration) or a person (`target_id` = the user). */
export type TargetKind = 'integration' | 'person';

export interface ChannelSpec {
  readonly target: TargetKind;
  /** Jobs of the channel's queue one worker process runs at once (QUEUE_CONCURRENCY overrides it). */
  readonly concurrency: number;
  /**
   * Notifications about one task that come within the burst window are sent as one message
   * (docs/notifications.md, "Bursts"). Only for a person's channels.
   */
  readonly gathersBursts: boolean;
  /**
   * With gathersBursts: the first notification of a burst goes out at once and what follows within
   * the window is gathered into the message sent when it ends (leading and trailing edge); without,
   * the first waits for the window too (docs/notifications.md, "Bursts").
   */
  readonly sendsFirstAtOnce: boolean;
}

const integration = { target: 'integration', concurrency: 32, gathersBursts: false, sendsFirstAtOnce: false } as const satisfies ChannelSpec;

export const CHANNELS = {
  messenger: integration,
  teamchat: integration,
  communitychat: integration,
  'generic-webhook': integration,
  // Notification emails share the SMTP pool of the email queue (as many connections as its concurrency).
  // An email is read later: the first of a burst waits for the window, so a burst makes one email.
  email: { target: 'person', concurrency: 4, gathersBursts: true, sendsFirstAtOnce: false },
  // A push is expected at once: the first of a burst goes out at once, the rest gathered after the window.
  topicpush: { target: 'person', concurrency: 32, gathersBursts: true, sendsFirstAtOnce: true },
  serverpush: { target: 'person', concurrency: 32, gathersBursts: true, sendsFirstAtOnce: true },
  // The webhook is for programs: every event on its own, in the format of a project's generic webhook.
  webhook: { target: 'person', concurrency: 32, gathersBursts: false, sendsFirstAtOnce: false },
} as const satisfies Record<string, ChannelSpec>;

export type Channel = keyof typeof CHANNELS;
type ChannelsOf<K extends TargetKind> = { [C in Channel]: (typeof CHANNELS)[C]['target'] extends K ? C : never }[Channel];
/** The notifying integration types (`integration.type`). */
export type IntegrationChannel = ChannelsOf<'integration'>;
/** A person's notification channels. */
export type PersonChannel = ChannelsOf<'person'>;

export const ALL_CHANNELS = Object.keys(CHANNELS) as Channel[];
export const INTEGRATION_CHANNELS = ALL_CHANNELS.filter((c): c is IntegrationChannel => CHANNELS[c].target === 'integration');
export const PERSON_CHANNELS = ALL_CHANNELS.filter((c): c is PersonChannel => CHANNELS[c].target === 'person');

/** A channel's queue: `deliver-<type>` for an integration, `notify-<channel>` for a person. */
export type DeliveryQueueName = `deliver-${IntegrationChannel}` | `notify-${PersonChannel}`;
export const queueOf = (channel: Channel): DeliveryQueueName => (CHANNELS[channel].target === 'integration' ? `deliver-${channel}` : `notify-${channel}`) as DeliveryQueueName;

/** Job names of the delivery queues: the fan-out's first try, and an admin's redelivery (added by the API through the outbox). */
export const DELIVER_JOB = 'deliver';
export const REDELIVER_JOB = 'redeliver';

/** The data of a delivery job: the delivery id only (secrets and payload are read from the database when sending). */
export interface DeliveryJobData {
  deliveryId: string;
}
