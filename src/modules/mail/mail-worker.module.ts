import { Module } from '@nestjs/common';
import { WorkerQueuesModule } from '../../queue/queue.module';
import { EmailProcessor } from './email.processor';
import { MailModule } from './mail.module';
import { MailerService } from './mailer.service';

/** Worker role only: sends queued emails over SMTP. MailerService (its one SMTP pool) is shared with the notification emails. */
@Module({
  imports: [MailModule, WorkerQueuesModule],
  providers: [MailerService, EmailProcessor],
  exports: [MailerService],
})
export class MailWorkerModule {}
