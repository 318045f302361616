import { Module } from '@nestjs/common';
import { EmailComposerRegistry } from './email-composer.registry';

/**
 * Where features register how their emails are rendered (worker role: the modules that hold the
 * composers and MailWorkerModule's processor share it). Features request emails through the
 * outbox (src/queue/outbox.service.ts) on the email queue.
 */
@Module({ providers: [EmailComposerRegistry], exports: [EmailComposerRegistry] })
export class MailModule {}
