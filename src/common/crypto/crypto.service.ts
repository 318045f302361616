import { Inject, Injectable } from '@nestjs/common';
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '../../config/app-config';

/** Current format: `v2:<key id>:<iv>:<tag>:<ciphertext>` (base64 parts). */
const VERSION = 'v2';
/** The first format, without a key id: `v1:<iv>:<tag>:<ciphertext>`; still read, never written. */
const LEGACY_VERSION = 'v1';

/**
 * The key id stored with each value: the first 8 hex characters of HMAC-SHA256(key,
 * 'tandem-key-id'). It names the key without revealing anything about it, so a value says which
 * key sealed it and a rotation can tell what is left to re-encrypt.
 */
export function keyId(key: Buffer): string {
  return createHmac('sha256', key).update('tandem-key-id').digest('hex').slice(0, 8);
}

interface Key {
  id: string;
  key: Buffer;
}

/**
 * The one place secrets are encrypted at rest: AES-256-GCM under ENCRYPTION_KEY, each value
 * carrying the id of its key. Values sealed under ENCRYPTION_KEY_PREVIOUS still decrypt, so keys
 * can be rotated without downtime (docs/decisions-local.md, "Secrets").
 */
@Injectable()
export class CryptoService {
  private readonly current: Key;
  /** Current first, then the previous key when one is configured. */
  private readonly keys: readonly Key[];

  constructor(@Inject(APP_CONFIG) config: Pick<AppConfig, 'encryptionKey'> & Partial<Pick<AppConfig, 'encryptionKeyPrevious'>>) {
    this.current = { id: keyId(config.encryptionKey), key: config.encryptionKey };
    const previous = config.encryptionKeyPrevious;
    this.keys = previous && !previous.equals(config.encryptionKey) ? [this.current, { id: keyId(previous), key: previous }] : [this.current];
  }

  /** Id of the key new values are sealed under. */
  get currentKeyId(): string {
    return this.current.id;
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv);
    const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, this.current.id, iv.toString('base64'), tag.toString('base64'), ct.toString('base64')].join(':');
  }

  decrypt(sealed: string): string {
    const parts = sealed.split(':');
    if (parts[0] === VERSION && parts.length === 5) {
      const [, id, iv, tag, ct] = parts;
      const key = this.keys.find((k) => k.id === id);
      if (!key) throw new Error(`Sealed under an unknown key (id ${/^[0-9a-f]{8}$/.test(id) ? id : '?'}): neither ENCRYPTION_KEY nor ENCRYPTION_KEY_PREVIOUS`);
      return open(key.key, iv, tag, ct);
    }
    if (parts[0] === LEGACY_VERSION && parts.length === 4) {
      const [, iv, tag, ct] = parts;
      // No key id: the current key first, then the previous one.
      let failure: unknown;
      for (const key of this.keys) {
        try {
          return open(key.key, iv, tag, ct);
        } catch (err) {
          failure = err;
        }
      }
      throw failure;
    }
    throw new Error('Unrecognised ciphertext format');
  }

  /**
   * True when `sealed` is not in the current format under the current key: a v1 value, or one
   * sealed under another key. What a rotation re-encrypts (`npm run rotate-keys`).
   */
  needsReseal(sealed: string): boolean {
    return !sealed.startsWith(`${VERSION}:${this.current.id}:`);
  }

  /** Decrypts with whichever configured key sealed it and encrypts under the current key. */
  reseal(sealed: string): string {
    return this.encrypt(this.decrypt(sealed));
  }

  encryptNullable(plain: string | null | undefined): string | null {
    return plain === null || plain === undefined || plain === '' ? null : this.encrypt(plain);
  }

  decryptNullable(sealed: string | null | undefined): string | null {
    return sealed ? this.decrypt(sealed) : null;
  }

  static sha256(value: string): string {
    return createHash('sha256').update(value).digest('hex');
  }

  static safeEqual(a: string | Buffer, b: string | Buffer): boolean {
    const x = Buffer.isBuffer(a) ? a : Buffer.from(a);
    const y = Buffer.isBuffer(b) ? b : Buffer.from(b);
    return x.length === y.length && timingSafeEqual(x, y);
  }

  static randomToken(bytes = 32): string {
    return randomBytes(bytes).toString('base64url');
  }
}

function open(key: Buffer, iv: string, tag: string, ct: string): string {
  // A full 16-byte tag only: a shortened tag would be easier to forge.
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'), { authTagLength: 16 });
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(ct, 'base64')), decipher.final()]).toString('utf8');
}
