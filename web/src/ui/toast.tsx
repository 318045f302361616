import {
  Button,
  Text,
  UNSTABLE_Toast as Toast,
  UNSTABLE_ToastContent as ToastContent,
  UNSTABLE_ToastQueue as ToastQueue,
  UNSTABLE_ToastRegion as ToastRegion,
} from 'react-aria-components';

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

/** Mounted once, at the root of the app. */
export function Toasts() {
  return (
    <ToastRegion queue={queue} className="toasts" aria-label="Notifications from the app">
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
          <Button slot="close" className="toast-close" aria-label="Close">
            ×
          </Button>
        </Toast>
      )}
    </ToastRegion>
  );
}
