import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Account } from './account.entity';

/**
 * Users' accounts at outside providers, looked up by the provider's subject or by their user.
 * An account belongs to its user; it has no workspace.
 */
@Injectable()
export class AccountRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  findByProviderAccount(providerId: string, accountId: string, m: EntityManager = this.ds.manager): Promise<Account | null> {
    return m.findOneBy(Account, { providerId, accountId });
  }

  /** With `lock`, the row stays locked until `m`'s transaction ends (one refresh at a time). */
  findForUser(userId: string, providerId: string, m: EntityManager = this.ds.manager, lock = false): Promise<Account | null> {
    return m.findOne(Account, { where: { userId, providerId }, ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}) });
  }

  /** The user's accounts, oldest first. */
  listOfUser(userId: string, m: EntityManager = this.ds.manager): Promise<Account[]> {
    return m.find(Account, { where: { userId }, order: { createdAt: 'ASC' } });
  }

  /**
   * Serialises sign-ins of one provider account until `m`'s transaction ends, so that two
   * callbacks for a new subject cannot both create a user.
   */
  async lockProviderAccount(providerId: string, accountId: string, m: EntityManager): Promise<void> {
    await m.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`account:${providerId}:${accountId}`]);
  }

  /** A new account object (not stored until save). */
  build(userId: string, providerId: string, accountId: string, m: EntityManager = this.ds.manager): Account {
    return m.create(Account, { userId, providerId, accountId });
  }

  save(account: Account, m: EntityManager = this.ds.manager): Promise<Account> {
    return m.save(Account, account);
  }

  async deleteOfUser(userId: string, accountId: string, m: EntityManager = this.ds.manager): Promise<void> {
    await m.delete(Account, { id: accountId, userId });
  }
}
