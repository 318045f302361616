/**
 * The `e` shortcut (docs/web.md, "Keyboard shortcuts"): asks the task panel to open the title of
 * task `taskId` for editing, whether the panel is already open on it or opens on it next.
 */
let pending: string | null = null;
const watchers = new Set<(taskId: string) => void>();

export function requestTitleEdit(taskId: string): void {
  pending = taskId;
  for (const w of watchers) w(taskId);
}

/** True once for a request made for `taskId` before its panel was there (the request is then used up). */
export function takeTitleEdit(taskId: string): boolean {
  if (pending !== taskId) return false;
  pending = null;
  return true;
}

/** Calls `onRequest` when a title edit of `taskId` is asked for while it is open. */
export function watchTitleEdit(taskId: string, onRequest: () => void): () => void {
  const w = (id: string) => {
    if (id === taskId && takeTitleEdit(id)) onRequest();
  };
  watchers.add(w);
  return () => watchers.delete(w);
}
