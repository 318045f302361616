import { useEffect } from 'react';
import { ApiError } from '../api/client';
import { ErrorState, Loading } from '../ui/States';
import { AccountPage } from '../account/AccountPage';
import { AuthPage } from '../account/AuthPage';
import { BoardPage } from '../board/BoardPage';
import { AcceptInvitationPage, ForgotPasswordPage, ResetPasswordPage, VerifyEmailPage } from '../account/EmailLinkPages';
import { HomePage } from '../workspace/HomePage';
import { TaskLinkPage } from '../task/TaskLinkPage';
import { NotificationPrefsPage } from '../notifications/NotificationPrefsPage';
import { PeoplePage } from '../people/PeoplePage';
import { IntegrationsPage } from '../integrations/IntegrationsPage';
import { ProjectSettingsPage } from '../board/ProjectSettingsPage';
import { WorkspacePage } from '../workspace/WorkspacePage';
import { match, navigate, nextPath, usePath, withNext } from './router';
import { useSession } from '../api/session';

/** Pages that need no session: those the emails link to (docs/accounts.md, "Emails") and asking for a reset. */
const PUBLIC_PAGES = ['/verify-email', '/reset-password', '/forgot-password'];

export function App() {
  const path = usePath();
  const session = useSession();
  const signedOutPage = path === '/sign-in' || path === '/sign-up';
  const publicPage = PUBLIC_PAGES.includes(path);

  useEffect(() => {
    if (session.data === null && !signedOutPage && !publicPage) navigate(withNext('/sign-in', path + window.location.search), true);
    if (session.data && signedOutPage) navigate(nextPath(), true);
  }, [session.data, signedOutPage, publicPage, path]);

  if (path === '/verify-email') return <VerifyEmailPage />;
  if (path === '/reset-password') return <ResetPasswordPage />;
  if (path === '/forgot-password') return <ForgotPasswordPage />;
  if (session.isPending) return <Loading what="your session" />;
  if (session.error) return <ErrorState error={session.error} />;
  if (!session.data) return <AuthPage mode={path === '/sign-up' ? 'sign-up' : 'sign-in'} />;

  const list = match('/w/:workspaceId/p/:projectId/list', path);
  if (list) return <BoardPage workspaceId={list.workspaceId!} projectId={list.projectId!} taskId={null} view="list" />;
  const integrations = match('/w/:workspaceId/p/:projectId/integrations', path);
  if (integrations) return <IntegrationsPage workspaceId={integrations.workspaceId!} projectId={integrations.projectId!} />;
  const settings = match('/w/:workspaceId/p/:projectId/settings', path);
  if (settings) return <ProjectSettingsPage workspaceId={settings.workspaceId!} projectId={settings.projectId!} />;
  const board = match('/w/:workspaceId/p/:projectId', path) ?? match('/w/:workspaceId/p/:projectId/t/:taskId', path);
  if (board) return <BoardPage workspaceId={board.workspaceId!} projectId={board.projectId!} taskId={board.taskId ?? null} />;
  const people = match('/w/:workspaceId/members', path);
  if (people) return <PeoplePage workspaceId={people.workspaceId!} />;
  const workspace = match('/w/:workspaceId', path);
  if (workspace) return <WorkspacePage workspaceId={workspace.workspaceId!} />;
  // The invitation email links to CLIENT_URL/invitation/accept/<id> (docs/decisions-local.md, "Email worker").
  const invitation = match('/invitation/accept/:invitationId', path);
  if (invitation) return <AcceptInvitationPage invitationId={invitation.invitationId!} />;
  // Integration messages and notification emails link a task as CLIENT_URL/projects/<id>/tasks/<id> (docs/integrations.md).
  const taskLink = match('/projects/:projectId/tasks/:taskId', path);
  if (taskLink) return <TaskLinkPage projectId={taskLink.projectId!} taskId={taskLink.taskId!} />;
  // The notification emails link to CLIENT_URL/settings/notifications (docs/notifications.md, "What each channel receives").
  if (path === '/account/notifications' || path === '/settings/notifications') return <NotificationPrefsPage />;
  if (path === '/account') return <AccountPage user={session.data.user} />;
  if (path === '/') return <HomePage />;
  return <ErrorState error={new ApiError(404, 'Page not found')} />;
}
