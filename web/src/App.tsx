import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, ApiError, must } from './api/client';
import { ErrorState, Loading } from './components/States';
import { AuthPage } from './pages/AuthPage';
import { BoardPage } from './pages/BoardPage';
import { HomePage } from './pages/HomePage';
import { WorkspacePage } from './pages/WorkspacePage';
import { match, navigate, usePath } from './router';

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

export function App() {
  const path = usePath();
  const session = useSession();
  const signedOutPage = path === '/sign-in' || path === '/sign-up';

  useEffect(() => {
    if (session.data === null && !signedOutPage) navigate(`/sign-in`, true);
    if (session.data && signedOutPage) navigate('/', true);
  }, [session.data, signedOutPage]);

  if (session.isPending) return <Loading what="your session" />;
  if (session.error) return <ErrorState error={session.error} />;
  if (!session.data) return <AuthPage mode={path === '/sign-up' ? 'sign-up' : 'sign-in'} />;

  const list = match('/w/:workspaceId/p/:projectId/list', path);
  if (list) return <BoardPage workspaceId={list.workspaceId!} projectId={list.projectId!} taskId={null} view="list" />;
  const board = match('/w/:workspaceId/p/:projectId', path) ?? match('/w/:workspaceId/p/:projectId/t/:taskId', path);
  if (board) return <BoardPage workspaceId={board.workspaceId!} projectId={board.projectId!} taskId={board.taskId ?? null} />;
  const workspace = match('/w/:workspaceId', path);
  if (workspace) return <WorkspacePage workspaceId={workspace.workspaceId!} />;
  if (path === '/') return <HomePage />;
  return <ErrorState error={new ApiError(404, 'Page not found')} />;
}
