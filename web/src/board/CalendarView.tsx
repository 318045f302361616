import { DndContext, KeyboardSensor, PointerSensor, pointerWithin, useDraggable, useDroppable, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type KeyboardEventHandler, type PointerEventHandler } from 'react';
import { Button, Dialog, DialogTrigger, Heading, Popover } from 'react-aria-components';
import { api, must } from '../api/client';
import type { Task } from '../api/types';
import { navigate } from '../app/router';
import { addDays, asDate, daysBetween, longDay, midnight, mondayOf, monthName, useDateChange } from './dates';
import { dayOf, filtersQuery, type TaskFilters } from './filters';
import { PeriodBar } from './PeriodBar';
import { formatDate, t as tr } from '../i18n';

/** The days a calendar shows: a week from its Monday, or the whole weeks (Monday to Sunday) of a month. */
export function daysShown(span: 'month' | 'week', at: string): string[] {
  if (span === 'week') return Array.from({ length: 7 }, (_, i) => addDays(mondayOf(at), i));
  const first = `${at.slice(0, 7)}-01`;
  const last = addDays(`${addDays(first, 32).slice(0, 7)}-01`, -1);
  const start = mondayOf(first);
  const weeks = Math.ceil((daysBetween(start, last) + 1) / 7);
  return Array.from({ length: weeks * 7 }, (_, i) => addDays(start, i));
}

/** The days a task is on: from its start to its due date (only the due day without a start, or with a start after it). */
function daysOf(t: Task): [string, string] | null {
  const due = t.dueDate?.slice(0, 10);
  if (!due) return null;
  const start = t.startDate?.slice(0, 10);
  return start && start < due ? [start, due] : [due, due];
}

/** The weekdays' short names, Monday first, in the reader's language. */
const weekdays = () => Array.from({ length: 7 }, (_, i) => formatDate(asDate(addDays('2024-01-01', i)), { weekday: 'short', timeZone: 'UTC' }));

/**
 * The calendar of a project's tasks (docs/web.md, "Calendar"): a month or a week, each task on its
 * due date, or on every day from its start to its due date. Drag a task to another day to move its
 * dates (a span keeps its length); a day's "+" adds a task due that day. The board's filters apply.
 */
export function CalendarView(props: {
  workspaceId: string;
  projectId: string;
  projectSlug: string;
  basePath: string;
  filters: TaskFilters;
  tasks: Task[];
  firstStatus: string | undefined;
  canCreate: boolean;
  canMove: boolean;
  onOpen: (t: Task) => void;
}) {
  const { filters: f, tasks } = props;
  const today = dayOf(new Date());
  const span = f.span === 'week' ? 'week' : 'month';
  const at = f.at ?? today;
  const days = daysShown(span, at);
  const go = (patch: Partial<TaskFilters>) => navigate(props.basePath + filtersQuery({ ...f, ...patch }), true);
  const step = (n: number) => (span === 'week' ? addDays(at, 7 * n) : addDays(`${at.slice(0, 7)}-15`, 30 * n).slice(0, 7) + '-01');

  const byDay = new Map<string, { task: Task; part: 'one' | 'start' | 'middle' | 'end' }[]>();
  for (const t of tasks) {
    const range = daysOf(t);
    if (!range) continue;
    const [from, to] = range;
    for (let d = from < days[0]! ? days[0]! : from; d <= to && d <= days[days.length - 1]!; d = addDays(d, 1)) {
      const part = from === to ? 'one' : d === from ? 'start' : d === to ? 'end' : 'middle';
      byDay.set(d, [...(byDay.get(d) ?? []), { task: t, part }]);
    }
  }
  const undated = tasks.filter((t) => !t.dueDate).length;

  const move = useDateChange(props.projectId, props.projectSlug);
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 5 } }), useSensor(KeyboardSensor));
  const onDragEnd = (e: DragEndEvent) => {
    const [taskId, fromDay] = String(e.active.id).split('@') as [string, string];
    const task = tasks.find((t) => t.id === taskId);
    const range = task && daysOf(task);
    if (!task || !range || !e.over) return;
    const delta = daysBetween(fromDay, String(e.over.id));
    if (delta === 0) return;
    const [from, to] = range;
    move.mutate({ task, dueDate: midnight(addDays(to, delta)), startDate: task.startDate && from < to ? midnight(addDays(from, delta)) : null });
  };

  return (
    <section
      className="calendar"
      aria-label={span === 'week' ? tr('views.calendarView.calendarWeekOf', { day: longDay(days[0]!) }) : tr('views.calendarView.calendarMonth', { month: monthName(at) })}
    >
      <PeriodBar
        title={span === 'week' ? tr('views.period.range', { from: longDay(days[0]!), to: longDay(days[6]!) }) : monthName(at)}
        earlier={span === 'week' ? tr('views.calendarView.previousWeek') : tr('views.calendarView.previousMonth')}
        later={span === 'week' ? tr('views.calendarView.nextWeek') : tr('views.calendarView.nextMonth')}
        onStep={(by) => go({ at: step(by) })}
        onToday={() => go({ at: undefined })}
        spanLabel={tr('views.calendarView.calendarSpan')}
        spans={[
          { name: tr('views.calendarView.span.month'), span: undefined },
          { name: tr('views.calendarView.span.week'), span: 'week' },
        ]}
        span={f.span}
        onSpan={(s) => go({ span: s })}
      />
      {undated > 0 && <p className="muted">{tr('views.calendarView.undated', { count: undated })}</p>}
      <DndContext sensors={sensors} collisionDetection={pointerWithin} onDragEnd={onDragEnd}>
        <div className={`calendar-grid ${span}`} role="grid" aria-label={tr('views.calendarView.days')}>
          <div className="calendar-row calendar-weekdays" role="row">
            {weekdays().map((w) => (
              <div key={w} role="columnheader" className="calendar-weekday">
                {w}
              </div>
            ))}
          </div>
          {Array.from({ length: days.length / 7 }, (_, week) => (
            <div className="calendar-row" role="row" key={days[week * 7]}>
              {days.slice(week * 7, week * 7 + 7).map((d) => (
                <Day
                  key={d}
                  day={d}
                  today={d === today}
                  outside={span === 'month' && d.slice(0, 7) !== at.slice(0, 7)}
                  entries={byDay.get(d) ?? []}
                  projectId={props.projectId}
                  projectSlug={props.projectSlug}
                  firstStatus={props.firstStatus}
                  canCreate={props.canCreate}
                  canMove={props.canMove}
                  onOpen={props.onOpen}
                />
              ))}
            </div>
          ))}
        </div>
      </DndContext>
    </section>
  );
}

function Day(props: {
  day: string;
  today: boolean;
  outside: boolean;
  entries: { task: Task; part: 'one' | 'start' | 'middle' | 'end' }[];
  projectId: string;
  projectSlug: string;
  firstStatus: string | undefined;
  canCreate: boolean;
  canMove: boolean;
  onOpen: (t: Task) => void;
}) {
  const { setNodeRef, isOver } = useDroppable({ id: props.day });
  return (
    <div ref={setNodeRef} role="gridcell" className={`calendar-day${props.today ? ' today' : ''}${props.outside ? ' outside' : ''}${isOver ? ' over' : ''}`} data-day={props.day}>
      <div className="calendar-day-head">
        <span className="calendar-date">
          <span aria-hidden="true">{formatDate(asDate(props.day), { day: 'numeric', timeZone: 'UTC' })}</span>
          <span className="visually-hidden">{longDay(props.day)}</span>
        </span>
        {props.canCreate && props.firstStatus && <AddOnDay day={props.day} projectId={props.projectId} status={props.firstStatus} />}
      </div>
      <ul className="calendar-tasks" aria-label={tr('views.calendarView.tasksOn', { day: longDay(props.day) })}>
        {props.entries.map(({ task, part }) => (
          <CalendarTask key={task.id} task={task} part={part} day={props.day} projectSlug={props.projectSlug} canMove={props.canMove} onOpen={props.onOpen} />
        ))}
      </ul>
    </div>
  );
}

function CalendarTask(props: { task: Task; part: 'one' | 'start' | 'middle' | 'end'; day: string; projectSlug: string; canMove: boolean; onOpen: (t: Task) => void }) {
  const { task } = props;
  // One draggable per day a task is shown on: dragging a span by any of its days moves all of it.
  const { attributes, listeners, setNodeRef, transform, isDragging } = useDraggable({ id: `${task.id}@${props.day}`, disabled: !props.canMove });
  const key = `${props.projectSlug}-${task.number}`;
  const where = props.part === 'one' ? '' : ` ${tr(`views.calendarView.part.${props.part}`)}`;
  return (
    <li
      ref={setNodeRef}
      className={`calendar-task ${props.part} priority-${task.priority}${isDragging ? ' dragging' : ''}`}
      style={transform ? { transform: `translate(${transform.x}px, ${transform.y}px)` } : undefined}
      data-task={task.id}
      onPointerDown={props.canMove ? (listeners?.onPointerDown as PointerEventHandler<HTMLLIElement> | undefined) : undefined}
    >
      <button type="button" className="calendar-open" data-task-open onClick={() => props.onOpen(task)} title={`${key} ${task.title}${where}`}>
        <span className="key">{key}</span> <span className="card-title">{task.title}</span>
        {where && <span className="visually-hidden">{where}</span>}
      </button>
      {props.canMove && (
        <button type="button" className="handle" {...attributes} onKeyDown={listeners?.onKeyDown as KeyboardEventHandler<HTMLButtonElement> | undefined}>
          <span aria-hidden="true">⠿</span>
          <span className="visually-hidden">{tr('views.calendarView.moveTask', { title: task.title })}</span>
        </button>
      )}
    </li>
  );
}

/** A day's "+": a small form in a popover that adds a task due that day (in the board's first column). */
function AddOnDay({ day, projectId, status }: { day: string; projectId: string; status: string }) {
  const queryClient = useQueryClient();
  const [title, setTitle] = useState('');
  const create = useMutation({
    mutationFn: async () => must(await api.POST('/api/task/{projectId}', { params: { path: { projectId } }, body: { title: title.trim(), status, dueDate: midnight(day) } })),
    onSuccess: async () => {
      setTitle('');
      await queryClient.invalidateQueries({ queryKey: ['tasks', projectId] });
    },
  });
  return (
    <DialogTrigger>
      <Button className="calendar-add">
        <span aria-hidden="true">+</span>
        <span className="visually-hidden">{tr('views.calendarView.addTaskOn', { day: longDay(day) })}</span>
      </Button>
      <Popover className="menu-popover" placement="bottom start">
        <Dialog className="dialog" aria-label={tr('views.calendarView.newTaskOn', { day: longDay(day) })}>
          {({ close }) => (
            <form
              className="stack"
              onSubmit={(e: FormEvent) => {
                e.preventDefault();
                if (title.trim()) create.mutate(undefined, { onSuccess: close });
              }}
            >
              <Heading slot="title" className="visually-hidden">
                {tr('views.calendarView.newTaskOn', { day: longDay(day) })}
              </Heading>
              <label>
                {tr('views.calendarView.title')}
                <input value={title} onChange={(e) => setTitle(e.target.value)} maxLength={500} autoFocus />
              </label>
              <button type="submit" disabled={!title.trim() || create.isPending}>
                {tr('views.calendarView.addTask')}
              </button>
              {create.error && <p className="state error">{create.error instanceof Error ? create.error.message : String(create.error)}</p>}
            </form>
          )}
        </Dialog>
      </Popover>
    </DialogTrigger>
  );
}
