import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * True when `given` (hex, after an optional `prefix` such as `sha256=`) is the HMAC-SHA256 of the
 * raw body under `secret`. The comparison is constant-time over the 32 bytes of the digest.
 */
export function hmacSha256Matches(secret: string, raw: Buffer, given: unknown, prefix = ''): boolean {
  if (typeof given !== 'string' || !given.startsWith(prefix)) return false;
  const hex = given.slice(prefix.length).trim();
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) return false;
  const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(raw).digest();
  return timingSafeEqual(expected, Buffer.from(hex, 'hex'));
}

/** The hex SHA-256 of a body (a replayed delivery has the same one, whatever its delivery id says). */
export const sha256Hex = (raw: Buffer): string => createHash('sha256').update(raw).digest('hex');
