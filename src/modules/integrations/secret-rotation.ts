/**
 * Signing-secret rotation of the generic webhook (docs/integrations.md, "Secrets at rest and
 * rotation"): what a write that names a secret does to the three secret columns, given the
 * secret stored now and the one asked for (both in clear; null = none).
 *
 * - `keep`: the same secret again: nothing changes (a replayed create keeps a rotation going).
 * - `set`: a secret where there was none: no previous secret.
 * - `replace`: a different secret: the old one becomes `previous_secret`, `secret_replaced_at` = now;
 *   deliveries are signed with both for 24 h after that.
 * - `remove`: no secret: all three cleared (whatever they held), so signing stops at once.
 */
export type SecretChange = 'keep' | 'set' | 'replace' | 'remove';

export function secretChange(current: string | null, next: string | null): SecretChange {
  if (next === null) return 'remove';
  if (current === null) return 'set';
  return current === next ? 'keep' : 'replace';
}
