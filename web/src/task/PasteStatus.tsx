import { ErrorState } from '../ui/States';
import { t } from '../i18n';

/** Under a Markdown text area: how to add an image, images on their way (announced), or why one failed. */
export function PasteStatus({ uploading, error }: { uploading: number; error: unknown }) {
  return (
    <>
      <p className="hint" role="status">
        {uploading > 0 ? t('task.imagePaste.uploading', { count: uploading }) : t('task.imagePaste.hint')}
      </p>
      {error ? <ErrorState error={error} /> : null}
    </>
  );
}
