import { useQuery } from '@tanstack/react-query';
import { memo, useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { api, must } from '../api/client';
import type { Task } from '../api/types';
import { navigate } from '../app/router';
import { addDays, asDate, daysBetween, midnight, mondayOf, monthName, shortDay, useDateChange, type NewDates } from './dates';
import { dayOf, filtersQuery, type TaskFilters } from './filters';
import { PeriodBar } from './PeriodBar';
import { formatDate, t as tr } from '../i18n';

const ROW = 34;
/** The titles' column: narrower on a phone, so that the days have room beside it. */
const labelWidth = () => (typeof window !== 'undefined' && window.matchMedia('(max-width: 640px)').matches ? 128 : 224);
/** The two scales: days 32 px wide over eight weeks, or 8 px wide over six months. */
const SCALES = {
  weeks: { dayWidth: 32, range: (at: string) => ({ from: addDays(mondayOf(at), -7), days: 56 }) },
  months: {
    dayWidth: 8,
    range: (at: string) => {
      const from = addDays(`${at.slice(0, 7)}-01`, -1).slice(0, 7) + '-01';
      return { from, days: daysBetween(from, addDays(`${addDays(from, 6 * 31).slice(0, 7)}-01`, 0)) };
    },
  },
} as const;

/** Where a task is on the timeline: a bar from its start to its due day, or a marker on its one date. */
function extent(t: Task): { from: string; to: string; kind: 'bar' | 'due' | 'start' } | null {
  const start = t.startDate?.slice(0, 10);
  const due = t.dueDate?.slice(0, 10);
  if (start && due && start <= due) return { from: start, to: due, kind: start === due ? 'due' : 'bar' };
  if (due) return { from: due, to: due, kind: 'due' };
  if (start) return { from: start, to: start, kind: 'start' };
  return null;
}

/** A task's dates moved: by `move` days (both ends), its start by `start` days and its due day by `due` days. */
function shifted(t: Task, e: NonNullable<ReturnType<typeof extent>>, change: { start: number; due: number }): NewDates | null {
  if (!change.start && !change.due) return null;
  if (e.kind === 'start') return { task: t, dueDate: null, startDate: midnight(addDays(e.from, change.start)) };
  const due = addDays(e.to, change.due);
  // A resize never puts the start after the due day.
  const start = t.startDate && e.kind === 'bar' ? addDays(e.from, change.start) : null;
  if (start && start > due) return null;
  return { task: t, dueDate: midnight(due), startDate: start ? midnight(start) : null };
}

/**
 * The timeline of a project's tasks (docs/web.md, "Timeline"): each task with dates as a bar from
 * its start to its due day (or a marker on its one date), over eight weeks or six months; drag a bar
 * to move it, its ends to change its start or due day; `blocks` relations drawn as arrows from the
 * blocking task to the one it blocks. From the keyboard: ←/→ move a focused bar by a day, Shift
 * with them its due day, Alt with them its start. The board's filters apply.
 */
export function TimelineView(props: {
  projectId: string;
  projectSlug: string;
  basePath: string;
  filters: TaskFilters;
  tasks: Task[];
  canMove: boolean;
  onOpen: (t: Task) => void;
}) {
  const { filters: f } = props;
  const scale = f.span === 'week' ? 'weeks' : 'months';
  const { dayWidth } = SCALES[scale];
  const today = dayOf(new Date());
  const at = f.at ?? today;
  const { from, days } = SCALES[scale].range(at);
  const go = (patch: Partial<TaskFilters>) => navigate(props.basePath + filtersQuery({ ...f, ...patch }), true);
  const step = (n: number) => (scale === 'weeks' ? addDays(at, 28 * n) : addDays(`${at.slice(0, 7)}-15`, 91 * n).slice(0, 7) + '-01');

  const dated = props.tasks
    .map((t) => ({ task: t, at: extent(t) }))
    .filter((x): x is { task: Task; at: NonNullable<ReturnType<typeof extent>> } => x.at !== null)
    .sort((a, b) => a.at.from.localeCompare(b.at.from) || a.at.to.localeCompare(b.at.to) || a.task.number - b.task.number);
  const undated = props.tasks.length - dated.length;
  const rowOf = new Map(dated.map((d, i) => [d.task.id, i]));
  const relations = useQuery({
    // Under the project's tasks, so that whatever fetches them again fetches these too.
    queryKey: ['tasks', props.projectId, 'relations'],
    queryFn: async () => must(await api.GET('/api/task-relation/project/{projectId}', { params: { path: { projectId: props.projectId } } })),
  });
  const blocks = (relations.data ?? []).filter((r) => r.relationType === 'blocks' && rowOf.has(r.sourceTaskId) && rowOf.has(r.targetTaskId));
  const keyOf = (id: string) => {
    const t = dated[rowOf.get(id)!]!.task;
    return `${props.projectSlug}-${t.number}`;
  };
  const change = useDateChange(props.projectId, props.projectSlug);
  const labelCol = labelWidth();
  // Opened (or moved) with today in the range: today near the left of what shows, not the range's start.
  const scroller = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && today >= from && today < addDays(from, days)) el.scrollLeft = Math.max(0, daysBetween(from, today) * dayWidth - 3 * dayWidth);
  }, [from, days, dayWidth, today]);
  const x = (day: string) => daysBetween(from, day) * dayWidth;
  const width = days * dayWidth;
  const months: { day: string; left: number }[] = [];
  for (let d = from; d < addDays(from, days); d = addDays(`${addDays(d, 32).slice(0, 7)}-01`, 0)) months.push({ day: d, left: x(d) });
  // In the weeks scale each week is marked too, by its Monday's day of the month.
  const weeks: { day: string; left: number }[] = [];
  if (scale === 'weeks') for (let d = from; d < addDays(from, days); d = addDays(d, 7)) weeks.push({ day: d, left: x(d) });

  return (
    <section className="timeline" aria-label={tr('views.timelineView.timelineFromTo', { shortDay: shortDay(from), shortDay2: shortDay(addDays(from, days - 1)) })}>
      <PeriodBar
        title={tr('views.period.range', { from: monthName(from), to: monthName(addDays(from, days - 1)) })}
        earlier={tr('views.timelineView.earlier')}
        later={tr('views.timelineView.later')}
        onStep={(by) => go({ at: step(by) })}
        onToday={() => go({ at: undefined })}
        spanLabel={tr('views.timelineView.timelineScale')}
        spans={[
          { name: tr('views.timelineView.span.months'), span: undefined },
          { name: tr('views.timelineView.span.weeks'), span: 'week' },
        ]}
        span={f.span}
        onSpan={(s) => go({ span: s })}
      />
      <p className="muted">{tr('views.timelineView.summary', { count: dated.length, undated })}</p>
      <div className="timeline-scroll" ref={scroller}>
        <div className="timeline-inner" style={{ width: labelCol + width }}>
          <div className="timeline-head" aria-hidden="true">
            <div className="timeline-corner" style={{ width: labelCol }} />
            <div className="timeline-scale" style={{ width }}>
              {months.map((m) => (
                <span key={m.day} className="timeline-month" style={{ left: m.left }}>
                  {formatDate(asDate(m.day), { month: 'short', year: '2-digit', timeZone: 'UTC' })}
                </span>
              ))}
              {weeks.map((w) => (
                <span key={w.day} className="timeline-week" style={{ left: w.left }}>
                  {formatDate(asDate(w.day), { day: 'numeric', timeZone: 'UTC' })}
                </span>
              ))}
              {today >= from && today < addDays(from, days) && <span className="timeline-today" style={{ left: x(today) }} />}
            </div>
          </div>
          <ol className="timeline-rows" aria-label={tr('views.timelineView.tasksByDate')}>
            {dated.map(({ task, at: e }) => (
              <TimelineRow
                key={task.id}
                task={task}
                extent={e}
                taskKey={`${props.projectSlug}-${task.number}`}
                labelWidth={labelCol}
                left={x(e.from)}
                length={(daysBetween(e.from, e.to) + 1) * dayWidth}
                dayWidth={dayWidth}
                canMove={props.canMove}
                blocks={blocks.filter((r) => r.sourceTaskId === task.id).map((r) => keyOf(r.targetTaskId))}
                blockedBy={blocks.filter((r) => r.targetTaskId === task.id).map((r) => keyOf(r.sourceTaskId))}
                onOpen={props.onOpen}
                onChange={(c) => {
                  const next = shifted(task, e, c);
                  if (next) change.mutate(next);
                }}
              />
            ))}
          </ol>
          <svg className="timeline-arrows" aria-hidden="true" width={width} height={dated.length * ROW} style={{ left: labelCol, top: ROW }}>
            <defs>
              <marker id="timeline-arrow" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                <path d="M0,0 L8,4 L0,8 z" />
              </marker>
            </defs>
            {blocks.map((r) => {
              const a = dated[rowOf.get(r.sourceTaskId)!]!;
              const b = dated[rowOf.get(r.targetTaskId)!]!;
              const [x1, y1] = [x(a.at.to) + dayWidth, rowOf.get(r.sourceTaskId)! * ROW + ROW / 2];
              const [x2, y2] = [x(b.at.from), rowOf.get(r.targetTaskId)! * ROW + ROW / 2];
              return <path key={r.id} className="timeline-arrow" d={`M${x1},${y1} C${x1 + 24},${y1} ${x2 - 24},${y2} ${x2},${y2}`} markerEnd="url(#timeline-arrow)" />;
            })}
          </svg>
        </div>
      </div>
    </section>
  );
}

/**
 * One task's row: its key and title (opens it), and its bar. While a bar is dragged only this row
 * renders again (its own state), so a move costs the same on a board of 500 tasks as of five.
 */
const TimelineRow = memo(function TimelineRow(props: {
  task: Task;
  extent: NonNullable<ReturnType<typeof extent>>;
  taskKey: string;
  labelWidth: number;
  left: number;
  length: number;
  dayWidth: number;
  canMove: boolean;
  blocks: string[];
  blockedBy: string[];
  onOpen: (t: Task) => void;
  onChange: (c: { start: number; due: number }) => void;
}) {
  const { task, extent: e, dayWidth } = props;
  const [drag, setDrag] = useState<{ mode: 'move' | 'start' | 'due'; dx: number } | null>(null);
  const origin = useRef(0);
  const days = drag ? Math.round(drag.dx / dayWidth) : 0;
  const change = !drag ? { start: 0, due: 0 } : drag.mode === 'move' ? { start: days, due: days } : drag.mode === 'start' ? { start: days, due: 0 } : { start: 0, due: days };
  const left = props.left + (e.kind === 'due' ? change.due : change.start) * dayWidth;
  const length = e.kind === 'bar' ? Math.max(dayWidth, props.length + (change.due - change.start) * dayWidth) : props.length;

  const down = (mode: 'move' | 'start' | 'due') => (ev: PointerEvent<HTMLElement>) => {
    if (!props.canMove || ev.button !== 0) return;
    ev.stopPropagation();
    ev.currentTarget.setPointerCapture(ev.pointerId);
    origin.current = ev.clientX;
    setDrag({ mode, dx: 0 });
  };
  const moveTo = (ev: PointerEvent<HTMLElement>) => {
    if (drag) setDrag({ mode: drag.mode, dx: ev.clientX - origin.current });
  };
  const up = () => {
    if (!drag) return;
    const moved = Math.abs(drag.dx) >= 4;
    setDrag(null);
    if (!moved && drag.mode === 'move') props.onOpen(task);
    else if (change.start || change.due) props.onChange(change);
  };
  const onKey = (ev: KeyboardEvent<HTMLElement>) => {
    if (ev.key === 'Enter' || ev.key === ' ') {
      ev.preventDefault();
      return props.onOpen(task);
    }
    if (!props.canMove || (ev.key !== 'ArrowLeft' && ev.key !== 'ArrowRight') || ev.ctrlKey || ev.metaKey) return;
    ev.preventDefault();
    const by = ev.key === 'ArrowLeft' ? -1 : 1;
    props.onChange(ev.shiftKey ? { start: 0, due: by } : ev.altKey ? { start: by, due: 0 } : { start: by, due: by });
  };
  const dates =
    e.kind === 'bar'
      ? tr('views.timelineView.bar.fromTo', { from: shortDay(e.from), to: shortDay(e.to) })
      : e.kind === 'due'
        ? tr('views.timelineView.bar.due', { day: shortDay(e.to) })
        : tr('views.timelineView.bar.starts', { day: shortDay(e.from) });
  const relations = [
    props.blocks.length ? tr('views.timelineView.bar.blocks', { keys: props.blocks.join(', ') }) : '',
    props.blockedBy.length ? tr('views.timelineView.bar.blockedBy', { keys: props.blockedBy.join(', ') }) : '',
  ]
    .filter(Boolean)
    .join('; ');
  return (
    <li className="timeline-row" data-task={task.id} style={{ height: ROW }}>
      <div className="timeline-label" style={{ width: props.labelWidth }}>
        <button type="button" className="timeline-open" data-task-open onClick={() => props.onOpen(task)}>
          <span className="key">{props.taskKey}</span> <span className="card-title">{task.title}</span>
        </button>
      </div>
      <div className="timeline-track">
        <div
          role="button"
          tabIndex={0}
          className={`timeline-bar ${e.kind} priority-${task.priority}${drag ? ' dragging' : ''}`}
          style={{ left, width: e.kind === 'bar' ? length : undefined }}
          aria-label={`${props.taskKey} ${task.title}: ${dates}${relations ? `; ${relations}` : ''}`}
          aria-keyshortcuts={props.canMove ? 'ArrowLeft ArrowRight Shift+ArrowLeft Shift+ArrowRight Alt+ArrowLeft Alt+ArrowRight' : undefined}
          data-from={e.from}
          data-to={e.to}
          onPointerDown={down('move')}
          onPointerMove={moveTo}
          onPointerUp={up}
          onPointerCancel={() => setDrag(null)}
          onKeyDown={onKey}
        >
          {e.kind === 'bar' && props.canMove && <span className="timeline-grip start" aria-hidden="true" onPointerDown={down('start')} onPointerMove={moveTo} onPointerUp={up} />}
          {e.kind === 'bar' && (
            <span className="timeline-bar-text" aria-hidden="true">
              {task.title}
            </span>
          )}
          {e.kind === 'bar' && props.canMove && <span className="timeline-grip end" aria-hidden="true" onPointerDown={down('due')} onPointerMove={moveTo} onPointerUp={up} />}
        </div>
      </div>
    </li>
  );
});
