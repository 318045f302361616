/**
 * Every column that holds CryptoService ciphertext, in one registry: `npm run rotate-keys`
 * re-encrypts exactly these (docs/decisions-local.md, "Secrets"). A feature that stores a new
 * secret adds its table and columns here, in the same change as the migration that creates them.
 */
export interface EncryptedTable {
  table: string;
  /** The table's primary key column (one column). */
  key: string;
  /** Nullable text columns holding `encrypt()` output or NULL. */
  columns: readonly string[];
}

export const ENCRYPTED_COLUMNS: readonly EncryptedTable[] = [
  // OAuth tokens of a user's provider account (src/modules/oauth).
  { table: 'account', key: 'id', columns: ['access_token', 'refresh_token', 'id_token'] },
  // Integration secrets: bot token, webhook URL, signing secret and the one it replaced (src/modules/integrations).
  { table: 'integration', key: 'id', columns: ['bot_token', 'webhook_url', 'secret', 'previous_secret'] },
  // A user's push tokens and webhook signing secrets, current and replaced (src/modules/notification-preferences).
  { table: 'notification_preference', key: 'user_id', columns: ['topicpush_token', 'serverpush_token', 'webhook_secret', 'webhook_previous_secret'] },
  // Git-host integrations: the selfgit access token and its inbound webhook secret, current and rotated out (src/modules/git-hosts/selfgit).
  { table: 'git_integration', key: 'id', columns: ['access_token', 'webhook_secret', 'webhook_previous_secret'] },
];
