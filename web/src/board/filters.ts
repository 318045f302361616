import { useSearch } from '@tanstack/react-router';
import type { Task } from '../api/types';
import { PRIORITIES } from '../ui/format';

/**
 * The filters and the order of a project's board and list, kept in the address (`?q=&assignee=…`)
 * so that a filtered board can be reloaded, shared and saved as a view (docs/web.md, "Filters and views").
 */
export interface TaskFilters {
  q?: string;
  /** A member's user id, or `none` for unassigned. */
  assignee?: string;
  /** A label's name (the catalogue's names are unique in a workspace, whatever their case). */
  label?: string;
  priority?: string;
  status?: string;
  due?: DueFilter;
  /** Due on or before this day (YYYY-MM-DD). */
  dueBy?: string;
  sort?: TaskSort;
  /** The calendar's span (a month unless `week`) and a day it shows (today unless given): where the calendar is, not a filter. */
  span?: 'week';
  at?: string;
}

/** What the address holds beside the filters: the order and the calendar's place. */
const NOT_FILTERS: readonly string[] = ['sort', 'span', 'at'];

export const DUE_FILTERS = ['overdue', 'today', 'week', 'none'] as const;
export type DueFilter = (typeof DUE_FILTERS)[number];
export const TASK_SORTS = ['position', 'due', 'priority', 'created', 'title'] as const;
export type TaskSort = (typeof TASK_SORTS)[number];

// The router reads `?q=12` as the number 12: a filter's text is whatever the address says.
const text = (v: unknown, max = 200): string | undefined => (typeof v === 'string' || typeof v === 'number' ? String(v).slice(0, max) || undefined : undefined);
const oneOf = <T extends string>(v: unknown, of: readonly T[]): T | undefined => ((of as readonly unknown[]).includes(v) ? (v as T) : undefined);

/** The filters of an address's query; what is not understood is left out (never an error page). */
export function parseFilters(search: Record<string, unknown>): TaskFilters {
  const out: TaskFilters = {
    q: text(search.q),
    assignee: text(search.assignee, 64),
    label: text(search.label, 64),
    priority: text(search.priority, 16),
    status: text(search.status, 64),
    due: oneOf(search.due, DUE_FILTERS),
    dueBy: typeof search.dueBy === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(search.dueBy) ? search.dueBy : undefined,
    sort: oneOf(search.sort, TASK_SORTS),
    span: search.span === 'week' ? 'week' : undefined,
    at: typeof search.at === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(search.at) && !Number.isNaN(Date.parse(search.at)) ? search.at : undefined,
  };
  for (const k of Object.keys(out) as (keyof TaskFilters)[]) if (out[k] === undefined) delete out[k];
  return out;
}

/** How many filters are set (the order and the calendar's place are not filters). */
export const filterCount = (f: TaskFilters) => Object.keys(f).filter((k) => !NOT_FILTERS.includes(k)).length;
export const hasFilters = (f: TaskFilters) => filterCount(f) > 0;

/** The day of `d` in the browser's time zone, as `YYYY-MM-DD` (how a due date's day is written). */
export const dayOf = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
const day = dayOf;

/** `tasks` that pass `f` (labelsOf: a task's label names), in `f.sort`'s order. */
export function applyFilters(tasks: Task[], f: TaskFilters, labelsOf: (taskId: string) => string[], now = new Date()): Task[] {
  const today = day(now);
  const weekEnd = day(new Date(now.getTime() + 7 * 86_400_000));
  const q = f.q?.toLowerCase();
  const shown = tasks.filter((t) => {
    if (q && !`${t.title} ${t.description ?? ''}`.toLowerCase().includes(q)) return false;
    if (f.status && t.status !== f.status) return false;
    if (f.assignee && (f.assignee === 'none' ? t.userId : t.userId !== f.assignee)) return false;
    if (f.priority && t.priority !== f.priority) return false;
    if (f.label && !labelsOf(t.id).some((n) => n.toLowerCase() === f.label!.toLowerCase())) return false;
    const due = t.dueDate ? t.dueDate.slice(0, 10) : null;
    if (f.due === 'none' && due) return false;
    if (f.due === 'overdue' && !(due && due < today)) return false;
    if (f.due === 'today' && due !== today) return false;
    if (f.due === 'week' && !(due && due >= today && due <= weekEnd)) return false;
    if (f.dueBy && !(due && due <= f.dueBy)) return false;
    return true;
  });
  const by: Record<TaskSort, (a: Task, b: Task) => number> = {
    position: (a, b) => a.position - b.position || a.number - b.number,
    due: (a, b) => (a.dueDate ?? '9999').localeCompare(b.dueDate ?? '9999') || a.number - b.number,
    // Most pressing first: PRIORITIES lists them least pressing first, `no-priority` before `low`, which puts it last here.
    priority: (a, b) => PRIORITIES.indexOf(b.priority) - PRIORITIES.indexOf(a.priority) || a.number - b.number,
    created: (a, b) => b.number - a.number,
    title: (a, b) => a.title.localeCompare(b.title) || a.number - b.number,
  };
  return f.sort && f.sort !== 'position' ? [...shown].sort(by[f.sort]) : shown;
}

/** Whether a task's due date has passed (its day is before today) and it is not done. */
export function isOverdue(t: Task, now = new Date()): boolean {
  return !!t.dueDate && t.dueDate.slice(0, 10) < day(now) && !['done', 'completed'].includes(t.status);
}

/** The query string of `f` (empty values left out), for an address or a saved view. */
export function filtersQuery(f: TaskFilters): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** The filters of the view being shown, from the address (parsed by the project views' routes, `validateSearch`: web/src/app/routes.tsx). */
export function useTaskFilters(): TaskFilters {
  return useSearch({ strict: false }) as TaskFilters;
}
