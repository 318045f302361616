import { useEffect } from 'react';
import { ErrorState, Loading } from '../ui/States';
import { navigate } from '../app/router';
import { useProject } from '../api/workspace-queries';

/**
 * `/projects/:projectId/tasks/:taskId`, the task address in integration messages and notification
 * emails: finds the project's workspace and opens the task on its board (replacing this address).
 */
export function TaskLinkPage({ projectId, taskId }: { projectId: string; taskId: string }) {
  const project = useProject(projectId);
  const workspaceId = project.data?.workspaceId;
  useEffect(() => {
    if (workspaceId) navigate(`/w/${workspaceId}/p/${projectId}/t/${taskId}`, true);
  }, [workspaceId, projectId, taskId]);
  return (
    <main id="main" tabIndex={-1}>
      {project.isPending && <Loading what="the task" />}
      {project.error && <ErrorState error={project.error} />}
    </main>
  );
}
