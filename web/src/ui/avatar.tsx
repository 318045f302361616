/** One or two letters for an avatar: the first letters of the first and last words of a name. */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (!words.length) return '?';
  const first = [...words[0]!][0] ?? '';
  const last = words.length > 1 ? ([...words[words.length - 1]!][0] ?? '') : '';
  return (first + last).toUpperCase();
}

/**
 * A round badge with a person's initials; decorative (the name is always written next to it). The
 * letters are drawn by CSS from `data-initials`, so they are no part of a button's visible label
 * (which must match its accessible name).
 */
export function Avatar({ name }: { name: string }) {
  return <span className="avatar" aria-hidden="true" data-initials={initials(name)} />;
}
