import { Fragment, type ReactNode } from 'react';
import { I18nProvider } from 'react-aria-components';
import { RawIntlProvider } from 'react-intl';
import { useLanguage } from '.';

/**
 * The language shown, for everything below: react-intl's context, and React Aria's locale (its
 * dates, numbers and the texts of its own components). A change of language renders the app
 * anew (the router's place and the fetched data stay), so no part keeps the former language.
 */
export function Localized({ children }: { children: ReactNode }) {
  const { intl, language, formatLocale } = useLanguage();
  return (
    <RawIntlProvider value={intl}>
      <I18nProvider locale={formatLocale}>
        <Fragment key={`${language}|${formatLocale}`}>{children}</Fragment>
      </I18nProvider>
    </RawIntlProvider>
  );
}
