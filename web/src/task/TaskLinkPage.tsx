import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, must } from '../api/client';
import { ErrorState, Loading } from '../ui/States';
import { navigate } from '../app/router';
import { useProject } from '../api/workspace-queries';
import { t } from '../i18n';

/**
 * `/projects/:projectId/tasks/:taskId`, the task address in integration messages and notification
 * emails: finds the task's project (its project now: the task may have moved since the address was
 * made) and that project's workspace, and opens the task on its board (replacing this address). A
 * task that cannot be read opens on the address's project, whose board says why.
 */
export function TaskLinkPage({ projectId, taskId }: { projectId: string; taskId: string }) {
  const task = useQuery({ queryKey: ['task', taskId], queryFn: async () => must(await api.GET('/api/task/{id}', { params: { path: { id: taskId } } })), retry: false });
  const at = task.data?.projectId ?? projectId;
  const project = useProject(at);
  const workspaceId = task.isPending ? undefined : project.data?.workspaceId;
  useEffect(() => {
    if (workspaceId) navigate(`/w/${workspaceId}/p/${at}/t/${taskId}`, true);
  }, [workspaceId, at, taskId]);
  return (
    <main id="main" tabIndex={-1}>
      {(task.isPending || project.isPending) && <Loading what={t('task.taskLinkPage.theTask')} />}
      {project.error && <ErrorState error={project.error} />}
    </main>
  );
}
