import { useEffect, useSyncExternalStore } from 'react';
import { Button, Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';

/**
 * Whether a key press belongs to something else: typing in a field, a key with Ctrl, Alt or ⌘ (the
 * browser's and the system's), or a modal dialog or menu open (its own keys). The single-key
 * shortcuts (docs/web.md, "Keyboard shortcuts") act only when none of these holds.
 */
export function notForShortcuts(e: KeyboardEvent): boolean {
  if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented || e.isComposing) return true;
  const el = e.target instanceof Element ? e.target : null;
  if (el?.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"], [role="menu"], [role="listbox"]')) return true;
  return document.querySelector('.modal-overlay, dialog[open]') !== null;
}

/** The shortcuts, as the sheet lists them. */
const SHEET: { title: string; keys: [string[], string][] }[] = [
  {
    title: 'Anywhere',
    keys: [
      [['?'], 'Show this list'],
      [['/'], 'Search'],
      [['Ctrl', 'K'], 'Search (⌘K on a Mac)'],
    ],
  },
  {
    title: 'Board and list',
    keys: [
      [['j'], 'Next task'],
      [['k'], 'Previous task'],
      [['Enter'], 'Open the task'],
      [['e'], 'Edit the task’s title'],
      [['c'], 'Create a task (in the column of the task in focus)'],
      [['x'], 'Select the task, or take it out of the selection'],
      [['Shift', 'click'], 'Select every task from the last one selected'],
      [['Esc'], 'Clear the selection; close the task'],
    ],
  },
];

let open = false;
const watchers = new Set<() => void>();
const setOpen = (next: boolean) => {
  open = next;
  for (const w of watchers) w();
};
/** Opens the keyboard shortcuts sheet (from the account menu, or `?`). */
export const showShortcuts = () => setOpen(true);

/** The `?` sheet: a modal list of the shortcuts. Mounted once, in the top bar. */
export function ShortcutsSheet() {
  const isOpen = useSyncExternalStore(
    (w) => {
      watchers.add(w);
      return () => watchers.delete(w);
    },
    () => open,
  );
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== '?' || notForShortcuts(e)) return;
      e.preventDefault();
      setOpen(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <ModalOverlay className="modal-overlay" isDismissable isOpen={isOpen} onOpenChange={setOpen}>
      <Modal className="modal shortcuts-sheet">
        <Dialog className="dialog">
          {({ close }) => (
            <>
              <Heading slot="title">Keyboard shortcuts</Heading>
              {SHEET.map((group) => (
                <section key={group.title} aria-labelledby={`keys-${group.title}`}>
                  <h3 id={`keys-${group.title}`}>{group.title}</h3>
                  <dl className="shortcut-list">
                    {group.keys.map(([keys, what]) => (
                      <div key={what}>
                        <dt>
                          {keys.map((k, i) => (
                            <span key={k}>
                              {i > 0 && ' + '}
                              <kbd>{k}</kbd>
                            </span>
                          ))}
                        </dt>
                        <dd>{what}</dd>
                      </div>
                    ))}
                  </dl>
                </section>
              ))}
              <div className="dialog-actions">
                <Button className="secondary" onPress={close} autoFocus>
                  Close
                </Button>
              </div>
            </>
          )}
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
