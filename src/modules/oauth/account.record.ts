import { Account } from './account.entity';

/** A linked provider account as list-accounts answers it: without its tokens. */
export const toAccountRecord = (a: Account) => ({
  id: a.id,
  providerId: a.providerId,
  accountId: a.accountId,
  scope: a.scope,
  createdAt: a.createdAt.toISOString(),
});
