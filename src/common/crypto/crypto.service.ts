import { Inject, Injectable } from '@nestjs/common';
import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '../../config/app-config';

const VERSION = 'v1';

/** The one place secrets are encrypted at rest: AES-256-GCM under ENCRYPTION_KEY. */
@Injectable()
export class CryptoService {
  private readonly key: Buffer;
  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.key = config.encryptionKey;
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, iv.toString('base64'), tag.toString('base64'), ct.toString('base64')].join(':');
  }

  decrypt(sealed: string): string {
    const [version, iv, tag, ct] = sealed.split(':');
    if (version !== VERSION || !iv || !tag || ct === undefined) throw new Error('Unrecognised ciphertext format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(ct, 'base64')), decipher.final()]).toString('utf8');
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
