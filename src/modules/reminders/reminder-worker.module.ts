import { Module } from '@nestjs/common';
import { ReminderScheduler } from './reminder-scheduler';
import { ReminderRepository } from './reminder.repository';

/** Worker: the due-date reminder scan (docs/notifications.md, "Due dates"). The outbox signal comes from the global queue module. */
@Module({ providers: [ReminderRepository, ReminderScheduler] })
export class ReminderWorkerModule {}
