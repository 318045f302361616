import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';

const TASK_EVENTS = [
  'task.created',
  'task.status_changed',
  'task.priority_changed',
  'task.title_changed',
  'task.description_changed',
  'task.comment_created',
  'task.assigned',
  'task.unassigned',
  'task.due_date_changed',
  'task.moved',
  'task.deleted',
  'task.time_entry_created',
];

type LiveState = 'connecting' | 'live' | 'offline';
interface Connection {
  source: EventSource;
  state: LiveState;
  watchers: Set<(state: LiveState) => void>;
}

/** One stream per workspace, shared by every component that follows it (the board and the bell). */
const connections = new Map<string, Connection>();

function connect(workspaceId: string, queryClient: QueryClient): Connection {
  const source = new EventSource(`/api/events?workspaceId=${encodeURIComponent(workspaceId)}`, { withCredentials: true });
  const conn: Connection = { source, state: 'connecting', watchers: new Set() };
  const set = (state: LiveState) => {
    conn.state = state;
    for (const watch of conn.watchers) watch(state);
  };
  let wasOpen = false;
  source.onopen = () => {
    set('live');
    // Back after a lost connection: what changed meanwhile may be past the resume window.
    if (wasOpen) void queryClient.invalidateQueries();
    wasOpen = true;
  };
  source.onerror = () => set(source.readyState === EventSource.CLOSED ? 'offline' : 'connecting');
  // Only the ids of an entry are read: its texts may be cut (`truncated`, docs/live-events.md),
  // so what the views show is fetched again from the API, in full. Answers the entry's project.
  const refetchViews = (e: MessageEvent<string>) => {
    const entry = JSON.parse(e.data) as { project?: { id?: string }; task?: { id?: string }; data?: { sourceProjectId?: string } };
    const projectId = entry.project?.id;
    // A task moved here left the board of its former project.
    if (entry.data?.sourceProjectId) void queryClient.invalidateQueries({ queryKey: ['tasks', entry.data.sourceProjectId] });
    // While a drag's change is on its way the board shows it already; fetching now could answer the
    // state before it and put the card back for a moment. The move fetches the board when it settles.
    if (queryClient.isMutating({ mutationKey: ['move', projectId] }) === 0) void queryClient.invalidateQueries({ queryKey: ['tasks', projectId] });
    if (entry.task?.id) void queryClient.invalidateQueries({ queryKey: ['task', entry.task.id] });
    // My work lists tasks of every project of the workspace.
    void queryClient.invalidateQueries({ queryKey: ['my-work', workspaceId] });
    return projectId;
  };
  // A deleted task is not fetched again (it would answer 404): what was read of it is dropped, its project's views fetch again.
  const onDeleted = (e: MessageEvent<string>) => {
    const entry = JSON.parse(e.data) as { project?: { id?: string }; task?: { id?: string } };
    if (entry.task?.id) {
      queryClient.removeQueries({ queryKey: ['task', entry.task.id] });
      queryClient.removeQueries({ queryKey: ['watchers', entry.task.id] });
    }
    void queryClient.invalidateQueries({ queryKey: ['tasks', entry.project?.id] });
    void queryClient.invalidateQueries({ queryKey: ['my-work', workspaceId] });
    void queryClient.invalidateQueries({ queryKey: ['deliveries', entry.project?.id] });
  };
  const onTask = (e: MessageEvent<string>) => {
    const projectId = refetchViews(e);
    // The integrations' deliveries of the event are written a moment after it (docs/integrations.md,
    // "Delivery log"): the delivery logs look again at once and, for a while, often.
    queryClient.setQueryData(['task-event-at', projectId], Date.now());
    void queryClient.invalidateQueries({ queryKey: ['deliveries', projectId] });
  };
  for (const name of TASK_EVENTS) source.addEventListener(name, name === 'task.deleted' ? onDeleted : onTask);
  // The live signals (no task event, nothing delivered): a new order within a column, and a change
  // no event tells of (a start date). The views of the project (and the task) fetch again.
  const onSignal = (e: MessageEvent<string>) => void refetchViews(e);
  source.addEventListener('task.reordered', onSignal);
  source.addEventListener('task.changed', onSignal);
  source.addEventListener('notification', () => void queryClient.invalidateQueries({ queryKey: ['notifications'] }));
  source.addEventListener('reset', () => void queryClient.invalidateQueries());
  return conn;
}

/**
 * Follows the workspace's live events (GET /api/events, docs/live-events.md): a task event makes
 * the views of its project and task (and its delivery logs) fetch again; a reorder, its project's
 * board; a notification, the bell; after a lost
 * connection (the browser reconnects by itself) or a `reset`, everything is fetched again.
 */
export function useLiveEvents(workspaceId: string): LiveState {
  const queryClient = useQueryClient();
  const [state, setState] = useState<LiveState>('connecting');
  useEffect(() => {
    let conn = connections.get(workspaceId);
    if (!conn) {
      conn = connect(workspaceId, queryClient);
      connections.set(workspaceId, conn);
    }
    const mine = conn;
    mine.watchers.add(setState);
    setState(mine.state);
    return () => {
      mine.watchers.delete(setState);
      if (mine.watchers.size === 0) {
        mine.source.close();
        connections.delete(workspaceId);
      }
    };
  }, [workspaceId, queryClient]);
  return state;
}
