import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';

const TASK_EVENTS = [
  'task.created',
  'task.status_changed',
  'task.priority_changed',
  'task.title_changed',
  'task.description_changed',
  'task.comment_created',
  'task.assigned',
  'task.time_entry_created',
];

/**
 * Follows the workspace's live events (GET /api/events, docs/live-events.md): a task event makes
 * the views of its project and task fetch again; a notification, the bell; after a lost
 * connection (the browser reconnects by itself) or a `reset`, everything is fetched again.
 */
export function useLiveEvents(workspaceId: string): 'connecting' | 'live' | 'offline' {
  const queryClient = useQueryClient();
  const [state, setState] = useState<'connecting' | 'live' | 'offline'>('connecting');
  useEffect(() => {
    const source = new EventSource(`/api/events?workspaceId=${encodeURIComponent(workspaceId)}`, { withCredentials: true });
    let wasOpen = false;
    source.onopen = () => {
      setState('live');
      // Back after a lost connection: what changed meanwhile may be past the resume window.
      if (wasOpen) void queryClient.invalidateQueries();
      wasOpen = true;
    };
    source.onerror = () => setState(source.readyState === EventSource.CLOSED ? 'offline' : 'connecting');
    const onTask = (e: MessageEvent<string>) => {
      const event = JSON.parse(e.data) as { project?: { id?: string }; task?: { id?: string } };
      void queryClient.invalidateQueries({ queryKey: ['tasks', event.project?.id] });
      if (event.task?.id) void queryClient.invalidateQueries({ queryKey: ['task', event.task.id] });
    };
    for (const name of TASK_EVENTS) source.addEventListener(name, onTask);
    source.addEventListener('notification', () => void queryClient.invalidateQueries({ queryKey: ['notifications'] }));
    source.addEventListener('reset', () => void queryClient.invalidateQueries());
    return () => source.close();
  }, [workspaceId, queryClient]);
  return state;
}
