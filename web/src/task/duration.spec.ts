import { formatDuration, parseDuration } from './duration';

describe('parseDuration', () => {
  it.each([
    ['1h 30m', 5400],
    ['1h30m', 5400],
    ['1h 30', 5400],
    ['90m', 5400],
    ['90 min', 5400],
    ['1.5h', 5400],
    ['1,5 h', 5400],
    ['2 hours 5 minutes', 7500],
    ['45', 2700],
    [' 45 ', 2700],
    ['1:30', 5400],
    ['2h', 7200],
    ['0.25h', 900],
    ['1H 30M', 5400],
  ])('reads %p as %p seconds', (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds);
  });

  it.each(['', '   ', 'abc', '0', '0h 0m', '-5', '1h-30m', '30m 1h', '1h 2h', '1x', '1:75', '1h 30m extra'])('refuses %p', (text) => {
    expect(parseDuration(text)).toBeNull();
  });
});

describe('formatDuration', () => {
  it.each([
    [5400, '1h 30m'],
    [2700, '45m'],
    [7200, '2h'],
    [59, '0m'],
    [7260, '2h 1m'],
  ])('writes %p seconds as %p', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });
});
