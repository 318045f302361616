import { escapeHtml } from './html';

describe('escapeHtml', () => {
  it('escapes every HTML-special character', () => {
    expect(escapeHtml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;');
  });
});
