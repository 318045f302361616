import { LocalCounts, MAX_KEYS } from './local-limits';

describe('LocalCounts', () => {
  let now = 1_000_000;
  const clock = () => now;

  it('counts hits in a window from the first, then starts again', () => {
    const c = new LocalCounts(clock);
    expect(c.hit('a', 60_000)).toEqual([1, 60_000]);
    now += 10_000;
    expect(c.hit('a', 60_000)).toEqual([2, 50_000]);
    expect(c.hit('b', 60_000)).toEqual([1, 60_000]);
    now += 50_000;
    expect(c.get('a')).toBeNull();
    expect(c.hit('a', 60_000)).toEqual([1, 60_000]);
  });

  it('set, extend and delete: a lock and its failure count', () => {
    const c = new LocalCounts(clock);
    c.set('lock', 5_000);
    expect(c.get('lock')).toEqual([1, 5_000]);
    c.hit('failures', 1_000);
    c.extend('failures', 9_000);
    expect(c.get('failures')).toEqual([1, 9_000]);
    c.extend('failures', 100);
    expect(c.get('failures')).toEqual([1, 9_000]);
    c.delete('lock', 'failures');
    expect([c.get('lock'), c.get('failures')]).toEqual([null, null]);
  });

  it(`keeps at most ${MAX_KEYS} counts: expired ones go first, then the oldest`, () => {
    const c = new LocalCounts(clock);
    c.hit('short', 1);
    for (let i = 1; i < MAX_KEYS; i++) c.hit(`k${i}`, 60_000);
    expect(c.size).toBe(MAX_KEYS);
    now += 2;
    c.hit('new', 60_000);
    expect([c.size, c.get('short'), c.get('k1')?.[0]]).toEqual([MAX_KEYS, null, 1]);
    c.hit('newer', 60_000);
    expect([c.size, c.get('k1'), c.get('k2')?.[0], c.get('newer')?.[0]]).toEqual([MAX_KEYS, null, 1, 1]);
  });
});
