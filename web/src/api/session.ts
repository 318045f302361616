import { useQuery } from '@tanstack/react-query';
import { api, must } from './client';

/** The signed-in user's session (GET /api/auth/get-session), or null when nobody is signed in. */
export function useSession() {
  return useQuery({
    queryKey: ['session'],
    queryFn: async () => {
      const r = await api.GET('/api/auth/get-session');
      if (r.response.status === 401) return null;
      return must(r);
    },
  });
}
