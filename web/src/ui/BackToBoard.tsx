import { navigate } from '../app/router';
import { t } from '../i18n';

/** The way back from a project's own pages (settings, integrations) to its board, as an in-app link. */
export function BackToBoard({ workspaceId, projectId }: { workspaceId: string; projectId: string }) {
  const boardPath = `/w/${workspaceId}/p/${projectId}`;
  return (
    <nav aria-label={t('common.projectNav')}>
      <a
        href={boardPath}
        onClick={(e) => {
          e.preventDefault();
          navigate(boardPath);
        }}
      >
        {t('common.backToBoard')}
      </a>
    </nav>
  );
}
