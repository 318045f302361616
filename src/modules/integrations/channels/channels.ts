import { QueueName } from '../../../queue/queues';
import { IntegrationType } from '../integration.record';

/** The notifying integrations (the `integration.type` and `delivery.target_type` values). */
export type { IntegrationType };

/** The queue of each channel's deliveries (src/queue/queues.ts). */
export const DELIVERY_QUEUE: Record<IntegrationType, QueueName> = {
  messenger: QueueName.DeliverMessenger,
  teamchat: QueueName.DeliverTeamchat,
  communitychat: QueueName.DeliverCommunitychat,
  'generic-webhook': QueueName.DeliverGenericWebhook,
};

/** Job names of the delivery queues: the fan-out's first try, and an admin's redelivery (added by the API through the outbox). */
export const DELIVER_JOB = 'deliver';
export const REDELIVER_JOB = 'redeliver';

/** The data of a delivery job: the delivery id only (secrets and payload are read from the database when sending). */
export interface DeliveryJobData {
  deliveryId: string;
}
