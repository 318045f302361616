import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { api, must } from '../api/client';
import type { Notification } from '../api/types';
import { useLiveEvents } from '../api/live';
import { navigate } from '../app/router';
import { Empty, ErrorState, Loading } from '../ui/States';
import { AppLink } from '../ui/AppLink';
import { formatDateTime, t } from '../i18n';

/** Follows the workspace's live events, so that a `notification` event refreshes the bell (docs/live-events.md). */
function FollowLive({ workspaceId }: { workspaceId: string }) {
  useLiveEvents(workspaceId);
  return null;
}

/**
 * The bell of the top bar: the caller's unread count, and a panel with their in-app notifications
 * (docs/notifications.md, "In-app notifications"): open one (its task), mark it read, mark all read.
 * Count and list are under the query key ['notifications'], which a live `notification` event refreshes.
 */
export function NotificationBell({ workspaceId }: { workspaceId: string | null }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const bell = useRef<HTMLButtonElement>(null);
  const wrapper = useRef<HTMLDivElement>(null);
  const count = useQuery({
    queryKey: ['notifications', 'unread-count'],
    queryFn: async () => must(await api.GET('/api/notification/unread-count')).count,
  });

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      // The search dialog, when open over it, has its own Escape.
      if (e.key !== 'Escape' || document.querySelector('dialog[open]')) return;
      e.stopPropagation();
      setOpen(false);
      bell.current?.focus();
    };
    const onPointer = (e: PointerEvent) => {
      if (!wrapper.current?.contains(e.target as Node)) setOpen(false);
    };
    // Captured, so that the task panel's own Escape does not close it too.
    window.addEventListener('keydown', onKey, true);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);

  const unread = count.data ?? 0;
  const name = count.data === undefined ? t('integrations.notifications.bell') : t('integrations.notifications.bellUnread', { count: unread });
  return (
    <div className="bell" ref={wrapper}>
      {workspaceId && <FollowLive workspaceId={workspaceId} />}
      <button type="button" ref={bell} className="bell-button" aria-label={name} aria-expanded={open} aria-controls={`${id}-panel`} onClick={() => setOpen((o) => !o)}>
        <svg aria-hidden="true" width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
          <path d="M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9" />
          <path d="M13.7 21a2 2 0 0 1-3.4 0" />
        </svg>
        {unread > 0 && (
          <span className="bell-count" aria-hidden="true">
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </button>
      {open && (
        <NotificationPanel
          id={`${id}-panel`}
          workspaceId={workspaceId}
          unread={unread}
          onOpened={() => {
            setOpen(false);
          }}
        />
      )}
    </div>
  );
}

function NotificationPanel({ id, workspaceId, unread, onOpened }: { id: string; workspaceId: string | null; unread: number; onOpened: () => void }) {
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: ['notifications', 'list'],
    queryFn: async () => must(await api.GET('/api/notification', { params: { query: { limit: 30 } } })),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['notifications'] });
  const markRead = useMutation({
    mutationFn: async (n: Notification) => must(await api.PATCH('/api/notification/{id}/read', { params: { path: { id: n.id } } })),
    onSettled: refresh,
  });
  const markAll = useMutation({
    mutationFn: async () => must(await api.PATCH('/api/notification/read-all')),
    onSettled: refresh,
  });
  const openOne = (n: Notification) => {
    if (!n.isRead) markRead.mutate(n);
    if (n.taskId && n.projectId) navigate(`/w/${n.workspaceId}/p/${n.projectId}/t/${n.taskId}`);
    else navigate(`/w/${n.workspaceId}`);
    onOpened();
  };
  const someUnread = unread > 0 || !!list.data?.some((n) => !n.isRead);

  return (
    <section id={id} className="bell-panel" aria-labelledby={`${id}-h`}>
      <div className="bell-head">
        <h2 id={`${id}-h`}>{t('integrations.notifications.notifications')}</h2>
        <button type="button" className="link" onClick={() => markAll.mutate()} disabled={markAll.isPending || !someUnread}>
          {t('integrations.notifications.markAllRead')}
        </button>
      </div>
      {/* What is assigned to you, by due date: the page the notifications are mostly about. */}
      {workspaceId && (
        <AppLink to={`/w/${workspaceId}/my-work`} className="bell-my-work" onClick={onOpened}>
          {t('integrations.notifications.myWorkYourTasksBy')}
        </AppLink>
      )}
      {list.isPending && <Loading what={t('integrations.notifications.notifications2')} />}
      {list.error && <ErrorState error={list.error} />}
      {(markRead.error ?? markAll.error) && <ErrorState error={markRead.error ?? markAll.error} />}
      {list.data?.length === 0 && <Empty>{t('integrations.notifications.noNotificationsYet')}</Empty>}
      {list.data && list.data.length > 0 && (
        <ul className="notifications">
          {list.data.map((n) => (
            <li key={n.id} className={n.isRead ? 'read' : 'unread'} data-notification={n.id}>
              <button type="button" className="notification-open" onClick={() => openOne(n)}>
                <span className="visually-hidden">{n.isRead ? t('integrations.notifications.read') : t('integrations.notifications.unread')}</span>
                <strong>{n.title}</strong>
                <span className="notification-content">{n.content}</span>
                <time dateTime={n.createdAt}>{formatDateTime(n.createdAt)}</time>
              </button>
              {!n.isRead && (
                <button
                  type="button"
                  className="link"
                  onClick={() => markRead.mutate(n)}
                  disabled={markRead.isPending}
                  aria-label={t('integrations.notifications.markRead2', { title: n.title })}
                >
                  {t('integrations.notifications.markRead')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
