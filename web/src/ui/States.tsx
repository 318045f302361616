import { ApiError } from '../api/client';
import { t } from '../i18n';

/** `what` is what loads, already in the reader's language ("the project"). */
export function Loading({ what }: { what: string }) {
  return (
    <p className="state" role="status" aria-live="polite">
      {t('common.loading', { what })}
    </p>
  );
}

/** An error as the API said it (`{message}`), or the browser's. */
export function ErrorState({ error }: { error: unknown }) {
  const message = error instanceof ApiError || error instanceof Error ? error.message : t('common.somethingWentWrong');
  return (
    <p className="state error" role="alert">
      {message}
    </p>
  );
}

export function Empty({ children }: { children: React.ReactNode }) {
  return <p className="state empty">{children}</p>;
}
