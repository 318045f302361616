/**
 * What a live entry carries (docs/live-events.md, "What it sends"): the event or notification as
 * JSON, small. A string over TEXT_LIMIT characters (a description, a comment's body, an old or new
 * value) is cut to its first TEXT_LIMIT characters and the entry says `truncated: true`; an entry
 * still over ENTRY_LIMIT bytes keeps only its top-level values and the ids of what it names. A
 * client fetches what it needs in full (the task, the comment) when it sees `truncated`.
 */
export const TEXT_LIMIT = 280;
export const ENTRY_LIMIT = 16 * 1024;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function cut(value: unknown, state: { cut: boolean }): Json {
  if (typeof value === 'string') {
    if (value.length <= TEXT_LIMIT) return value;
    state.cut = true;
    // Not in the middle of a surrogate pair.
    const end = /[\uD800-\uDBFF]/.test(value[TEXT_LIMIT - 1]!) ? TEXT_LIMIT - 1 : TEXT_LIMIT;
    return value.slice(0, end);
  }
  if (Array.isArray(value)) return value.map((v) => cut(v, state));
  if (value && typeof value === 'object') {
    if (value instanceof Date) return value.toISOString();
    const out: Record<string, Json> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = cut(v, state);
    return out;
  }
  return (value ?? null) as Json;
}

/** The top-level scalars of `value`, and of each object it holds only its `id` (what a client needs to fetch the rest). */
function skeleton(value: Record<string, Json>): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === null || typeof v !== 'object') out[k] = v;
    else if (!Array.isArray(v) && typeof v.id === 'string') out[k] = { id: v.id };
  }
  return out;
}

/** The JSON text of a live entry's `data`: `value` with long texts cut, never over ENTRY_LIMIT bytes. */
export function liveData(value: object): string {
  const state = { cut: false };
  let data = cut(value, state) as Record<string, Json>;
  let text = JSON.stringify(state.cut ? { ...data, truncated: true } : data);
  if (Buffer.byteLength(text) <= ENTRY_LIMIT) return text;
  data = skeleton(data);
  text = JSON.stringify({ ...data, truncated: true });
  // Top-level strings are at most TEXT_LIMIT each; only an object with thousands of keys gets here.
  return Buffer.byteLength(text) <= ENTRY_LIMIT ? text : JSON.stringify({ truncated: true });
}
