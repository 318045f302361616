import { secretChange } from './secret-rotation';

describe('secretChange', () => {
  it('keeps the same secret, sets a first one, replaces a different one, removes on none', () => {
    expect(secretChange('s1', 's1')).toBe('keep');
    expect(secretChange(null, null)).toBe('remove');
    expect(secretChange(null, 's1')).toBe('set');
    expect(secretChange('s1', 's2')).toBe('replace');
    expect(secretChange('s1', null)).toBe('remove');
  });
});
