/**
 * The app's languages (docs/web.md, "Languages"): messages in ICU MessageFormat through FormatJS
 * (react-intl), dates and numbers through the browser's Intl for the reader's locale. Each
 * language is named in itself, as language menus do.
 */
export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'de', name: 'Deutsch' },
] as const;
export type Language = (typeof LANGUAGES)[number]['code'];

export const isLanguage = (code: string | null | undefined): code is Language => LANGUAGES.some((l) => l.code === code);
const primary = (tag: string) => tag.split('-')[0]!.toLowerCase();

/**
 * Which language to show: the one chosen on the account page, else the first of the browser's
 * languages the app has, else English; and the locale that formats dates and numbers: the
 * browser's own tag for that language when it has one (de-AT, en-GB), else the language.
 */
export function resolveLanguage(chosen: string | null, preferred: readonly string[]): { language: Language; formatLocale: string } {
  const fromBrowser = preferred.map(primary).find(isLanguage);
  const language: Language = isLanguage(chosen) ? chosen : (fromBrowser ?? 'en');
  const own = preferred.find((tag) => primary(tag) === language);
  let formatLocale: string = language;
  if (own) {
    try {
      formatLocale = Intl.getCanonicalLocales(own)[0] ?? language;
    } catch {
      formatLocale = language;
    }
  }
  return { language, formatLocale };
}
