import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  pointerWithin,
  rectIntersection,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
  type CollisionDetection,
  type DragEndEvent,
} from '@dnd-kit/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  lazy,
  memo,
  Suspense,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEventHandler,
  type MouseEvent,
  type PointerEventHandler,
} from 'react';
import { allPages, api, must } from '../api/client';
import type { CardDetails, Column, Task } from '../api/types';
import { Header } from '../shell/Header';
import { Empty, ErrorState, Loading } from '../ui/States';
import { useLiveEvents } from '../api/live';
import { usePermissions } from '../api/permissions';
import { navigate } from '../app/router';
import { ListView } from './ListView';
import { useCardDetails, useColumns, useMembers, useProject } from '../api/workspace-queries';
import { applyFilters, filtersQuery, useTaskFilters } from './filters';
import { TaskFilterBar } from './TaskFilterBar';
import { initials } from '../ui/avatar';
import { useSelection } from './selection';
import { BulkBar } from './BulkBar';
import { PriorityAndDue } from './TaskChips';
import { CalendarView } from './CalendarView';
import { TimelineView } from './TimelineView';
import { AppLink } from '../ui/AppLink';
import { focusNear } from './card-focus';
import { useBoardKeys, type SelectHow } from './board-keys';
import { t as tr } from '../i18n';

// The task panel (with its Markdown renderer) loads when a task is first opened.
const TaskPanel = lazy(async () => ({ default: (await import('../task/TaskPanel')).TaskPanel }));

/** The column under the pointer (what a person aims at), else the one the card overlaps most (the keyboard has no pointer). */
const columnUnder: CollisionDetection = (args) => {
  const under = pointerWithin(args);
  return under.length ? under : rectIntersection(args);
};

/**
 * Where in `others` (a column's tasks but the dragged one, top to bottom) a card whose middle is at
 * `middleY` goes: before the first card whose middle is below it. Read from the cards' boxes when
 * the card is dropped, so that only the columns are drop targets while dragging (one per column:
 * a target per card made every pointer move re-render the whole board; docs/benchmarks.md).
 */
function indexAt(others: Task[], middleY: number): number {
  const i = others.findIndex((t) => {
    const box = document.querySelector(`[data-task="${t.id}"]`)?.getBoundingClientRect();
    return box !== undefined && box.top + box.height / 2 > middleY;
  });
  return i === -1 ? others.length : i;
}

/** A column's tasks with `task` placed at `index` (taken out of wherever it was). */
function placed(column: Task[], task: Task, index: number): Task[] {
  const rest = column.filter((t) => t.id !== task.id);
  return [...rest.slice(0, index), task, ...rest.slice(index)];
}

/** The pages of a project, as the view switch links them: name, path after the project's, and the view it is (if one). */
const projectPages = (): [string, string, string | null][] => [
  [tr('board.boardPage.page.board'), '', 'board'],
  [tr('board.boardPage.page.list'), '/list', 'list'],
  [tr('board.boardPage.page.calendar'), '/calendar', 'calendar'],
  [tr('board.boardPage.page.timeline'), '/timeline', 'timeline'],
  [tr('board.boardPage.page.integrations'), '/integrations', null],
  [tr('board.boardPage.page.settings'), '/settings', null],
];

/** Every task of a project, a page of 100 at a time (the API's largest). */
function allTasks(projectId: string): Promise<Task[]> {
  return allPages(async (page) =>
    must(await api.GET('/api/task/tasks/{projectId}', { params: { path: { projectId }, query: { page, limit: 100, sortBy: 'position', sortOrder: 'asc' } } })),
  );
}

/** The board: the project's columns with their tasks; drag a task to another column, or create one in a column. */
export function BoardPage({
  workspaceId,
  projectId,
  taskId,
  view = 'board',
}: {
  workspaceId: string;
  projectId: string;
  taskId: string | null;
  view?: 'board' | 'list' | 'calendar' | 'timeline';
}) {
  const queryClient = useQueryClient();
  const live = useLiveEvents(workspaceId);
  const can = usePermissions(workspaceId);
  const project = useProject(projectId);
  const columns = useColumns(projectId);
  const tasks = useQuery({ queryKey: ['tasks', projectId], queryFn: () => allTasks(projectId) });
  const [moveError, setMoveError] = useState<unknown>(null);
  const filters = useTaskFilters();
  const members = useMembers(workspaceId);
  const details = useCardDetails(projectId);
  const detailsOf = useMemo(() => new Map(details.data?.map((d) => [d.taskId, d])), [details.data]);
  const nameOf = useMemo(() => new Map(members.data?.map((m) => [m.userId, m.user?.name ?? ''])), [members.data]);
  // Archived tasks have their own list, on the project's settings page (ArchivedTasks.tsx).
  const active = useMemo(() => (tasks.data ?? []).filter((t) => t.status !== 'archived'), [tasks.data]);
  const shown = useMemo(() => applyFilters(active, filters, (id) => detailsOf.get(id)?.labels.map((l) => l.name) ?? []), [active, filters, detailsOf]);
  const basePath = view === 'board' ? `/w/${workspaceId}/p/${projectId}` : `/w/${workspaceId}/p/${projectId}/${view}`;
  const search = filtersQuery(filters);
  const open = useCallback((t: Task) => navigate(`${basePath}/t/${t.id}${search}`), [basePath, search]);
  // What a shift-click selects a run of: the tasks in the order they are shown (column by column on the board).
  const order = useMemo(
    () => (view === 'list' ? shown : (columns.data ?? []).flatMap((c) => shown.filter((t) => t.status === c.slug))).map((t) => t.id),
    [view, shown, columns.data],
  );
  const selection = useSelection(order);
  const { toggle, extendTo } = selection;
  const select = useCallback((id: string, how: SelectHow) => (how === 'range' ? extendTo(id) : toggle(id)), [toggle, extendTo]);
  const selectedTasks = useMemo(() => {
    const byId = new Map(active.map((t) => [t.id, t]));
    return selection.ids.flatMap((id) => byId.get(id) ?? []);
  }, [active, selection.ids]);
  useBoardKeys({ selection, openTaskId: taskId, onOpen: (id) => navigate(`${basePath}/t/${id}${search}`) });
  // The task the panel shows and the order around it, kept while it is shown there (card-focus.ts).
  const opened = useRef<{ id: string; order: string[] } | null>(null);
  useEffect(() => {
    if (taskId && (opened.current?.id !== taskId || order.includes(taskId))) opened.current = { id: taskId, order };
  }, [taskId, order]);
  useEffect(() => {
    if (taskId || !opened.current) return;
    const { id, order: around } = opened.current;
    opened.current = null;
    // Only when the focus went down with the panel (not when it was put elsewhere on purpose).
    if (!document.activeElement || document.activeElement === document.body) focusNear(id, around);
  }, [taskId]);

  const move = useMutation({
    // Keyed so the live stream can leave the board alone while a move is on its way (web/src/live.ts).
    mutationKey: ['move', projectId],
    // A change of column, then (unless the task goes last) the destination's order; within a column, its order only.
    mutationFn: async ({ task, status, order }: { task: Task; status: string; order: string[] | null }) => {
      if (status !== task.status) must(await api.PUT('/api/task/status/{id}', { params: { path: { id: task.id } }, body: { status } }));
      if (order) must(await api.PUT('/api/task/reorder/{projectId}', { params: { path: { projectId } }, body: { status, taskIds: order } }));
    },
    // Optimistic: the card moves at once, and goes back with the API's message if the change is refused.
    onMutate: async ({ task, status, order }) => {
      setMoveError(null);
      await queryClient.cancelQueries({ queryKey: ['tasks', projectId] });
      const before = queryClient.getQueryData<Task[]>(['tasks', projectId]);
      const at = new Map((order ?? []).map((id, i) => [id, i]));
      queryClient.setQueryData<Task[]>(['tasks', projectId], (list) => {
        if (!list) return list;
        const end = Math.max(-1, ...list.filter((t) => t.status === status).map((t) => t.position)) + 1;
        const next = list.map((t) => {
          const position = at.get(t.id);
          if (t.id === task.id) return { ...t, status, position: position ?? end };
          return position === undefined ? t : { ...t, position };
        });
        return next.sort((a, b) => a.position - b.position || a.number - b.number);
      });
      return { before };
    },
    onError: (err, _vars, ctx) => {
      if (ctx?.before) queryClient.setQueryData(['tasks', projectId], ctx.before);
      setMoveError(err);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['tasks', projectId] }),
  });

  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 5 } }), useSensor(KeyboardSensor));
  const onDragEnd = (e: DragEndEvent) => {
    const list = tasks.data ?? [];
    const task = list.find((t) => t.id === e.active.id);
    if (!task || !e.over) return;
    const status = String(e.over.id);
    const column = list.filter((t) => t.status === status);
    const others = column.filter((t) => t.id !== task.id);
    // Before the first card whose middle is below the dragged card's middle; at the end without one.
    const dragged = e.active.rect.current.translated;
    const index = dragged ? indexAt(others, dragged.top + dragged.height / 2) : others.length;
    const next = placed(column, task, index).map((t) => t.id);
    // A change of column to its end needs no order (the API puts it there); within a column, only a new order.
    const order = (status !== task.status && index === others.length) || next.join() === column.map((t) => t.id).join() ? null : next;
    if (status !== task.status || order) move.mutate({ task, status, order });
  };

  const loading = project.isPending || columns.isPending || tasks.isPending;
  const error = project.error ?? columns.error ?? tasks.error;
  return (
    <>
      <Header workspaceId={workspaceId} title={project.data?.name} />
      <main id="main" tabIndex={-1} className="board-page">
        <div className="board-bar">
          <span className={`live ${live}`} aria-live="polite">
            {live === 'live' ? tr('board.boardPage.live') : live === 'connecting' ? tr('board.boardPage.connecting') : tr('board.boardPage.offline')}
          </span>
          <nav className="view-switch" aria-label={tr('board.boardPage.view')}>
            {projectPages().map(([name, suffix, pageView]) => (
              <AppLink key={name} to={`/w/${workspaceId}/p/${projectId}${suffix}`} aria-current={pageView === view ? 'page' : undefined}>
                {name}
              </AppLink>
            ))}
          </nav>
        </div>
        {loading && <Loading what={tr('board.boardPage.theBoard')} />}
        {error && <ErrorState error={error} />}
        {moveError !== null && <ErrorState error={moveError} />}
        {columns.data && tasks.data && (
          <TaskFilterBar
            workspaceId={workspaceId}
            projectId={projectId}
            basePath={basePath}
            filters={filters}
            columns={view === 'list' ? columns.data : undefined}
            shown={shown.length}
            total={active.length}
          />
        )}
        {view === 'list' && columns.data && tasks.data && project.data && (
          <>
            {can('task', 'create') && columns.data[0] && <QuickCreate projectId={projectId} status={columns.data[0].slug} columnName={columns.data[0].name} />}
            <ListView
              workspaceId={workspaceId}
              shown={shown}
              columns={columns.data}
              projectSlug={project.data.slug}
              onOpen={open}
              isSelected={selection.has}
              onSelect={select}
              onSelectAll={(all) => (all ? selection.add(order) : selection.clear())}
            />
          </>
        )}
        {view === 'timeline' && tasks.data && project.data && (
          <TimelineView projectId={projectId} projectSlug={project.data.slug} basePath={basePath} filters={filters} tasks={shown} canMove={can('task', 'update')} onOpen={open} />
        )}
        {view === 'calendar' && columns.data && tasks.data && project.data && (
          <CalendarView
            workspaceId={workspaceId}
            projectId={projectId}
            projectSlug={project.data.slug}
            basePath={basePath}
            filters={filters}
            tasks={shown}
            firstStatus={columns.data[0]?.slug}
            canCreate={can('task', 'create')}
            canMove={can('task', 'update')}
            onOpen={open}
          />
        )}
        {view === 'board' && columns.data && tasks.data && project.data && (
          <DndContext sensors={sensors} collisionDetection={columnUnder} onDragEnd={onDragEnd} accessibility={{ announcements: announcements(columns.data, tasks.data) }}>
            <div className={`board${selection.ids.length > 0 ? ' selecting' : ''}`} role="list" aria-label={tr('board.boardPage.columns')}>
              {columns.data.map((c) => (
                <BoardColumn
                  key={c.id}
                  column={c}
                  projectId={projectId}
                  projectSlug={project.data.slug}
                  tasks={shown.filter((t) => t.status === c.slug)}
                  canCreate={can('task', 'create')}
                  canMove={can('task', 'update')}
                  detailsOf={detailsOf}
                  nameOf={nameOf}
                  onOpen={open}
                  isSelected={selection.has}
                  onSelect={select}
                />
              ))}
            </div>
          </DndContext>
        )}
        {selectedTasks.length > 0 && columns.data && (
          <BulkBar workspaceId={workspaceId} projectId={projectId} selected={selectedTasks} columns={columns.data} detailsOf={detailsOf} onClear={selection.clear} />
        )}
        {taskId && (
          <Suspense fallback={<Loading what={tr('board.boardPage.loadingWhat.task')} />}>
            <TaskPanel
              workspaceId={workspaceId}
              projectId={projectId}
              taskId={taskId}
              projectSlug={project.data?.slug ?? ''}
              columns={columns.data ?? []}
              onClose={() => navigate(basePath + search)}
            />
          </Suspense>
        )}
      </main>
    </>
  );
}

function announcements(columns: Column[], tasks: Task[]) {
  const title = (id: string | number) => tasks.find((t) => t.id === id)?.title ?? tr('board.boardPage.dnd.task');
  const column = (id: string | number | undefined) => columns.find((c) => c.slug === id)?.name ?? tr('board.boardPage.dnd.noColumn');
  return {
    onDragStart: ({ active }: { active: { id: string | number } }) => tr('board.boardPage.dnd.start', { title: title(active.id) }),
    onDragOver: ({ active, over }: { active: { id: string | number }; over: { id: string | number } | null }) =>
      tr('board.boardPage.dnd.over', { title: title(active.id), column: column(over?.id) }),
    onDragEnd: ({ active, over }: { active: { id: string | number }; over: { id: string | number } | null }) =>
      tr('board.boardPage.dnd.end', { title: title(active.id), column: column(over?.id) }),
    onDragCancel: ({ active }: { active: { id: string | number } }) => tr('board.boardPage.dnd.cancel', { title: title(active.id) }),
  };
}

function BoardColumn(props: {
  column: Column;
  projectId: string;
  projectSlug: string;
  tasks: Task[];
  canCreate: boolean;
  canMove: boolean;
  detailsOf: Map<string, CardDetails>;
  nameOf: Map<string, string>;
  onOpen: (t: Task) => void;
  isSelected: (id: string) => boolean;
  onSelect: (id: string, how: SelectHow) => void;
}) {
  const { column, tasks } = props;
  const { setNodeRef, isOver } = useDroppable({ id: column.slug });
  return (
    <section ref={setNodeRef} className={`column${isOver ? ' over' : ''}`} role="listitem" aria-labelledby={`col-${column.id}`} data-column={column.slug}>
      <h2 id={`col-${column.id}`}>
        {column.name} <span className="count">{tasks.length}</span>
      </h2>
      {tasks.length === 0 && <Empty>{tr('board.boardPage.noTasks')}</Empty>}
      <ul className="cards" aria-label={tr('board.boardPage.tasks', { name: column.name })}>
        {tasks.map((t) => (
          <TaskCard
            key={t.id}
            task={t}
            projectSlug={props.projectSlug}
            canMove={props.canMove}
            details={props.detailsOf.get(t.id)}
            assignee={t.userId ? (props.nameOf.get(t.userId) ?? '') : null}
            onOpen={props.onOpen}
            selected={props.isSelected(t.id)}
            onSelect={props.onSelect}
          />
        ))}
      </ul>
      {props.canCreate && <QuickCreate projectId={props.projectId} status={column.slug} columnName={column.name} />}
    </section>
  );
}

/**
 * A card: key and title, then what a glance needs (priority, due date, labels, subtasks, blockers,
 * comments, the assignee). Dragged by the whole card with a pointer, by its handle from the keyboard.
 */
const TaskCard = memo(function TaskCard(props: {
  task: Task;
  projectSlug: string;
  canMove: boolean;
  details: CardDetails | undefined;
  assignee: string | null;
  onOpen: (t: Task) => void;
  selected: boolean;
  onSelect: (id: string, how: SelectHow) => void;
}) {
  const { task } = props;
  const taskKey = `${props.projectSlug}-${task.number}`;
  // useDraggable follows the drag's context: every card renders again when the card under the
  // pointer changes column, so what it draws is a memoised part that only its own props change.
  const { attributes, listeners, setNodeRef, transform, isDragging } = useDraggable({ id: task.id, disabled: !props.canMove });
  const style = transform ? { transform: `translate(${transform.x}px, ${transform.y}px)` } : undefined;
  return (
    <li
      ref={setNodeRef}
      style={style}
      className={`card${isDragging ? ' dragging' : ''}${props.selected ? ' selected' : ''}`}
      data-task={task.id}
      onPointerDown={props.canMove ? (listeners?.onPointerDown as PointerEventHandler<HTMLLIElement> | undefined) : undefined}
    >
      <CardBody task={task} taskKey={taskKey} details={props.details} assignee={props.assignee} onOpen={props.onOpen} onSelect={props.onSelect} />
      <input
        type="checkbox"
        className="select-task"
        checked={props.selected}
        aria-label={tr('board.boardPage.select', { taskKey })}
        onClick={(e) => props.onSelect(task.id, e.shiftKey ? 'range' : 'toggle')}
        onChange={() => undefined}
      />
      {props.canMove && (
        <button
          type="button"
          className="handle"
          aria-label={tr('board.boardPage.move', { title: task.title })}
          {...attributes}
          onKeyDown={listeners?.onKeyDown as KeyboardEventHandler<HTMLButtonElement> | undefined}
        >
          ⠿
        </button>
      )}
    </li>
  );
});

/** What a card shows: the button that opens the task, and the chips. */
const CardBody = memo(function CardBody(props: {
  task: Task;
  taskKey: string;
  details: CardDetails | undefined;
  assignee: string | null;
  onOpen: (t: Task) => void;
  onSelect: (id: string, how: SelectHow) => void;
}) {
  const { task, taskKey, details, assignee } = props;
  // Shift-click selects a run, Ctrl- or ⌘-click one more; a plain click opens the task.
  const onClick = (e: MouseEvent) => {
    if (e.shiftKey) props.onSelect(task.id, 'range');
    else if (e.ctrlKey || e.metaKey) props.onSelect(task.id, 'toggle');
    else props.onOpen(task);
  };
  return (
    <div className="card-body">
      <button type="button" className="card-open" data-task-open onClick={onClick}>
        <span className="key">{taskKey}</span> <span className="card-title">{task.title}</span>
      </button>
      <div className="card-meta">
        <PriorityAndDue task={task} />
        {details?.labels.map((l) => (
          <span key={l.name} className="chip label-chip">
            <span className="dot" style={{ background: l.color }} aria-hidden="true" />
            {l.name}
          </span>
        ))}
        {details && details.subtasks.total > 0 && (
          <span className="chip" aria-label={tr('board.boardPage.ofSubtasksDone', { done: details.subtasks.done, total: details.subtasks.total })}>
            <CheckIcon /> {details.subtasks.done}/{details.subtasks.total}
          </span>
        )}
        {details && details.blockedBy > 0 && (
          <span className="chip blocked">
            {tr('board.boardPage.blockedBy')} {details.blockedBy}
          </span>
        )}
        {details && details.commentCount > 0 && (
          <span className="chip" aria-label={tr('board.boardPage.comments', { count: details.commentCount })}>
            <CommentIcon /> {details.commentCount}
          </span>
        )}
        {details && details.attachmentCount > 0 && (
          <span className="chip" aria-label={tr('board.boardPage.attachments', { count: details.attachmentCount })}>
            <ClipIcon /> {details.attachmentCount}
          </span>
        )}
        {assignee !== null && (
          <span className="avatar card-avatar" role="img" aria-label={tr('board.boardPage.assignedTo', { name: assignee || tr('board.boardPage.aFormerMember') })} title={assignee}>
            {initials(assignee)}
          </span>
        )}
      </div>
    </div>
  );
});

/** Small line icons of the cards (drawn, so that they show without an emoji font). */
const ClipIcon = () => (
  <svg width="12" height="12" viewBox="0 0 16 16" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round">
    <path d="M10.5 4.5 5.6 9.4a1.6 1.6 0 0 0 2.3 2.3l5-5a3 3 0 0 0-4.3-4.3l-5 5a4.4 4.4 0 0 0 6.2 6.2l4.2-4.2" />
  </svg>
);

const CommentIcon = () => (
  <svg width="12" height="12" viewBox="0 0 16 16" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.6">
    <path d="M2 3h12v8H6l-3 3v-3H2z" strokeLinejoin="round" />
  </svg>
);
const CheckIcon = () => (
  <svg width="12" height="12" viewBox="0 0 16 16" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.6">
    <rect x="2" y="2" width="12" height="12" rx="2" />
    <path d="M5 8l2 2 4-4" strokeLinecap="round" strokeLinejoin="round" />
  </svg>
);

function QuickCreate({ projectId, status, columnName }: { projectId: string; status: string; columnName: string }) {
  const queryClient = useQueryClient();
  const [title, setTitle] = useState('');
  const create = useMutation({
    mutationFn: async () => must(await api.POST('/api/task/{projectId}', { params: { path: { projectId } }, body: { title, status } })),
    onSuccess: async () => {
      setTitle('');
      await queryClient.invalidateQueries({ queryKey: ['tasks', projectId] });
    },
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (title.trim()) create.mutate();
  };
  return (
    <form onSubmit={onSubmit} className="quick-create">
      <label className="visually-hidden" htmlFor={`new-${status}`}>
        {tr('board.boardPage.newTaskIn')} {columnName}
      </label>
      <input id={`new-${status}`} value={title} onChange={(e) => setTitle(e.target.value)} placeholder={tr('board.boardPage.addATask')} />
      <button type="submit" disabled={create.isPending || !title.trim()} aria-label={tr('board.boardPage.addTaskTo', { columnName })}>
        {tr('board.boardPage.add')}
      </button>
      {create.error && <ErrorState error={create.error} />}
    </form>
  );
}
