import { BackToBoard } from '../ui/BackToBoard';
import { Header } from '../shell/Header';
import { ErrorState } from '../ui/States';
import { useLiveEvents } from '../api/live';
import { usePermissions } from '../api/permissions';
import { HostedgitCard, SelfgitCard } from './GitHosts';
import { NotifierCard } from './NotifierCard';
import { NOTIFIERS } from './notifiers';
import { useProject } from '../api/workspace-queries';
import { t } from '../i18n';

/**
 * A project's integrations (docs/integrations.md, docs/git-hosts.md): the four that notify, each
 * with its delivery log, and the two git hosts. Any member sees the settings; the controls, and the
 * delivery logs, only who holds workspace:manage_settings, as the API requires.
 */
export function IntegrationsPage({ workspaceId, projectId }: { workspaceId: string; projectId: string }) {
  const can = usePermissions(workspaceId);
  // Task events make the delivery logs fetch again (docs/live-events.md).
  useLiveEvents(workspaceId);
  const project = useProject(projectId);
  const canManage = can('workspace', 'manage_settings');
  return (
    <>
      <Header
        workspaceId={workspaceId}
        title={project.data ? t('integrations.integrationsPage.integrations2', { name: project.data.name }) : t('integrations.integrationsPage.integrations')}
      />
      <main id="main" tabIndex={-1} className="page integrations-page">
        <BackToBoard workspaceId={workspaceId} projectId={projectId} />
        {project.error && <ErrorState error={project.error} />}
        {!project.error && (
          <>
            <h2 className="section-title">{t('integrations.integrationsPage.notifications')}</h2>
            <div className="integrations">
              {NOTIFIERS.map((n) => (
                <NotifierCard key={n.kind} notifier={n} projectId={projectId} canManage={canManage} />
              ))}
            </div>
            <h2 className="section-title">{t('integrations.integrationsPage.gitHosts')}</h2>
            <div className="integrations">
              <SelfgitCard projectId={projectId} canManage={canManage} />
              <HostedgitCard projectId={projectId} canManage={canManage} />
            </div>
          </>
        )}
      </main>
    </>
  );
}
