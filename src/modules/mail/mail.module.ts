import { Module } from '@nestjs/common';
import { EmailComposerRegistry } from './email-composer.registry';
import { EmailOutboxService } from './email-outbox.service';

/**
 * Shared by both roles: features request emails through the outbox (API role) and register
 * their composers (read by the worker role's processor). SMTP lives in MailWorkerModule only.
 */
@Module({ providers: [EmailOutboxService, EmailComposerRegistry], exports: [EmailOutboxService, EmailComposerRegistry] })
export class MailModule {}
