import { loadConfig } from '../../config/app-config';
import { CryptoService } from './crypto.service';
import { maskAccessToken, maskBotToken, maskSecret, maskUrl } from './mask';

describe('CryptoService', () => {
  const crypto = new CryptoService(loadConfig({ ENCRYPTION_KEY: '11'.repeat(32) }));

  it('round-trips and never repeats a ciphertext', () => {
    const a = crypto.encrypt('s3cret token');
    const b = crypto.encrypt('s3cret token');
    expect(a).not.toBe(b);
    expect(a).not.toContain('s3cret');
    expect(crypto.decrypt(a)).toBe('s3cret token');
  });

  it('detects tampering and a wrong key', () => {
    const sealed = crypto.encrypt('hello');
    const parts = sealed.split(':');
    const ct = Buffer.from(parts[3], 'base64');
    ct[0] ^= 1;
    parts[3] = ct.toString('base64');
    expect(() => crypto.decrypt(parts.join(':'))).toThrow();
    const other = new CryptoService(loadConfig({ ENCRYPTION_KEY: '22'.repeat(32) }));
    expect(() => other.decrypt(sealed)).toThrow();
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
    expect(maskUrl('https://hooks.example.com/services/T000/B000/XXXXXXXXXXXXXXXX')).toBe(
      'https://hooks.example.com/services/T000/B000/XXXX\u2026XXXX',
    );
    expect(maskUrl('https://example.com/hook?token=abc')).toBe('https://example.com/\u2022\u2022\u2022\u2022');
  });
  it('keeps the numeric prefix of a bot token', () => {
    expect(maskBotToken('123456789:AAAAbbbbccccddddeeeeffffgggghhhhwxyz')).toBe('123456789:AAAA\u2026wxyz');
  });
  it('masks an access token with six bullets', () => {
    expect(maskAccessToken('0123456789abcdef')).toBe('0123\u2022\u2022\u2022\u2022\u2022\u2022cdef');
  });
});
