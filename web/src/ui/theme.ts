import { useSyncExternalStore } from 'react';

/** The theme the person chose on this browser; "system" follows the operating system (docs/web.md, "Themes"). */
export type ThemeChoice = 'system' | 'light' | 'dark';

const KEY = 'tandem.theme';
const listeners = new Set<() => void>();

function read(): ThemeChoice {
  try {
    const v = window.localStorage.getItem(KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

/** Puts the choice on <html> (the stylesheet's dark tokens apply by `data-theme` or the system's preference). */
export function applyTheme(choice: ThemeChoice = read()): void {
  if (choice === 'system') document.documentElement.removeAttribute('data-theme');
  else document.documentElement.setAttribute('data-theme', choice);
}

export function setTheme(choice: ThemeChoice): void {
  try {
    if (choice === 'system') window.localStorage.removeItem(KEY);
    else window.localStorage.setItem(KEY, choice);
  } catch {
    // A browser that keeps nothing still switches for this visit.
  }
  applyTheme(choice);
  listeners.forEach((l) => l());
}

export function useTheme(): ThemeChoice {
  return useSyncExternalStore((l) => {
    listeners.add(l);
    return () => listeners.delete(l);
  }, read);
}
