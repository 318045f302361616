/**
 * Mentions in a task's texts (docs/notifications.md, "Mentions"): a description or a comment holds
 * `<mention id="USER_ID">Name</mention>` where someone was @mentioned; the original service's
 * `<kaneo-mention id="…">` is read the same way. Pure.
 */

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
/** An opening tag with its id (double or single quotes), whatever other attributes it has. */
const OPENING = new RegExp(`<(?:kaneo-)?mention\\b[^>]*?\\bid\\s*=\\s*(?:"(${UUID})"|'(${UUID})')[^>]*>`, 'g');
/** A whole mention, for display: its inner text (the name as the author's editor wrote it). */
const WHOLE = /<(kaneo-)?mention\b[^>]*>([\s\S]*?)<\/\1mention\s*>/gi;
const TAGS = /<[^>]*>/g;

/** The user ids mentioned in `text`, lower-case, each once, in order of first mention. */
export function mentionedIds(text: string | null | undefined): string[] {
  if (!text) return [];
  const seen = new Set<string>();
  for (const m of text.matchAll(OPENING)) seen.add((m[1] ?? m[2]).toLowerCase());
  return [...seen];
}

/** The ids mentioned in `after` that `before` did not mention: an edit notifies only those. */
export function newlyMentioned(before: string | null | undefined, after: string | null | undefined): string[] {
  const old = new Set(mentionedIds(before));
  return mentionedIds(after).filter((id) => !old.has(id));
}

/** `text` with each mention shown as `@Name` (its inner text without markup; `@someone` when empty), for people to read. */
export function mentionsAsText(text: string): string {
  if (!text.includes('mention')) return text;
  return text.replace(WHOLE, (_all, _prefix: string | undefined, inner: string) => {
    const name = inner.replace(TAGS, '').trim().replace(/^@/, '');
    return `@${name || 'someone'}`;
  });
}
