import { useQuery } from '@tanstack/react-query';
import { api, must } from './client';

/**
 * What the caller may do in the workspace (GET /api/auth/organization/my-permissions), so that a
 * control the API would refuse is not offered. While it loads, nothing is offered.
 */
export function usePermissions(workspaceId: string): (resource: string, action: string) => boolean {
  const mine = useQuery({
    queryKey: ['permissions', workspaceId],
    queryFn: async () => must(await api.GET('/api/auth/organization/my-permissions', { params: { query: { organizationId: workspaceId } } })),
    staleTime: 60_000,
  });
  return (resource, action) => {
    const actions = (mine.data?.permissions as Record<string, readonly string[]> | undefined)?.[resource];
    return !!actions?.includes(action);
  };
}
