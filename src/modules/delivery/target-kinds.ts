import { EntityManager } from 'typeorm';
import { TaskEvent } from '../task/task-event';
import { Channel, TargetKind } from './channels';
import { Verdict } from './delivery-policy';

/** What an attempt's send answers: the receiver's status (HTTP, or the SMTP reply code) and the verdict. */
export interface SendOutcome {
  /** null when no answer came. */
  statusCode: number | null;
  verdict: Verdict;
}

/** Deliveries an attempt will not send, and why (recorded as failed, with no attempt made). */
export interface Dropped {
  ids: string[];
  reason: string;
}

/** One attempt, as a target kind prepares it for DeliveryRunner. */
export interface AttemptPlan {
  /** Names the attempt in log lines: the job's delivery, its channel, never a secret. */
  label: string;
  dropped: Dropped[];
  /** The deliveries this attempt carries (the job's own, or a person's burst); empty when nothing is left to send. */
  ids: string[];
  /**
   * Sends one message for `ids`. A failure it cannot judge itself is thrown: OutboundError and
   * UnusableTargetError are classified by the delivery policy, anything else is a fault of ours.
   */
  send(): Promise<SendOutcome>;
  /** Runs once this attempt's deliveries are settled (delivered, failed for good, or dropped), not when a retry follows. */
  settled?(): Promise<void>;
  /** Runs once this attempt is recorded, whatever its outcome (before settled): frees what prepare() took for it (a burst's lock). */
  release?(): Promise<void>;
}

/**
 * What prepare() answers: an attempt to make; nothing to do (the delivery is gone or no longer
 * pending); or `busy`: another attempt is sending the deliveries this one would carry (a person's
 * burst), so the job waits and tries again.
 */
export type Preparation = AttemptPlan | { skipped: 'gone' | 'not-pending' } | { busy: true };

/** A plan that only records `dropped`: nothing is sent. */
export const nothingToSend = (label: string, dropped: Dropped[], settled?: () => Promise<void>, release?: () => Promise<void>): AttemptPlan => ({
  label,
  dropped,
  ids: [],
  send: () => Promise.reject(new Error('nothing to send')),
  settled,
  release,
});

/**
 * A kind of target of task events (docs/architecture.md, "Delivery"): the project integrations,
 * or people (the notification channels of those an event concerns). The fan-out hands every event to each kind,
 * the outbox relay asks them which events anyone would receive, and the delivery runner asks the
 * kind of a job's channel what to send.
 */
export interface DeliveryTargets {
  readonly kind: TargetKind;
  /**
   * Of `events`, those this kind may have a target for: an event no kind may deliver is never
   * queued (TaskEventFilter), so an event fanOut could deliver must be among them.
   */
  mayDeliver(events: readonly TaskEvent[], m: EntityManager): Promise<ReadonlySet<TaskEvent>>;
  /**
   * Writes the deliveries of `events` (each event and target once: a re-run writes nothing twice)
   * and queues the jobs of what is still pending; answers how many jobs were asked for.
   */
  fanOut(events: readonly TaskEvent[]): Promise<number>;
  /** Reads what the job's delivery on `channel` needs for one attempt. */
  prepare(deliveryId: string, channel: Channel): Promise<Preparation>;
}
