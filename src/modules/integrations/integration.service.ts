import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { CryptoService } from '../../common/crypto/crypto.service';
import { DestinationGuard, DestinationRefusedError } from '../../common/net/destination-guard';
import { isForeignKeyViolation } from '../../database/sql';
import { EVENT_FLAGS } from '../task/task-event';
import { EventsDto } from './dto/events.dto';
import { IntegrationInput, IntegrationPatch } from './dto/integration.dto';
import { DEFAULT_EVENTS, Events, eventsOf, IntegrationRecord, IntegrationRow, IntegrationType, toIntegrationRecord } from './integration.record';
import { IntegrationColumns, IntegrationRepository } from './integration.repository';
import { secretChange } from './secret-rotation';
import { DEFAULT_REMINDER_LEAD_MINUTES } from '../../common/validation/reminder-lead-time';

export const INTEGRATION_NOT_FOUND = 'Integration not found';

/** The events sent (booleans of the six kinds only) laid over `base`. */
function mergeEvents(base: Events, sent: EventsDto | undefined): Events {
  const out = { ...base };
  for (const k of EVENT_FLAGS) if (typeof sent?.[k] === 'boolean') out[k] = sent[k]!;
  return out;
}

/**
 * The four notifying integrations of a project (docs/integrations.md): one row per project and
 * type, written by create-or-replace (POST) and partial update (PATCH). Secrets are encrypted
 * before they reach the repository and only ever leave it as masks; URLs pass the destination
 * guard before anything is written.
 */
@Injectable()
export class IntegrationService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly integrations: IntegrationRepository,
    private readonly crypto: CryptoService,
    private readonly destinations: DestinationGuard,
  ) {}

  /** The project's integration of that type, or null. */
  async get(workspaceId: string, projectId: string, type: IntegrationType): Promise<IntegrationRecord | null> {
    const row = await this.integrations.findInProject(workspaceId, projectId, type);
    return row ? this.toRecord(row) : null;
  }

  /**
   * Creates the integration, or replaces the existing one in place (same id and createdAt): every
   * field the body omits goes back to its default, isActive becomes true. The generic webhook's
   * secret rotates as secretChange says.
   */
  async replace(workspaceId: string, projectId: string, type: IntegrationType, input: IntegrationInput): Promise<IntegrationRecord> {
    if (input.webhookUrl !== undefined) await this.checkDestination(input.webhookUrl);
    const secret = input.secret || null;
    const values: IntegrationColumns = {
      is_active: true,
      events: mergeEvents(DEFAULT_EVENTS, input.events),
      chat_id: input.chatId ?? null,
      thread_id: input.threadId ?? null,
      chat_label: input.chatLabel ?? null,
      channel_name: input.channelName ?? null,
      bot_token: this.crypto.encryptNullable(input.botToken),
      webhook_url: this.crypto.encryptNullable(input.webhookUrl),
      secret: this.crypto.encryptNullable(secret),
      previous_secret: null,
      secret_replaced_at: null,
      due_date_reminder_lead_minutes: input.dueDateReminderLeadTimeMinutes ?? DEFAULT_REMINDER_LEAD_MINUTES,
    };
    return this.write(async (m) => {
      // The row is locked when it exists; when it does not, the insert either creates it or finds
      // that a concurrent request just did, and the next round locks that one.
      for (let round = 0; round < 3; round++) {
        const current = await this.integrations.lockInProject(workspaceId, projectId, type, m);
        if (!current) {
          const inserted = await this.integrations.insertIfAbsent(workspaceId, projectId, type, values, m);
          if (inserted) return inserted;
          continue;
        }
        return (await this.integrations.update(workspaceId, current.id, { ...values, ...this.secretColumns(current, secret) }, m))!;
      }
      throw new Error('The integration changed under three attempts in a row');
    });
  }

  /** Changes the fields sent; `events` merges into the stored ones. 404 when the project has no such integration. */
  async update(workspaceId: string, projectId: string, type: IntegrationType, input: IntegrationPatch): Promise<IntegrationRecord> {
    if (input.webhookUrl !== undefined) await this.checkDestination(input.webhookUrl);
    return this.write(async (m) => {
      const current = await this.integrations.lockInProject(workspaceId, projectId, type, m);
      if (!current) throw new NotFoundException(INTEGRATION_NOT_FOUND);
      const values: Partial<IntegrationColumns> = {
        is_active: input.isActive,
        events: input.events === undefined ? undefined : mergeEvents(eventsOf(current.events), input.events),
        chat_id: input.chatId,
        thread_id: input.threadId,
        chat_label: input.chatLabel,
        channel_name: input.channelName,
        bot_token: input.botToken === undefined ? undefined : this.crypto.encrypt(input.botToken),
        webhook_url: input.webhookUrl === undefined ? undefined : this.crypto.encrypt(input.webhookUrl),
        due_date_reminder_lead_minutes: input.dueDateReminderLeadTimeMinutes,
        ...(input.secret === undefined ? {} : this.secretColumns(current, input.secret || null)),
      };
      if (Object.values(values).every((v) => v === undefined)) return current;
      return (await this.integrations.update(workspaceId, current.id, values, m))!;
    });
  }

  async remove(workspaceId: string, projectId: string, type: IntegrationType): Promise<{ success: true }> {
    if (!(await this.integrations.deleteInProject(workspaceId, projectId, type))) throw new NotFoundException(INTEGRATION_NOT_FOUND);
    return { success: true };
  }

  /** The secret columns for a write that names `next` (clear; null = none); undefined = unchanged. */
  private secretColumns(current: IntegrationRow, next: string | null): Pick<Partial<IntegrationColumns>, 'secret' | 'previous_secret' | 'secret_replaced_at'> {
    switch (secretChange(this.crypto.decryptNullable(current.secret), next)) {
      case 'keep':
        return { secret: undefined, previous_secret: undefined, secret_replaced_at: undefined };
      case 'set':
        return { secret: this.crypto.encrypt(next!), previous_secret: null, secret_replaced_at: null };
      case 'replace':
        return { secret: this.crypto.encrypt(next!), previous_secret: current.secret, secret_replaced_at: 'now' };
      case 'remove':
        return { secret: null, previous_secret: null, secret_replaced_at: null };
    }
  }

  /** Runs a write in a transaction and answers the written row as a record. */
  private async write(fn: (m: EntityManager) => Promise<IntegrationRow>): Promise<IntegrationRecord> {
    try {
      return this.toRecord(await this.ds.transaction(fn));
    } catch (err) {
      // The project was deleted between the permission check and the insert.
      if (isForeignKeyViolation(err)) throw new NotFoundException('Project not found');
      throw err;
    }
  }

  /** The destination guard's save-time check; a refusal is a 400 with its message (which holds no secret). */
  private async checkDestination(url: string): Promise<void> {
    try {
      await this.destinations.check(url);
    } catch (err) {
      if (err instanceof DestinationRefusedError) throw new BadRequestException(err.message);
      throw err;
    }
  }

  private toRecord(row: IntegrationRow): IntegrationRecord {
    return toIntegrationRecord(row, {
      botToken: this.crypto.decryptNullable(row.bot_token),
      webhookUrl: this.crypto.decryptNullable(row.webhook_url),
      secret: this.crypto.decryptNullable(row.secret),
    });
  }
}
