import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Repeating } from '../../common/concurrency/repeating';
import { FILE_STORE, FileStore } from './storage/file-store';
import { StoredFileRemovalRepository } from './stored-file-removal.repository';

/** How often a worker looks for objects to remove and uploads to abandon. */
export const SWEEP_INTERVAL_MS = 2_000;
const BATCH = 50;
/** A taken removal is someone else's after this, should its worker die. */
const LEASE_SECONDS = 120;
/** Retries back off from 10 s to an hour. */
const retryIn = (attempts: number): number => Math.min(3600, 10 * 2 ** Math.min(attempts - 1, 9));

/**
 * Removes the objects of deleted assets from the file store (docs/files.md, "Removal"): every
 * deleted asset row queued its object in the same transaction (a trigger), and each worker
 * process takes due entries a batch at a time, removes the objects and clears the entries. A
 * failure is retried with backoff; a crash mid-way only delays the removal (the lease runs out).
 * Also abandons uploads never finalized within a day.
 */
@Injectable()
export class StoredFileSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(StoredFileSweeper.name);
  private readonly sweeps = new Repeating(
    () => this.sweepNow(),
    SWEEP_INTERVAL_MS,
    (err) => this.logger.warn(`sweeping stored files failed, will try again: ${err.message}`),
  );

  constructor(
    private readonly removals: StoredFileRemovalRepository,
    @Inject(FILE_STORE) private readonly store: FileStore,
  ) {}

  onApplicationBootstrap(): void {
    this.sweeps.start(0);
  }

  onModuleDestroy(): Promise<void> {
    return this.sweeps.stop();
  }

  /** One sweep: abandons old pending uploads, then removes due objects until none are left; how many objects went. */
  async sweepNow(): Promise<number> {
    const abandoned = await this.removals.sweepAbandoned();
    if (abandoned) this.logger.log(`abandoned ${abandoned} uploads never finalized`);
    let removed = 0;
    for (;;) {
      const due = await this.removals.claimDue(BATCH, LEASE_SECONDS);
      if (!due.length || this.sweeps.isStopped) return removed;
      const done: string[] = [];
      await Promise.all(
        due.map(async (r) => {
          try {
            await this.store.remove(r.storage_key);
            done.push(r.storage_key);
          } catch (err) {
            const message = (err as Error).message;
            this.logger.warn(`removing stored file ${r.storage_key} failed (attempt ${r.attempts}), will retry: ${message}`);
            await this.removals.failed(r.storage_key, message, retryIn(r.attempts));
          }
        }),
      );
      await this.removals.done(done);
      removed += done.length;
      if (due.length < BATCH) return removed;
    }
  }
}
