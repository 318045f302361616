import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useLayoutEffect, useRef } from 'react';
import { api, must } from '../api/client';
import { navigate } from '../app/router';
import { NotificationBell } from '../notifications/Notifications';
import { SearchButton } from '../search/Search';
import { useSession } from '../api/session';

/** The top bar: the workspace switcher, search (Ctrl-K), the notifications bell, the account (the user's name) and sign-out. */
export function Header({ workspaceId, title }: { workspaceId: string | null; title?: string }) {
  const queryClient = useQueryClient();
  const session = useSession();
  const bar = useRef<HTMLElement>(null);
  // The task panel starts below the bar (--topbar-height), so search and the bell stay in reach.
  useLayoutEffect(() => {
    const el = bar.current;
    if (!el) return;
    const set = () => document.documentElement.style.setProperty('--topbar-height', `${el.offsetHeight}px`);
    set();
    const observer = new ResizeObserver(set);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const workspaces = useQuery({ queryKey: ['workspaces'], queryFn: async () => must(await api.GET('/api/auth/organization/list')) });
  const signOut = useMutation({
    mutationFn: async () => must(await api.POST('/api/auth/sign-out')),
    onSettled: async () => {
      queryClient.clear();
      navigate('/sign-in', true);
      await queryClient.invalidateQueries({ queryKey: ['session'] });
    },
  });
  return (
    <header className="topbar" ref={bar}>
      <a
        href="/"
        className="brand"
        onClick={(e) => {
          e.preventDefault();
          navigate('/');
        }}
      >
        Tandem
      </a>
      <label className="switcher">
        <span className="visually-hidden">Workspace</span>
        <select value={workspaceId ?? ''} onChange={(e) => e.target.value && navigate(`/w/${e.target.value}`)} disabled={!workspaces.data?.length}>
          {!workspaceId && <option value="">Choose a workspace</option>}
          {workspaces.data?.map((w) => (
            <option key={w.id} value={w.id}>
              {w.name}
            </option>
          ))}
        </select>
      </label>
      {title && <h1 className="page-title">{title}</h1>}
      <div className="topbar-actions">
        {/* Without a workspace in the path, search the first one. */}
        <SearchButton workspaceId={workspaceId ?? workspaces.data?.[0]?.id ?? null} />
        <NotificationBell workspaceId={workspaceId} />
        {session.data && (
          <a
            href="/account"
            className="account-link"
            aria-label={`Your account: ${session.data.user.name}`}
            onClick={(e) => {
              e.preventDefault();
              navigate('/account');
            }}
          >
            {session.data.user.name}
          </a>
        )}
        <button type="button" className="link" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
          Sign out
        </button>
      </div>
    </header>
  );
}
