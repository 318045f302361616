import { Injectable } from '@nestjs/common';
import { Coalescer } from '../../common/concurrency/coalescer';
import { AttemptRecord, DeliveryAttempt, DeliveryRepository, DeliveryStatus } from './delivery.repository';

/**
 * Records the attempts of every channel's deliveries. The records asked for while the previous
 * statement is in flight go together in the next one (Coalescer): under load a delivery costs a
 * share of one statement instead of a round trip of its own, and idle it costs the same.
 */
@Injectable()
export class DeliveryRecorder {
  private readonly records: Coalescer<AttemptRecord, undefined>;

  constructor(deliveries: DeliveryRepository) {
    this.records = new Coalescer(async (records) => {
      await deliveries.recordAttempts(records);
      return records.map(() => undefined);
    });
  }

  /** Appends `attempt` to each of the deliveries and sets their status. */
  async record(deliveryIds: readonly string[], attempt: DeliveryAttempt, status: DeliveryStatus): Promise<void> {
    if (deliveryIds.length) await this.records.submit({ deliveryIds, attempt, status });
  }
}
