/**
 * A project's slug is its task key (`API` in `API-12`). Explicit keys are 1-64 letters (of any
 * script, with their combining marks) and digits, optionally with `-`/`_` inside
 * (docs/compatibility.md); derived keys are upper-case letters and digits only.
 */
export const PROJECT_KEY = /^[\p{L}\p{N}](?:[\p{L}\p{M}\p{N}_-]{0,62}[\p{L}\p{M}\p{N}])?$/u;
export const PROJECT_KEY_MESSAGE = 'slug must be 1-64 letters or digits (dashes and underscores allowed inside)';
const FALLBACK_KEY = 'PRJ';

/**
 * The key derived from a project name: the initials of up to four words ("Customer Support
 * Portal" → "CSP"), or the first three characters of a single word ("API" → "API",
 * "Website" → "WEB").
 */
export function deriveProjectKey(name: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter(Boolean);
  if (!words.length) return FALLBACK_KEY;
  if (words.length === 1) return words[0].slice(0, 3);
  return words
    .slice(0, 4)
    .map((w) => w[0])
    .join('');
}

/** The first of `KEY`, `KEY2`, `KEY3`, … that is not taken (compared case-insensitively). */
export function firstFreeKey(base: string, taken: Iterable<string>): string {
  const used = new Set([...taken].map((s) => s.toUpperCase()));
  if (!used.has(base.toUpperCase())) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}${n}`;
    if (!used.has(candidate.toUpperCase())) return candidate;
  }
}
