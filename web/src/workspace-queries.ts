import { useQuery } from '@tanstack/react-query';
import { api, must } from './api/client';

/** A workspace's members with their names and roles (GET /api/auth/organization/list-members), shared by every view that names people. */
export function useMembers(workspaceId: string) {
  return useQuery({
    queryKey: ['members', workspaceId],
    queryFn: async () => must(await api.GET('/api/auth/organization/list-members', { params: { query: { organizationId: workspaceId } } })),
  });
}
