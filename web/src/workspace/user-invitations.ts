import { useQuery } from '@tanstack/react-query';
import { api, must } from '../api/client';
import { useSession } from '../api/session';

/**
 * The signed-in user's pending invitations (GET /api/auth/organization/list-user-invitations). The
 * API lists them only to a verified address: for an unverified one nothing is asked and the list is empty.
 */
export function useUserInvitations() {
  const session = useSession();
  const verified = session.data?.user.emailVerified === true;
  const query = useQuery({
    queryKey: ['user-invitations'],
    enabled: verified,
    queryFn: async () => must(await api.GET('/api/auth/organization/list-user-invitations')),
  });
  return { ...query, verified, settled: session.isSuccess && (!verified || !query.isPending) };
}
