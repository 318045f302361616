import { Injectable } from '@nestjs/common';
import { EmailComposer } from './email.types';

/**
 * Feature modules register how their emails are rendered (in onModuleInit), so the one email
 * processor stays ignorant of feature tables, as the scope registry does for the guard.
 */
@Injectable()
export class EmailComposerRegistry {
  private readonly composers = new Map<string, EmailComposer>();

  register(name: string, composer: EmailComposer): void {
    this.composers.set(name, composer);
  }

  get(name: string): EmailComposer | undefined {
    return this.composers.get(name);
  }
}
