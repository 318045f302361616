/**
 * Durations as people type and read them. `parseDuration` accepts hours and minutes in the usual
 * spellings: "1h 30m", "1h30", "90m", "1.5h", "1,5 h", "2 hours 5 min", "1:30", and a bare number
 * of minutes ("45"). It answers whole seconds, or null when the text is not a duration or is zero.
 */
const UNIT = /^(h|hr|hrs|hour|hours|m|min|mins|minute|minutes)$/;
const TOKEN = /(\d+(?:[.,]\d+)?)\s*([a-z]*)/g;

export function parseDuration(text: string): number | null {
  const s = text.trim().toLowerCase();
  if (!s) return null;
  const clock = /^(\d+):([0-5]\d)$/.exec(s);
  if (clock) return positive(Number(clock[1]) * 3600 + Number(clock[2]) * 60);
  let seconds = 0;
  let consumed = '';
  let previousUnit: 'h' | 'm' | null = null;
  for (const [all, num, unit] of s.matchAll(TOKEN)) {
    const n = Number(num!.replace(',', '.'));
    let u: 'h' | 'm';
    if (unit) {
      if (!UNIT.test(unit)) return null;
      u = unit.startsWith('h') ? 'h' : 'm';
    } else {
      // A bare number is minutes ("45", or the "30" of "1h 30").
      u = 'm';
    }
    if (u === previousUnit || (previousUnit === 'm' && u === 'h')) return null;
    previousUnit = u;
    seconds += u === 'h' ? n * 3600 : n * 60;
    consumed += all;
  }
  // Anything besides numbers, units and spaces ("abc", "1h-30m", "-5") is not a duration.
  if (consumed.replace(/\s/g, '') !== s.replace(/\s/g, '')) return null;
  return positive(Math.round(seconds));
}

const positive = (seconds: number) => (Number.isFinite(seconds) && seconds > 0 ? seconds : null);

/** Seconds as "1h 30m", "45m", "2h" (whole minutes; under a minute, "0m"). */
export function formatDuration(seconds: number): string {
  const minutes = Math.floor(Math.max(0, seconds) / 60);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (!h) return `${m}m`;
  return m ? `${h}h ${m}m` : `${h}h`;
}
