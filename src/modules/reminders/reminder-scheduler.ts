import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Repeating } from '../../common/concurrency/repeating';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { OutboxSignal } from '../../queue/outbox-signal';
import { ReminderRepository } from './reminder.repository';

/**
 * Sends due-date reminders and overdue notices (docs/notifications.md, "Due dates"): every
 * worker scans every REMINDER_TICK_MS, one at a time (the clock row's lock), and each reminder is
 * written once into the ledger with its event in the outbox, in one statement. So however many
 * workers run, and whichever of them dies or restarts, a reminder goes out once; Redis being down
 * only delays it (the events wait in the outbox, as every event does).
 */
@Injectable()
export class ReminderScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(ReminderScheduler.name);
  private readonly scans: Repeating;

  constructor(
    private readonly reminders: ReminderRepository,
    private readonly outbox: OutboxSignal,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.scans = new Repeating(
      () => this.scanNow(),
      config.reminderTickMs,
      (err) => this.logger.warn(`scanning for due-date reminders failed, will try again: ${err.message}`),
    );
  }

  onApplicationBootstrap(): void {
    this.scans.start(0);
  }

  onModuleDestroy(): Promise<void> {
    return this.scans.stop();
  }

  /** One scan; how many reminders it wrote. */
  async scanNow(): Promise<number> {
    const { fired } = await this.reminders.scan();
    if (fired) {
      this.logger.debug(`${fired} due-date reminders written`);
      this.outbox.wakeRelay();
    }
    return fired;
  }
}
