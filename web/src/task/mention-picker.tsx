import { useId, useState, type KeyboardEvent, type RefObject } from 'react';
import { useMembers } from '../api/workspace-queries';
import type { Member } from '../api/types';
import { Avatar } from '../ui/avatar';
import { t } from '../i18n';

/** Most members offered at once. */
const SHOWN = 6;
/** The `@…` being typed just before the cursor (after a space or at the start). */
const TYPING = /(?:^|\s)@([^\s@<>]{0,40})$/;

/** The markup of a mention (docs/notifications.md, "Mentions"); `<` and `>` in a name could not close the tag. */
export const mentionMarkup = (m: { userId: string; name: string }) => `<mention id="${m.userId}">${m.name.replace(/[<>]/g, '')}</mention>`;

/**
 * `@` in a Markdown text area offers the workspace's members: typing narrows them by name or
 * email, ↑/↓ choose, Enter or Tab takes one (its mention is put in place of the `@…`), Escape or a
 * space closes the list. The text area (a textbox) points at the list and its active option
 * (aria-autocomplete, aria-controls, aria-activedescendant), so a screen reader follows the choice
 * without the focus leaving it.
 */
export function useMentionPicker(workspaceId: string, area: RefObject<HTMLTextAreaElement | null>, setText: (update: (text: string) => string) => void) {
  const members = useMembers(workspaceId);
  const listId = useId();
  const [typing, setTyping] = useState<{ start: number; end: number; q: string } | null>(null);
  const [active, setActive] = useState(0);

  const sync = () => {
    const el = area.current;
    if (!el || el.selectionStart !== el.selectionEnd) return setTyping(null);
    const m = TYPING.exec(el.value.slice(0, el.selectionStart));
    setTyping(m ? { start: el.selectionStart - m[1]!.length - 1, end: el.selectionStart, q: m[1]!.toLowerCase() } : null);
    setActive(0);
  };
  // Names with a word starting with what is typed come first, then the rest that contain it (in the name or the email).
  const rank = (m: Member, q: string) => {
    const name = (m.user?.name ?? '').toLowerCase();
    if (name.split(/\s+/).some((w) => w.startsWith(q))) return 0;
    return `${name} ${m.user?.email ?? ''}`.toLowerCase().includes(q) ? 1 : 2;
  };
  const found: Member[] = typing
    ? (members.data ?? [])
        .filter((m) => rank(m, typing.q) < 2)
        .sort((a, b) => rank(a, typing.q) - rank(b, typing.q))
        .slice(0, SHOWN)
    : [];
  const open = found.length > 0;

  const pick = (m: Member) => {
    if (!typing) return;
    const markup = `${mentionMarkup({ userId: m.userId, name: m.user?.name ?? m.userId })} `;
    const { start, end } = typing;
    setText((text) => text.slice(0, start) + markup + text.slice(end));
    setTyping(null);
    requestAnimationFrame(() => {
      const el = area.current;
      if (!el) return;
      el.focus();
      el.setSelectionRange(start + markup.length, start + markup.length);
    });
  };

  /** Handles the keys the open list takes; true when it took this one (the text area's own handler then does nothing). */
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open) return false;
    const move = (by: number) => setActive((i) => (i + by + found.length) % found.length);
    if (e.key === 'ArrowDown') move(1);
    else if (e.key === 'ArrowUp') move(-1);
    else if (e.key === 'Enter' || e.key === 'Tab') pick(found[Math.min(active, found.length - 1)]!);
    else if (e.key === 'Escape') setTyping(null);
    else return false;
    e.preventDefault();
    e.stopPropagation();
    return true;
  };

  const optionId = (i: number) => `${listId}-${i}`;
  return {
    onKeyDown,
    /** Spread on the text area. */
    props: {
      'aria-autocomplete': 'list' as const,
      'aria-controls': open ? listId : undefined,
      'aria-activedescendant': open ? optionId(Math.min(active, found.length - 1)) : undefined,
      onSelect: sync,
      onInput: sync,
      onBlur: () => setTyping(null),
    },
    list: open ? (
      <ul id={listId} role="listbox" className="mention-list" aria-label={t('task.mentions.members')}>
        {found.map((m, i) => (
          <li
            key={m.userId}
            id={optionId(i)}
            role="option"
            aria-selected={i === Math.min(active, found.length - 1)}
            // Taken on mousedown, before the text area loses the focus (which closes the list).
            onMouseDown={(e) => {
              e.preventDefault();
              pick(m);
            }}
          >
            <Avatar name={m.user?.name ?? '?'} />
            <span>{m.user?.name ?? m.userId}</span>
            {m.user?.email && <span className="muted">{m.user.email}</span>}
          </li>
        ))}
      </ul>
    ) : null,
  };
}
