import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, must } from '../api/client';
import type { Task } from '../api/types';
import { toast } from '../ui/toast';
import { formatDate, t } from '../i18n';

/**
 * Days as the calendar and the timeline handle them: `YYYY-MM-DD` strings (a task's dates are
 * stored at midnight UTC of their day), and the one change both make to a task's dates.
 */

/** `day` plus `days` calendar days. */
export function addDays(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}
/** Days from `a` to `b` (negative when `b` is before `a`). */
export const daysBetween = (a: string, b: string) => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
/** The Monday of the week of `day`. */
export const mondayOf = (day: string) => addDays(day, -((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7));
export const asDate = (day: string) => new Date(`${day}T00:00:00Z`);
/** A day as the API stores a task's date. */
export const midnight = (day: string) => `${day}T00:00:00.000Z`;
export const longDay = (day: string) => formatDate(asDate(day), { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' });
export const shortDay = (day: string) => formatDate(asDate(day), { day: 'numeric', month: 'short', timeZone: 'UTC' });
export const monthName = (day: string) => formatDate(asDate(day), { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** The new dates of a task: the due date, and the start date when it has one that moves too (null: left as it is). */
export interface NewDates {
  task: Task;
  dueDate: string | null;
  startDate: string | null;
}

/**
 * Sets a task's dates (PUT /api/task/:id) as a calendar or timeline drag or key asks: the task
 * moves at once in the project's task list and goes back, with the service's message in a toast,
 * if the change is refused. Keyed as the board's moves are, so that a live event does not fetch
 * the state before it meanwhile.
 */
export function useDateChange(projectId: string, projectSlug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['move', projectId],
    mutationFn: async ({ task, dueDate, startDate }: NewDates) => {
      const body: { dueDate?: string; startDate?: string } = {};
      if (dueDate) body.dueDate = dueDate;
      if (startDate) body.startDate = startDate;
      return must(await api.PUT('/api/task/{id}', { params: { path: { id: task.id } }, body }));
    },
    onMutate: async ({ task, dueDate, startDate }) => {
      await queryClient.cancelQueries({ queryKey: ['tasks', projectId] });
      const before = queryClient.getQueryData<Task[]>(['tasks', projectId]);
      queryClient.setQueryData<Task[]>(['tasks', projectId], (list) =>
        list?.map((t) => (t.id === task.id ? { ...t, dueDate: dueDate ?? t.dueDate, startDate: startDate ?? t.startDate } : t)),
      );
      return { before };
    },
    onError: (err, { task }, ctx) => {
      if (ctx?.before) queryClient.setQueryData(['tasks', projectId], ctx.before);
      toast.show({ title: t('views.dates.couldNotMove', { projectSlug, number: task.number }), description: err instanceof Error ? err.message : String(err), tone: 'error' });
    },
    onSettled: (_r, _e, { task }) =>
      Promise.all([queryClient.invalidateQueries({ queryKey: ['tasks', projectId] }), queryClient.invalidateQueries({ queryKey: ['task', task.id] })]),
  });
}
