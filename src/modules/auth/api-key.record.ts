import { ApiKey } from './api-key.entity';

/** An API key as the API answers it: never the key or its hash. */
export const toApiKeyRecord = (k: ApiKey) => ({
  id: k.id,
  name: k.name,
  start: k.start,
  permissions: k.permissions,
  parentKeyId: k.parentKeyId,
  createdAt: k.createdAt.toISOString(),
  expiresAt: k.expiresAt ? k.expiresAt.toISOString() : null,
});
