import { createIntl, createIntlCache, type IntlShape } from 'react-intl';
import type { ReactNode } from 'react';
import { useSyncExternalStore } from 'react';
import { readStored, writeStored } from '../ui/stored';
import { en, type MessageId } from './messages/en';
import { isLanguage, resolveLanguage, type Language } from './resolve';

export type { MessageId } from './messages/en';

export { LANGUAGES, resolveLanguage, type Language } from './resolve';

const STORED_KEY = 'tandem.language';

/** English is in the app's first chunk; another language's catalog is loaded the first time it is needed. */
const catalogs: Record<Language, () => Promise<Record<MessageId, string>>> = {
  en: () => Promise.resolve(en),
  de: () => import('./messages/de').then((m) => m.de),
};

/** The browser's preferred languages, most wanted first. */
function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : navigator.language ? [navigator.language] : [];
}

export interface LanguageState {
  /** The language of the messages. */
  language: Language;
  /** The locale dates, times and numbers are written in. */
  formatLocale: string;
  /** Whether the language follows the browser (nothing chosen on the account page). */
  followsBrowser: boolean;
  intl: IntlShape;
}

const cache = createIntlCache();
function makeIntl(language: Language, formatLocale: string, messages: Record<MessageId, string>): IntlShape {
  return createIntl(
    {
      locale: formatLocale,
      defaultLocale: 'en',
      messages,
      // A message missing from a catalog, or one its values do not fit, is a bug: said in the console
      // (which the browser tests fail on); the id is shown meanwhile.
      onError: (err) => console.error(`i18n (${language}): ${err.message}`),
    },
    cache,
  );
}

let state: LanguageState = { language: 'en', formatLocale: 'en', followsBrowser: true, intl: makeIntl('en', 'en', en) };
const listeners = new Set<() => void>();

async function apply(chosen: string | null): Promise<void> {
  const { language, formatLocale } = resolveLanguage(chosen, browserLanguages());
  const messages = await catalogs[language]();
  state = { language, formatLocale, followsBrowser: !isLanguage(chosen), intl: makeIntl(language, formatLocale, messages) };
  document.documentElement.lang = formatLocale;
  listeners.forEach((l) => l());
}

/** Loads the language to show before the app first renders. */
export function startLanguage(): Promise<void> {
  return apply(readStored(STORED_KEY));
}

/** Shows the app in `language` from now on, in this browser (null: follow the browser's languages again). */
export async function chooseLanguage(language: Language | null): Promise<void> {
  writeStored(STORED_KEY, language);
  await apply(language);
}

/** The language shown now; components re-render when it changes. */
export function useLanguage(): LanguageState {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => state,
  );
}

type PlainValues = Record<string, string | number | Date | null | undefined>;

/**
 * The message `id` in the language shown, with its `{placeholders}` filled (numbers and plurals
 * in the reader's locale). Called while rendering or handling an event, never at a module's top
 * level (that would keep the language of the first load).
 */
export function t(id: MessageId, values?: PlainValues): string {
  return state.intl.formatMessage({ id }, values as Record<string, string | number | Date>) as string;
}

/** A message with parts that are elements: `{name}` values that are nodes, and `<b>…</b>` tags given as functions of their content. */
export function tRich(id: MessageId, values: Record<string, ReactNode | ((chunks: ReactNode[]) => ReactNode)>): ReactNode {
  return state.intl.formatMessage({ id }, values as never) as ReactNode;
}

type DateInput = Date | string | number;
const asDate = (d: DateInput) => (d instanceof Date ? d : new Date(d));

/** A date (and time, with its options) in the reader's locale. */
export function formatDate(d: DateInput, options?: Intl.DateTimeFormatOptions): string {
  return state.intl.formatDate(asDate(d), options);
}

/** A timestamp of the API, day and time, as the reader's locale writes it. */
export function formatDateTime(d: DateInput): string {
  return state.intl.formatDate(asDate(d), { dateStyle: 'medium', timeStyle: 'short' });
}

/** A number in the reader's locale. */
export function formatNumber(n: number, options?: Intl.NumberFormatOptions): string {
  return state.intl.formatNumber(n, options);
}

/** Items joined as the locale lists them ("a, b and c" / "a, b und c"). */
export function formatList(items: string[], options?: Intl.ListFormatOptions): string {
  return state.intl.formatList(items, options) as string;
}
