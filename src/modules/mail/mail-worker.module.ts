import { Module } from '@nestjs/common';
import { QueueName } from '../../events/queue-names';
import { registerQueues } from '../../queue/queue.module';
import { EmailOutboxRelay } from './email-outbox.relay';
import { EmailProcessor } from './email.processor';
import { MailModule } from './mail.module';
import { MailerService } from './mailer.service';

/** Worker role only: relays the email outbox to the queue and sends queued emails over SMTP. */
@Module({
  imports: [MailModule, registerQueues(QueueName.Email)],
  providers: [MailerService, EmailOutboxRelay, EmailProcessor],
})
export class MailWorkerModule {}
