import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { OUTBOX_CHANNEL } from './outbox-channel';

/** The wake of the outbox relay: a notification in an auto-committed statement of its own (OutboxSignal). */
@Injectable()
export class OutboxWakeRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async notify(): Promise<void> {
    await this.ds.query(`SELECT pg_notify('${OUTBOX_CHANNEL}', '')`);
  }
}
