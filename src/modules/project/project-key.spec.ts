import { deriveProjectKey, firstFreeKey, PROJECT_KEY } from './project-key';

describe('deriveProjectKey', () => {
  it('keeps a short single word and cuts a long one to three characters', () => {
    expect(deriveProjectKey('API')).toBe('API');
    expect(deriveProjectKey('api')).toBe('API');
    expect(deriveProjectKey('Website')).toBe('WEB');
    expect(deriveProjectKey('Q3')).toBe('Q3');
  });
  it('takes the initials of up to four words', () => {
    expect(deriveProjectKey('Customer Support Portal')).toBe('CSP');
    expect(deriveProjectKey('backend-api')).toBe('BA');
    expect(deriveProjectKey('one two three four five six')).toBe('OTTF');
  });
  it('drops accents and symbols', () => {
    expect(deriveProjectKey('Économie & Société')).toBe('ES');
    expect(deriveProjectKey('  ✨ Launch ✨ ')).toBe('LAU');
  });
  it('falls back to PRJ when nothing usable is left', () => {
    expect(deriveProjectKey('🚀🚀')).toBe('PRJ');
    expect(deriveProjectKey('日本')).toBe('PRJ');
  });
  it('always yields a valid key', () => {
    for (const name of ['API', 'Customer Support Portal', '🚀', 'a b', 'x']) expect(deriveProjectKey(name)).toMatch(PROJECT_KEY);
  });
});

describe('firstFreeKey', () => {
  it('answers the base when free, else the first free numbered key', () => {
    expect(firstFreeKey('API', [])).toBe('API');
    expect(firstFreeKey('API', ['api'])).toBe('API2');
    expect(firstFreeKey('API', ['API', 'API2', 'api3'])).toBe('API4');
    expect(firstFreeKey('API', ['API2'])).toBe('API');
  });
});

describe('PROJECT_KEY', () => {
  it('accepts letters of any script and digits with inner dashes/underscores, 1-64 characters', () => {
    for (const ok of ['API', 'a', 'web-2', 'MY_PROJ', 'cli-test-1732400000000', 'X'.repeat(64), 'ÄPI', 'проект', '日本', 'हिन्दी', '7']) expect(ok).toMatch(PROJECT_KEY);
    for (const bad of ['', '-API', 'API-', '_a', 'has space', 'X'.repeat(65), 'a.b', 'a/b', '🚀', 'a🚀b', '\u0301a']) expect(bad).not.toMatch(PROJECT_KEY);
  });
});
