import { useCallback, useMemo, useRef, useState } from 'react';

export interface Selection {
  /** The selected tasks that are still shown, in the order they are shown. */
  ids: string[];
  has: (id: string) => boolean;
  /** Adds the task, or takes it out; it becomes the anchor of a shift-click. */
  toggle: (id: string) => void;
  /** Selects every shown task from the anchor (the last task toggled) to `id`, both included. */
  extendTo: (id: string) => void;
  /** Selects every task of `ids` (the list's "select every task shown"). */
  add: (ids: string[]) => void;
  clear: () => void;
}

/**
 * The board's and the list's multi-select (docs/web.md, "Selecting many tasks"): `x` or a card's
 * checkbox toggles one task, shift-click selects a run of them in the order they are shown
 * (`shown`: column by column on the board, row by row in the list). A task that leaves the view
 * (filtered out, deleted, moved) leaves the selection.
 */
export function useSelection(shown: string[]): Selection {
  const [picked, setPicked] = useState<ReadonlySet<string>>(() => new Set());
  const anchor = useRef<string | null>(null);
  const order = useRef(shown);
  order.current = shown;
  const ids = useMemo(() => shown.filter((id) => picked.has(id)), [shown, picked]);
  const current = useMemo(() => new Set(ids), [ids]);
  const toggle = useCallback((id: string) => {
    anchor.current = id;
    setPicked((prev) => {
      const next = new Set(prev);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  }, []);
  const extendTo = useCallback((id: string) => {
    const list = order.current;
    const from = anchor.current === null ? -1 : list.indexOf(anchor.current);
    const to = list.indexOf(id);
    if (to === -1) return;
    const [a, b] = from === -1 ? [to, to] : [Math.min(from, to), Math.max(from, to)];
    anchor.current = id;
    setPicked((prev) => new Set([...prev, ...list.slice(a, b + 1)]));
  }, []);
  const add = useCallback((more: string[]) => setPicked((prev) => new Set([...prev, ...more])), []);
  const clear = useCallback(() => {
    anchor.current = null;
    setPicked(new Set());
  }, []);
  const has = useCallback((id: string) => current.has(id), [current]);
  return { ids, has, toggle, extendTo, add, clear };
}
