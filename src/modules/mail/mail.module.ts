import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OutboxModule } from '../../queue/outbox.module';
import { EmailComposerRegistry } from './email-composer.registry';
import { EmailJob } from './email-job.entity';
import { EmailJobRepository } from './email-job.repository';
import { EmailRequestService } from './email-request.service';

/**
 * Where features ask for emails (both roles: EmailRequestService writes the `email_job` row and
 * its outbox job in the caller's transaction) and register how they are rendered (worker role:
 * the modules that hold the composers and MailWorkerModule's processor share the registry).
 */
@Module({
  imports: [TypeOrmModule.forFeature([EmailJob]), OutboxModule],
  providers: [EmailComposerRegistry, EmailJobRepository, EmailRequestService],
  exports: [EmailComposerRegistry, EmailJobRepository, EmailRequestService],
})
export class MailModule {}
