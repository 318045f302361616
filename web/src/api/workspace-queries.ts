import { useQuery } from '@tanstack/react-query';
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
