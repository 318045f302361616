import { useEffect, useSyncExternalStore } from 'react';
import { Button, Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { t } from '../i18n';

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
const sheet = (): { id: string; title: string; keys: [string[], string][] }[] => [
  {
    id: 'anywhere',
    title: t('account.shortcuts.anywhere'),
    keys: [
      [['?'], t('account.shortcuts.showThisList')],
      [['/'], t('account.shortcuts.search')],
      [['Ctrl', 'K'], t('account.shortcuts.searchMac')],
    ],
  },
  {
    id: 'board',
    title: t('account.shortcuts.boardAndList'),
    keys: [
      [['j'], t('account.shortcuts.nextTask')],
      [['k'], t('account.shortcuts.previousTask')],
      [['Enter'], t('account.shortcuts.openTask')],
      [['e'], t('account.shortcuts.editTitle')],
      [['c'], t('account.shortcuts.createTask')],
      [['x'], t('account.shortcuts.toggleSelect')],
      [['Shift', 'click'], t('account.shortcuts.selectRange')],
      [['Esc'], t('account.shortcuts.escape')],
    ],
  },
];
const NAMED_KEYS = ['Ctrl', 'Enter', 'Shift', 'click', 'Esc'] as const;
/** A key as the reader's keyboard labels it (Ctrl is Strg in German). */
const keyName = (k: string) => ((NAMED_KEYS as readonly string[]).includes(k) ? t(`account.shortcuts.key.${k as (typeof NAMED_KEYS)[number]}`) : k);

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
              <Heading slot="title">{t('account.shortcuts.keyboardShortcuts')}</Heading>
              {sheet().map((group) => (
                <section key={group.id} aria-labelledby={`keys-${group.id}`}>
                  <h3 id={`keys-${group.id}`}>{group.title}</h3>
                  <dl className="shortcut-list">
                    {group.keys.map(([keys, what]) => (
                      <div key={what}>
                        <dt>
                          {keys.map((k, i) => (
                            <span key={k}>
                              {i > 0 && ' + '}
                              <kbd>{keyName(k)}</kbd>
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
                  {t('account.shortcuts.close')}
                </Button>
              </div>
            </>
          )}
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
