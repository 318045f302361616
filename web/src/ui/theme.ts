import { readStored, useStored, writeStored } from './stored';

/** The theme the person chose on this browser; "system" follows the operating system (docs/web.md, "Themes"). */
export type ThemeChoice = 'system' | 'light' | 'dark';

const KEY = 'tandem.theme';

function read(): ThemeChoice {
  const v = readStored(KEY);
  return v === 'light' || v === 'dark' ? v : 'system';
}

/** Puts the choice on <html> (the stylesheet's dark tokens apply by `data-theme` or the system's preference). */
export function applyTheme(choice: ThemeChoice = read()): void {
  if (choice === 'system') document.documentElement.removeAttribute('data-theme');
  else document.documentElement.setAttribute('data-theme', choice);
}

export function setTheme(choice: ThemeChoice): void {
  applyTheme(choice);
  writeStored(KEY, choice === 'system' ? null : choice);
}

export const useTheme = (): ThemeChoice => useStored(read);
