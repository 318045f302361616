import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, must } from '../api/client';
import { ErrorState, Loading } from '../components/States';
import { navigate } from '../router';

/**
 * `/projects/:projectId/tasks/:taskId`, the task address in integration messages and notification
 * emails: finds the project's workspace and opens the task on its board (replacing this address).
 */
export function TaskLinkPage({ projectId, taskId }: { projectId: string; taskId: string }) {
  const project = useQuery({ queryKey: ['project', projectId], queryFn: async () => must(await api.GET('/api/project/{id}', { params: { path: { id: projectId } } })) });
  const workspaceId = project.data?.workspaceId;
  useEffect(() => {
    if (workspaceId) navigate(`/w/${workspaceId}/p/${projectId}/t/${taskId}`, true);
  }, [workspaceId, projectId, taskId]);
  return (
    <main>
      {project.isPending && <Loading what="the task" />}
      {project.error && <ErrorState error={project.error} />}
    </main>
  );
}
