import { Module } from '@nestjs/common';
import { AssetSweepModule } from './modules/asset/asset-sweep.module';
import { AccountEmailModule } from './modules/auth/account-email.module';
import { DeliveryModule } from './modules/delivery/delivery.module';
import { MailWorkerModule } from './modules/mail/mail-worker.module';
import { InvitationEmailModule } from './modules/organization/invitation-email.module';
import { ReminderWorkerModule } from './modules/reminders/reminder-worker.module';
import { OutboxRelayModule } from './queue/outbox.module';

/**
 * The worker role: the outbox relay, the queue processors and what they need (email composers
 * with the repositories they read; the fan-out of task events, the integrations' channel
 * deliveries and users' notifications; the removal of deleted files; the due-date reminder scan). @nestjs/bullmq starts a consumer for every processor it finds,
 * so processors live only in modules imported here, never in API-only processes; and no module
 * here may declare a controller, since a worker-only process serves no HTTP
 * (test/e2e/queue/worker-role.e2e-spec.ts checks both).
 */
@Module({ imports: [OutboxRelayModule, MailWorkerModule, InvitationEmailModule, AccountEmailModule, DeliveryModule, AssetSweepModule, ReminderWorkerModule] })
export class WorkerModule {}
