import { createCipheriv, createHmac, randomBytes } from 'node:crypto';
import { loadConfig } from '../../config/app-config';
import { CryptoService, keyId } from './crypto.service';
import { maskAccessToken, maskBotToken, maskSecret, maskUrl } from './mask';

const KEY_A = '11'.repeat(32);
const KEY_B = '22'.repeat(32);
const KEY_C = '33'.repeat(32);
const service = (current: string, previous?: string) => new CryptoService(loadConfig({ ENCRYPTION_KEY: current, ENCRYPTION_KEY_PREVIOUS: previous }));

/** A value in the first format (`v1:iv:tag:ct`, no key id), as stored before key ids existed. */
function sealV1(keyHex: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(keyHex, 'hex'), iv);
  const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), ct.toString('base64')].join(':');
}

describe('CryptoService', () => {
  const crypto = service(KEY_A);

  it('round-trips and never repeats a ciphertext', () => {
    const a = crypto.encrypt('s3cret token');
    const b = crypto.encrypt('s3cret token');
    expect(a).not.toBe(b);
    expect(a).not.toContain('s3cret');
    expect(crypto.decrypt(a)).toBe('s3cret token');
  });

  it('writes v2:<key id>:iv:tag:ct, the key id being the first 8 hex of HMAC-SHA256(key, "tandem-key-id")', () => {
    const sealed = crypto.encrypt('hello');
    const parts = sealed.split(':');
    expect(parts).toHaveLength(5);
    expect(parts[0]).toBe('v2');
    // Computed independently of the implementation: HMAC-SHA256(0x11 * 32, "tandem-key-id").
    const expected = createHmac('sha256', Buffer.from(KEY_A, 'hex')).update('tandem-key-id').digest('hex').slice(0, 8);
    expect(parts[1]).toBe(expected);
    expect(keyId(Buffer.from(KEY_A, 'hex'))).toBe(expected);
    expect(crypto.currentKeyId).toBe(expected);
    expect(keyId(Buffer.from(KEY_B, 'hex'))).not.toBe(expected);
    expect(Buffer.from(parts[2], 'base64')).toHaveLength(12);
    expect(Buffer.from(parts[3], 'base64')).toHaveLength(16);
  });

  it('detects tampering and a wrong key', () => {
    const sealed = crypto.encrypt('hello');
    const parts = sealed.split(':');
    const ct = Buffer.from(parts[4], 'base64');
    ct[0] ^= 1;
    parts[4] = ct.toString('base64');
    expect(() => crypto.decrypt(parts.join(':'))).toThrow();
    // A shortened tag is refused too.
    const short = sealed.split(':');
    short[3] = Buffer.from(short[3], 'base64').subarray(0, 4).toString('base64');
    expect(() => crypto.decrypt(short.join(':'))).toThrow();
    // Another key: its id is not the one in the value.
    expect(() => service(KEY_B).decrypt(sealed)).toThrow(/unknown key \(id [0-9a-f]{8}\)/);
    // Another key that claims the right id still fails authentication.
    const forged = service(KEY_B).encrypt('hello').split(':');
    forged[1] = crypto.currentKeyId;
    expect(() => crypto.decrypt(forged.join(':'))).toThrow();
    expect(() => crypto.decrypt('v3:whatever')).toThrow('Unrecognised ciphertext format');
  });

  it('reads values sealed under ENCRYPTION_KEY_PREVIOUS, and writes under ENCRYPTION_KEY only', () => {
    const underA = service(KEY_A).encrypt('from before the rotation');
    const rotated = service(KEY_B, KEY_A);
    expect(rotated.decrypt(underA)).toBe('from before the rotation');
    const fresh = rotated.encrypt('after');
    expect(fresh.split(':')[1]).toBe(keyId(Buffer.from(KEY_B, 'hex')));
    expect(service(KEY_B).decrypt(fresh)).toBe('after');
    expect(() => service(KEY_A).decrypt(fresh)).toThrow();
    // A third key is neither: refused.
    expect(() => service(KEY_C, KEY_B).decrypt(underA)).toThrow(/unknown key/);
  });

  it('still reads the v1 format (no key id), trying the current key, then the previous one', () => {
    expect(service(KEY_A).decrypt(sealV1(KEY_A, 'old token'))).toBe('old token');
    expect(service(KEY_B, KEY_A).decrypt(sealV1(KEY_A, 'old token'))).toBe('old token');
    expect(service(KEY_B, KEY_A).decrypt(sealV1(KEY_B, 'newer'))).toBe('newer');
    expect(() => service(KEY_B).decrypt(sealV1(KEY_A, 'old token'))).toThrow();
    expect(() => service(KEY_C, KEY_B).decrypt(sealV1(KEY_A, 'old token'))).toThrow();
  });

  it('needsReseal: true for v1 values and values of another key; reseal moves them to the current key', () => {
    const rotated = service(KEY_B, KEY_A);
    const values = [sealV1(KEY_A, 'one'), service(KEY_A).encrypt('two'), sealV1(KEY_B, 'three')];
    for (const v of values) expect(rotated.needsReseal(v)).toBe(true);
    const resealed = values.map((v) => rotated.reseal(v));
    for (const v of resealed) expect(rotated.needsReseal(v)).toBe(false);
    expect(resealed.map((v) => service(KEY_B).decrypt(v))).toEqual(['one', 'two', 'three']);
    expect(rotated.needsReseal(rotated.encrypt('x'))).toBe(false);
  });

  it('nullable helpers keep null and empty as null', () => {
    expect(crypto.encryptNullable(null)).toBeNull();
    expect(crypto.encryptNullable('')).toBeNull();
    expect(crypto.decryptNullable(null)).toBeNull();
    expect(crypto.decryptNullable(crypto.encryptNullable('x'))).toBe('x');
  });

  it('compares in constant time only equal-length values as equal', () => {
    expect(CryptoService.safeEqual('abc', 'abc')).toBe(true);
    expect(CryptoService.safeEqual('abc', 'abd')).toBe(false);
    expect(CryptoService.safeEqual('abc', 'abcd')).toBe(false);
  });
});

describe('masks', () => {
  it('masks secrets as first 4 … last 4, short ones as ••••', () => {
    expect(maskSecret('abcdefghijkl')).toBe('abcd\u2026ijkl');
    expect(maskSecret('abcdefgh')).toBe('\u2022\u2022\u2022\u2022');
    expect(maskSecret('')).toBe('');
  });
  it('keeps origin and path of a webhook URL but masks the last segment', () => {
    expect(maskUrl('https://hooks.example.com/services/T000/B000/XXXXXXXXXXXXXXXX')).toBe('https://hooks.example.com/services/T000/B000/XXXX\u2026XXXX');
    expect(maskUrl('https://example.com/hook?token=abc')).toBe('https://example.com/\u2022\u2022\u2022\u2022');
  });
  it('keeps the numeric prefix of a bot token', () => {
    expect(maskBotToken('123456789:AAAAbbbbccccddddeeeeffffgggghhhhwxyz')).toBe('123456789:AAAA\u2026wxyz');
  });
  it('masks an access token with six bullets', () => {
    expect(maskAccessToken('0123456789abcdef')).toBe('0123\u2022\u2022\u2022\u2022\u2022\u2022cdef');
  });
});
