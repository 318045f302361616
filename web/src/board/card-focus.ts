/**
 * Where the focus goes on a board or list when the task panel closes (docs/web.md, "Focus"): back
 * to the card of the task it showed; when that card is gone (archived, deleted, moved, filtered
 * out), to the next task shown, else the one before; with none left, to "Add a task".
 */

const openerOf = (taskId: string) => document.querySelector<HTMLElement>(`main [data-task="${CSS.escape(taskId)}"] [data-task-open]`);

/** Focuses the card of `taskId`, or the nearest one still shown of `order` (the tasks as shown when the panel was open). */
export function focusNear(taskId: string, order: readonly string[]): void {
  const at = order.indexOf(taskId);
  const after = at === -1 ? order : order.slice(at + 1);
  const before = at === -1 ? [] : order.slice(0, at).reverse();
  for (const id of [taskId, ...after, ...before]) {
    const el = openerOf(id);
    if (el) {
      el.focus();
      return;
    }
  }
  document.querySelector<HTMLElement>('main .quick-create input')?.focus();
}

/** Focuses the card of `taskId` once it is shown (a restored task, after its board has been fetched again); gives up after two seconds. */
export function focusWhenShown(taskId: string): void {
  const until = performance.now() + 2000;
  const attempt = () => {
    const el = openerOf(taskId);
    if (el) el.focus();
    else if (performance.now() < until) requestAnimationFrame(attempt);
  };
  attempt();
}
