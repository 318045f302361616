import {
  Button,
  Text,
  UNSTABLE_Toast as Toast,
  UNSTABLE_ToastContent as ToastContent,
  UNSTABLE_ToastQueue as ToastQueue,
  UNSTABLE_ToastRegion as ToastRegion,
} from 'react-aria-components';
import { useEffect, useRef, type RefObject } from 'react';
import { t as tr } from '../i18n';

/** What a toast says, and at most one action beside it (for example "Undo"). */
export interface ToastMessage {
  title: string;
  description?: string;
  tone?: 'info' | 'error';
  action?: { label: string; run: () => void };
}

const queue = new ToastQueue<ToastMessage>({ maxVisibleToasts: 4 });

/**
 * The app's toasts (docs/web.md, "Toasts"): announced politely to screen readers, closed by their
 * button or after `timeout` ms (8 s by default; an action's toast stays as long, so that "Undo" can be reached).
 */
export const toast = {
  show(message: ToastMessage, timeout = 8000): string {
    return queue.add(message, { timeout });
  },
  close(key: string): void {
    queue.close(key);
  },
};

/**
 * F6 (the key that moves between a window's regions) goes to the newest toast's first button (its
 * action, else Close), and from a toast back to where the focus was. React Aria's toast region is
 * not in its own F6 landmark cycle, so the app gives it this key itself.
 */
function useF6ToToasts(region: RefObject<HTMLDivElement | null>) {
  useEffect(() => {
    let cameFrom: HTMLElement | null = null;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'F6' || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
      const el = region.current;
      if (!el) return;
      const active = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      if (active && el.contains(active)) {
        e.preventDefault();
        (cameFrom?.isConnected ? cameFrom : document.getElementById('main'))?.focus();
        cameFrom = null;
        return;
      }
      // The queue shows the newest first.
      const buttons = el.querySelector<HTMLElement>('.toast')?.querySelectorAll<HTMLElement>('button');
      if (!buttons?.length) return;
      e.preventDefault();
      cameFrom = active;
      buttons[0]!.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [region]);
}

/** Mounted once, at the root of the app. */
export function Toasts() {
  const region = useRef<HTMLDivElement>(null);
  useF6ToToasts(region);
  return (
    <ToastRegion ref={region} queue={queue} className="toasts" aria-label={tr('common.toastRegion')}>
      {({ toast: t }) => (
        <Toast toast={t} className={`toast toast-${t.content.tone ?? 'info'}`}>
          <ToastContent className="toast-content">
            <Text slot="title">{t.content.title}</Text>
            {t.content.description ? <Text slot="description">{t.content.description}</Text> : null}
          </ToastContent>
          {t.content.action ? (
            <Button
              className="toast-action"
              onPress={() => {
                queue.close(t.key);
                t.content.action!.run();
              }}
            >
              {t.content.action.label}
            </Button>
          ) : null}
          <Button slot="close" className="toast-close" aria-label={tr('common.close')}>
            ×
          </Button>
        </Toast>
      )}
    </ToastRegion>
  );
}
