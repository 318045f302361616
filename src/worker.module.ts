import { Module } from '@nestjs/common';
import { OutboxRelayModule } from './queue/outbox.module';
import { MailWorkerModule } from './modules/mail/mail-worker.module';
import { InvitationEmailModule } from './modules/organization/invitation-email.module';

/**
 * Queue processors (the worker role). @nestjs/bullmq starts a consumer for every processor it
 * finds, so processors live only in modules imported here, never in API-only processes.
 */
@Module({ imports: [OutboxRelayModule, MailWorkerModule, InvitationEmailModule] })
export class WorkerModule {}
