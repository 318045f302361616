import { maskUrl } from './mask';

/** Webhook URL masks (docs/integrations.md, "Masks"): the secret part of a URL never shows. */
describe('maskUrl', () => {
  it('masks the last non-empty segment when the URL ends in a slash', () => {
    expect(maskUrl('https://hooks.example.com/services/T000/B000/SECRET/')).toBe('https://hooks.example.com/services/T000/B000/\u2022\u2022\u2022\u2022/');
    expect(maskUrl('https://hooks.example.com/services/T000/B000/XXXXlongsecretYYYY//')).toBe('https://hooks.example.com/services/T000/B000/XXXX\u2026YYYY//');
  });

  it('never shows a query string, a fragment or user info', () => {
    const masked = maskUrl('https://user:pa55word@example.com/api/webhooks/123/abcdefghijkl?token=querysecret&x=1#fragsecret');
    expect(masked).toBe('https://example.com/api/webhooks/123/abcd\u2026ijkl');
    for (const clear of ['querysecret', 'fragsecret', 'pa55word', 'token=']) expect(masked).not.toContain(clear);
    expect(maskUrl('https://example.com/?token=querysecret')).toBe('https://example.com/');
    expect(maskUrl('https://example.com?token=querysecret')).toBe('https://example.com/');
  });

  it('masks what is not an http(s) URL as a secret', () => {
    expect(maskUrl('not a url at all')).toBe('not \u2026 all');
    expect(maskUrl('javascript:alert(document.cookie)')).toBe('java\u2026kie)');
    expect(maskUrl('')).toBe('');
    expect(maskUrl(null)).toBe('');
  });
});
