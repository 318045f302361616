import { useSyncExternalStore } from 'react';

/**
 * What the app keeps in this browser (localStorage: the theme, saved views), read and written so
 * that a browser that keeps nothing (private mode, storage refused) still works for the visit, and
 * every component reading a key follows its changes.
 */
const listeners = new Set<() => void>();

export function readStored(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Writes `value` under `key` (null removes it) and tells every reader. */
export function writeStored(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Nothing kept on a browser that keeps nothing; the readers are told all the same.
  }
  listeners.forEach((l) => l());
}

/** `read()` of what is stored, again after each write (`read` must answer the same object while the stored text is the same). */
export function useStored<T>(read: () => T): T {
  return useSyncExternalStore((l) => {
    listeners.add(l);
    return () => listeners.delete(l);
  }, read);
}
