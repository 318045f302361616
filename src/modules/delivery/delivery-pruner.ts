import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Repeating } from '../../common/concurrency/repeating';
import { DELIVERY_RETENTION_DAYS, DeliveryRepository } from './delivery.repository';

const DAY_MS = 24 * 3600 * 1000;
/** The first prune comes a little after start (not in the start-up rush), then one a day. */
const FIRST_PRUNE_MS = 60_000;

/**
 * Deletes delivered and failed delivery records older than DELIVERY_RETENTION_DAYS (7) days, once
 * a day, in every worker process; an advisory lock in pruneFinished lets one prune at a time and
 * the others step aside (pruning twice is harmless: the second finds nothing).
 */
@Injectable()
export class DeliveryPruner implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(DeliveryPruner.name);
  private readonly prunes = new Repeating(
    () => this.pruneNow(),
    DAY_MS,
    (err) => this.logger.warn(`pruning delivery records failed, will try again tomorrow: ${err.message}`),
  );

  constructor(private readonly deliveries: DeliveryRepository) {}

  onApplicationBootstrap(): void {
    this.prunes.start(FIRST_PRUNE_MS);
  }

  onModuleDestroy(): Promise<void> {
    return this.prunes.stop();
  }

  /** One prune now; resolves with how many records went (null: another worker was pruning). */
  async pruneNow(): Promise<number | null> {
    const n = await this.deliveries.pruneFinished(DELIVERY_RETENTION_DAYS);
    if (n) this.logger.log(`pruned ${n} delivery records older than ${DELIVERY_RETENTION_DAYS} days`);
    return n;
  }
}
