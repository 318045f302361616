import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Account } from './account.entity';

/** Provider accounts, looked up by the provider's subject or by their user. */
@Injectable()
export class AccountRepository {
  findByProviderAccount(m: EntityManager, providerId: string, accountId: string): Promise<Account | null> {
    return m.findOneBy(Account, { providerId, accountId });
  }

  /** With `lock`, the row stays locked until `m`'s transaction ends (one refresh at a time). */
  findForUser(m: EntityManager, userId: string, providerId: string, lock = false): Promise<Account | null> {
    return m.findOne(Account, { where: { userId, providerId }, ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}) });
  }

  /**
   * Serialises sign-ins of one provider account, so that two callbacks for a new subject cannot
   * both create a user.
   */
  async lockProviderAccount(m: EntityManager, providerId: string, accountId: string): Promise<void> {
    await m.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`account:${providerId}:${accountId}`]);
  }

  save(m: EntityManager, account: Account): Promise<Account> {
    return m.save(Account, account);
  }
}
