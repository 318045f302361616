import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/routes';
import { startLanguage, t } from './i18n';
import { Localized } from './i18n/Localized';
import './ui/styles.css';
import { applyTheme } from './ui/theme';
import { Toasts } from './ui/toast';

applyTheme();

// Back from the OpenID provider, the service's redirect carries the session token in the fragment
// too (for clients without cookies); the app has its cookie, so the token is taken out of the address bar and history.
if (/(^#|&)token=/.test(window.location.hash)) window.history.replaceState(null, '', window.location.pathname + window.location.search);

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: (count, err) => count < 2 && !(err instanceof Error && 'status' in err && (err as { status: number }).status < 500), staleTime: 10_000 } },
});

// The first render waits for the language's catalog (English is bundled; another is one small chunk).
void startLanguage()
  .catch((err: unknown) => console.error(err))
  .then(() =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <Localized>
            <a className="skip-link" href="#main">
              {t('common.skipToContent')}
            </a>
            <App />
            <Toasts />
          </Localized>
        </QueryClientProvider>
      </StrictMode>,
    ),
  );
