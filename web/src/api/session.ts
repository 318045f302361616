import { useQuery } from '@tanstack/react-query';
import { api, must } from './client';
import type { Session } from './types';

/** The signed-in user's session (GET /api/auth/get-session), or null when nobody is signed in (the service answers null). */
export function useSession() {
  return useQuery({
    queryKey: ['session'],
    queryFn: async (): Promise<Session | null> => {
      const r = await api.GET('/api/auth/get-session');
      // A token that ended (a 401) is as signed out as no session.
      if (r.response.status === 401) return null;
      return must(r) ?? null;
    },
  });
}
