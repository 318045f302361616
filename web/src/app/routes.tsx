import { createRootRoute, createRoute, createRouter, Outlet, RouterProvider, useParams } from '@tanstack/react-router';
import { lazy, Suspense, useEffect, type ComponentType, type ReactNode } from 'react';
import { ApiError } from '../api/client';
import { t } from '../i18n';
import { useSession } from '../api/session';
import { parseFilters } from '../board/filters';
import { ErrorState, Loading } from '../ui/States';
import { history, navigate, nextPath, usePath, withNext } from './router';

/**
 * The app's routes (TanStack Router, docs/web.md "How the code is laid out"). Every page is its own
 * chunk, loaded when its route is first opened; the board and list keep their filters in typed search parameters.
 */
function page<P extends object>(load: () => Promise<Record<string, unknown>>, name: string) {
  return lazy(async () => ({ default: (await load())[name] as ComponentType<P> }));
}
const AuthPage = page<{ mode: 'sign-in' | 'sign-up' }>(() => import('../account/AuthPage'), 'AuthPage');
const AccountPage = page<{ user: { id: string; name: string; email: string } }>(() => import('../account/AccountPage'), 'AccountPage');
const BoardPage = page<{ workspaceId: string; projectId: string; taskId: string | null; view?: 'board' | 'list' | 'calendar' | 'timeline' }>(
  () => import('../board/BoardPage'),
  'BoardPage',
);
const ProjectSettingsPage = page<{ workspaceId: string; projectId: string }>(() => import('../board/ProjectSettingsPage'), 'ProjectSettingsPage');
const IntegrationsPage = page<{ workspaceId: string; projectId: string }>(() => import('../integrations/IntegrationsPage'), 'IntegrationsPage');
const PeoplePage = page<{ workspaceId: string }>(() => import('../people/PeoplePage'), 'PeoplePage');
const WorkspacePage = page<{ workspaceId: string }>(() => import('../workspace/WorkspacePage'), 'WorkspacePage');
const HomePage = page<object>(() => import('../workspace/HomePage'), 'HomePage');
const MyWorkPage = page<{ workspaceId: string }>(() => import('../mywork/MyWorkPage'), 'MyWorkPage');
const TaskLinkPage = page<{ projectId: string; taskId: string }>(() => import('../task/TaskLinkPage'), 'TaskLinkPage');
const NotificationPrefsPage = page<object>(() => import('../notifications/NotificationPrefsPage'), 'NotificationPrefsPage');
const VerifyEmailPage = page<object>(() => import('../account/EmailLinkPages'), 'VerifyEmailPage');
const ResetPasswordPage = page<object>(() => import('../account/EmailLinkPages'), 'ResetPasswordPage');
const ForgotPasswordPage = page<object>(() => import('../account/EmailLinkPages'), 'ForgotPasswordPage');
const AcceptInvitationPage = page<{ invitationId: string }>(() => import('../account/EmailLinkPages'), 'AcceptInvitationPage');

/** Pages that need no session: those the emails link to (docs/accounts.md, "Emails") and asking for a reset. */
const PUBLIC_PAGES = ['/verify-email', '/reset-password', '/forgot-password'];

/** Every page: signed-out visitors are sent to sign in (and back afterwards); the page itself loads on demand. */
function Root() {
  const path = usePath();
  const session = useSession();
  const signedOutPage = path === '/sign-in' || path === '/sign-up';
  const publicPage = PUBLIC_PAGES.includes(path);
  useEffect(() => {
    if (session.data === null && !signedOutPage && !publicPage) navigate(withNext('/sign-in', path + window.location.search), true);
    if (session.data && signedOutPage) navigate(nextPath(), true);
  }, [session.data, signedOutPage, publicPage, path]);

  let body = <Outlet />;
  if (!publicPage) {
    if (session.isPending) body = <Loading what={t('common.loadingWhat.session')} />;
    else if (session.error) body = <ErrorState error={session.error} />;
    else if (!session.data) body = <AuthPage mode={path === '/sign-up' ? 'sign-up' : 'sign-in'} />;
  }
  return <Suspense fallback={<Loading what={t('common.loadingWhat.page')} />}>{body}</Suspense>;
}

const rootRoute = createRootRoute({ component: Root, notFoundComponent: () => <ErrorState error={new ApiError(404, t('common.pageNotFound'))} /> });
const route = (path: string, component: () => ReactNode) => createRoute({ getParentRoute: () => rootRoute, path, component });
const params = () => useParams({ strict: false }) as Record<string, string>;
const filtersSearch = (search: Record<string, unknown>) => parseFilters(search);

function SignedInUser() {
  const session = useSession();
  return session.data ? <AccountPage user={session.data.user} /> : null;
}

/**
 * A view of a project's tasks (the board, the list, the calendar) at `/w/…/p/…` plus `suffix`, with
 * the filters in its search parameters, and the open task as its child, so that opening and
 * closing a task keeps the view as it is.
 */
function projectView(view: 'board' | 'list' | 'calendar' | 'timeline', suffix: string) {
  const viewRoute = createRoute({
    getParentRoute: () => rootRoute,
    path: `/w/$workspaceId/p/$projectId${suffix}`,
    validateSearch: filtersSearch,
    component: function ProjectView() {
      const p = params();
      return <BoardPage workspaceId={p.workspaceId!} projectId={p.projectId!} taskId={p.taskId ?? null} view={view} />;
    },
  });
  return viewRoute.addChildren([createRoute({ getParentRoute: () => viewRoute, path: 't/$taskId', component: () => null })]);
}

const routeTree = rootRoute.addChildren([
  route('/', () => <HomePage />),
  route('/sign-in', () => null),
  route('/sign-up', () => null),
  route('/verify-email', () => <VerifyEmailPage />),
  route('/reset-password', () => <ResetPasswordPage />),
  route('/forgot-password', () => <ForgotPasswordPage />),
  route('/account', SignedInUser),
  // The notification emails link to CLIENT_URL/settings/notifications (docs/notifications.md, "What each channel receives").
  route('/account/notifications', () => <NotificationPrefsPage />),
  route('/settings/notifications', () => <NotificationPrefsPage />),
  route('/w/$workspaceId', () => <WorkspacePage workspaceId={params().workspaceId!} />),
  route('/w/$workspaceId/members', () => <PeoplePage workspaceId={params().workspaceId!} />),
  route('/w/$workspaceId/my-work', () => <MyWorkPage workspaceId={params().workspaceId!} />),
  projectView('board', ''),
  projectView('list', '/list'),
  projectView('calendar', '/calendar'),
  projectView('timeline', '/timeline'),
  route('/w/$workspaceId/p/$projectId/integrations', () => <IntegrationsPage workspaceId={params().workspaceId!} projectId={params().projectId!} />),
  route('/w/$workspaceId/p/$projectId/settings', () => <ProjectSettingsPage workspaceId={params().workspaceId!} projectId={params().projectId!} />),
  // The invitation email links to CLIENT_URL/invitation/accept/<id> (docs/decisions-local.md, "Email worker").
  route('/invitation/accept/$invitationId', () => <AcceptInvitationPage invitationId={params().invitationId!} />),
  // Integration messages and notification emails link a task as CLIENT_URL/projects/<id>/tasks/<id> (docs/integrations.md).
  route('/projects/$projectId/tasks/$taskId', () => <TaskLinkPage projectId={params().projectId!} taskId={params().taskId!} />),
]);

export const router = createRouter({ routeTree, history, defaultPreload: 'intent', scrollRestoration: true });

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

export function App() {
  return <RouterProvider router={router} />;
}
