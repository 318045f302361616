import { useEffect, useRef } from 'react';
import { notForShortcuts } from '../shell/Shortcuts';
import { requestTitleEdit } from '../task/edit-request';
import type { Selection } from './selection';

export type SelectHow = 'toggle' | 'range';

/** The task whose card or row holds the focus, if any. */
const focusedTask = (): string | null => document.activeElement?.closest('[data-task]')?.getAttribute('data-task') ?? null;

/** Moves the focus `by` tasks on (1: `j`) or back (-1: `k`), in the order they are on the page. */
function step(by: 1 | -1): void {
  const opens = [...document.querySelectorAll<HTMLElement>('main [data-task] [data-task-open]')];
  if (opens.length === 0) return;
  const at = opens.findIndex((el) => el.closest('[data-task]')?.getAttribute('data-task') === focusedTask());
  const next = at === -1 ? (by === 1 ? 0 : opens.length - 1) : Math.min(opens.length - 1, Math.max(0, at + by));
  opens[next]!.focus();
  opens[next]!.scrollIntoView({ block: 'nearest', inline: 'nearest' });
}

/**
 * The board's and the list's single-key shortcuts (docs/web.md, "Keyboard shortcuts"): `j`/`k` move
 * the focus from task to task, `x` selects the task in focus, `e` opens its title for editing,
 * `c` goes to "Add a task" (of the focused card's column on the board), Escape clears the
 * selection. `Enter` opens a task as any button does; `?` and `/` are the top bar's.
 */
export function useBoardKeys(opts: { selection: Selection; openTaskId: string | null; onOpen: (taskId: string) => void }): void {
  const latest = useRef(opts);
  latest.current = opts;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (notForShortcuts(e) || e.shiftKey) return;
      const { selection, openTaskId, onOpen } = latest.current;
      const inPanel = Boolean(document.activeElement?.closest('.panel'));
      const task = focusedTask();
      switch (e.key) {
        case 'j':
        case 'k':
          step(e.key === 'j' ? 1 : -1);
          break;
        case 'x':
          if (!task) return;
          selection.toggle(task);
          break;
        case 'e':
          if (inPanel && openTaskId) requestTitleEdit(openTaskId);
          else if (task) {
            requestTitleEdit(task);
            onOpen(task);
          } else return;
          break;
        case 'c': {
          const column = document.activeElement?.closest('[data-column]');
          const input = (column ?? document).querySelector<HTMLInputElement>('main .quick-create input');
          if (!input) return;
          input.focus();
          input.scrollIntoView({ block: 'nearest' });
          break;
        }
        case 'Escape':
          if (openTaskId || selection.ids.length === 0) return;
          selection.clear();
          break;
        default:
          return;
      }
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
