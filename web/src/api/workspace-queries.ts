import { useQuery, type QueryClient } from '@tanstack/react-query';
import { api, must } from './client';

// What several views show (a workspace's lists, a project and its columns), each under one cache key
// with one query function, so that a change that invalidates the key reaches every view showing it.

/** A workspace's members with their names and roles (GET /api/auth/organization/list-members). */
export function useMembers(workspaceId: string) {
  return useQuery({
    queryKey: ['members', workspaceId],
    queryFn: async () => must(await api.GET('/api/auth/organization/list-members', { params: { query: { organizationId: workspaceId } } })),
  });
}

/** A workspace's projects (GET /api/project); waits while `workspaceId` is unknown. */
export function useProjects(workspaceId: string | null | undefined) {
  return useQuery({
    queryKey: ['projects', workspaceId],
    queryFn: async () => must(await api.GET('/api/project', { params: { query: { workspaceId: workspaceId! } } })),
    enabled: !!workspaceId,
  });
}

/** A workspace's label catalogue (GET /api/label/workspace/:workspaceId). */
export function useLabels(workspaceId: string) {
  return useQuery({
    queryKey: ['labels', workspaceId],
    queryFn: async () => must(await api.GET('/api/label/workspace/{workspaceId}', { params: { path: { workspaceId } } })),
  });
}

/** One project (GET /api/project/:id). */
export function useProject(projectId: string) {
  return useQuery({ queryKey: ['project', projectId], queryFn: async () => must(await api.GET('/api/project/{id}', { params: { path: { id: projectId } } })) });
}

/** A project's columns, in board order (GET /api/column/:projectId). */
export function useColumns(projectId: string) {
  return useQuery({ queryKey: ['columns', projectId], queryFn: async () => must(await api.GET('/api/column/{projectId}', { params: { path: { projectId } } })) });
}

/**
 * What a project's board cards show beside each task (GET /api/task/card-details/:projectId). Kept
 * under the project's tasks key, so that whatever refetches the tasks refetches these too.
 */
export function useCardDetails(projectId: string) {
  return useQuery({
    queryKey: ['tasks', projectId, 'cards'],
    queryFn: async () => must(await api.GET('/api/task/card-details/{projectId}', { params: { path: { projectId } } })),
  });
}

/** After a change a card shows (a task's labels, its comments), whichever board is open. */
export function refetchCardDetails(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'tasks' && q.queryKey[2] === 'cards' });
}
