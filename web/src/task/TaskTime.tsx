import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { api, must } from '../api/client';
import { useMembers } from '../api/workspace-queries';
import { useSession } from '../api/session';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { ErrorState, Loading } from '../ui/States';
import { formatDuration, parseDuration } from './duration';
import { formatDate, t } from '../i18n';

type Entry = Awaited<ReturnType<typeof entriesOf>>[number];
const entriesOf = async (taskId: string) => must(await api.GET('/api/time-entry/task/{taskId}', { params: { path: { taskId } } }));

/** A duration in seconds as `1 h 05 min` / `4 min 10 s` (a running timer). */
function clock(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return h ? `${h} h ${String(m).padStart(2, '0')} min` : `${m} min ${String(s).padStart(2, '0')} s`;
}

/** `YYYY-MM-DD` of a local date. */
const localDay = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
const today = () => localDay(new Date());
const yesterday = () => {
  const d = new Date();
  d.setDate(d.getDate() - 1);
  return localDay(d);
};

/**
 * The times of an entry of `seconds` on local day `day`: today's ends now; another day's starts at
 * 09:00 that day (an entry logged by hand has a length and a day, not a time of day).
 */
function span(day: string, seconds: number): { startTime: string; endTime: string } {
  if (day === today()) {
    const end = new Date();
    return { startTime: new Date(end.getTime() - seconds * 1000).toISOString(), endTime: end.toISOString() };
  }
  const start = new Date(`${day}T09:00:00`);
  return { startTime: start.toISOString(), endTime: new Date(start.getTime() + seconds * 1000).toISOString() };
}

/** The day field: today, yesterday, or a date of one's choosing. */
function DayField({ value, onChange }: { value: string; onChange: (day: string) => void }) {
  const id = useId();
  const choice = value === today() ? 'today' : value === yesterday() ? 'yesterday' : 'date';
  return (
    <>
      <label className="field compact" htmlFor={`${id}-day`}>
        {t('task.taskTime.day')}
        <select id={`${id}-day`} value={choice} onChange={(e) => onChange(e.target.value === 'today' ? today() : e.target.value === 'yesterday' ? yesterday() : value)}>
          <option value="today">{t('task.taskTime.today')}</option>
          <option value="yesterday">{t('task.taskTime.yesterday')}</option>
          <option value="date">{t('task.taskTime.anotherDay')}</option>
        </select>
      </label>
      <label className="field compact" htmlFor={`${id}-date`}>
        {t('task.taskTime.date')}
        <input id={`${id}-date`} type="date" value={value} max={today()} required onChange={(e) => e.target.value && onChange(e.target.value)} />
      </label>
    </>
  );
}

/** A duration and a day, for logging an entry or editing one. */
function EntryForm(props: {
  label: string;
  submitLabel: string;
  initial?: { text: string; day: string };
  pending: boolean;
  onSubmit: (seconds: number, day: string) => void;
  onCancel?: () => void;
}) {
  const id = useId();
  const [text, setText] = useState(props.initial?.text ?? '');
  const [day, setDay] = useState(props.initial?.day ?? today());
  const [invalid, setInvalid] = useState(false);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const seconds = parseDuration(text);
    setInvalid(seconds === null);
    if (seconds !== null) props.onSubmit(seconds, day);
  };
  return (
    <form className="inline-form" aria-label={props.label} onSubmit={submit}>
      <label className="field" htmlFor={`${id}-duration`}>
        {t('task.taskTime.duration')}
        <input
          id={`${id}-duration`}
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={t('task.taskTime.1h30m')}
          aria-invalid={invalid || undefined}
          aria-describedby={`${id}-hint`}
          required
        />
        <span id={`${id}-hint`} className={invalid ? 'state error' : 'hint'}>
          {invalid ? t('task.taskTime.writeADurationLike1h') : t('task.taskTime.forExample1h30m90m')}
        </span>
      </label>
      <DayField value={day} onChange={setDay} />
      <button type="submit" disabled={props.pending}>
        {props.submitLabel}
      </button>
      {props.onCancel && (
        <button type="button" className="secondary" onClick={props.onCancel}>
          {t('common.cancel')}
        </button>
      )}
    </form>
  );
}

/** The task's time (GET /api/time-entry/task/:taskId): the timer, entries logged by hand, and the list with who, when and how long. */
export function TaskTime({ workspaceId, taskId, editable }: { workspaceId: string; taskId: string; editable: boolean }) {
  const queryClient = useQueryClient();
  const me = useSession().data?.user.id;
  const members = useMembers(workspaceId);
  const person = (id: string | null) => (id === me ? t('task.taskTime.you') : (members.data?.find((m) => m.userId === id)?.user?.name ?? t('task.taskTime.formerMember')));
  const entries = useQuery({ queryKey: ['task', taskId, 'time'], queryFn: () => entriesOf(taskId) });
  const running = entries.data?.find((e) => e.endTime === null && e.userId === me);
  const [editing, setEditing] = useState<string | null>(null);
  const [, tick] = useState(0);
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, [running]);
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ['task', taskId, 'time'] });
    await queryClient.invalidateQueries({ queryKey: ['task', taskId, 'activity'] });
  };
  const start = useMutation({
    mutationFn: async () => must(await api.POST('/api/time-entry', { body: { taskId, startTime: new Date().toISOString() } })),
    onSettled: refresh,
  });
  const stop = useMutation({
    mutationFn: async (id: string) => must(await api.PUT('/api/time-entry/{id}', { params: { path: { id } }, body: { endTime: new Date().toISOString() } })),
    onSettled: refresh,
  });
  const log = useMutation({
    mutationFn: async ({ seconds, day }: { seconds: number; day: string }) => must(await api.POST('/api/time-entry', { body: { taskId, ...span(day, seconds) } })),
    onSettled: refresh,
  });
  const edit = useMutation({
    mutationFn: async ({ id, seconds, day }: { id: string; seconds: number; day: string }) =>
      must(await api.PUT('/api/time-entry/{id}', { params: { path: { id } }, body: span(day, seconds) })),
    onSuccess: () => setEditing(null),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: async (id: string) => must(await api.DELETE('/api/time-entry/{id}', { params: { path: { id } } })),
    onSettled: refresh,
  });
  const done = entries.data?.filter((e) => e.endTime) ?? [];
  const total = done.reduce((n, e) => n + e.duration, 0);
  const failed = start.error ?? stop.error ?? log.error ?? edit.error ?? remove.error;
  const own = (e: Entry) => editable && e.userId === me;
  return (
    <section aria-labelledby="time-h">
      <h3 id="time-h">{t('task.taskTime.time')}</h3>
      {entries.isPending && <Loading what={t('task.taskTime.timeEntries')} />}
      {entries.error && <ErrorState error={entries.error} />}
      {entries.data && <p>{t('task.taskTime.logged', { duration: formatDuration(total) })}</p>}
      {running ? (
        <p>
          <span role="timer" aria-live="off">
            {t('task.taskTime.running', { time: clock(Math.max(0, Math.floor((Date.now() - Date.parse(running.startTime)) / 1000))) })}
          </span>{' '}
          <button type="button" onClick={() => stop.mutate(running.id)} disabled={stop.isPending}>
            {t('task.taskTime.stopTimer')}
          </button>
        </p>
      ) : (
        editable && (
          <button type="button" onClick={() => start.mutate()} disabled={start.isPending}>
            {t('task.taskTime.startTimer')}
          </button>
        )
      )}
      {editable && (
        <EntryForm label={t('task.taskTime.logTime')} submitLabel={t('task.taskTime.logTime')} pending={log.isPending} onSubmit={(seconds, day) => log.mutate({ seconds, day })} />
      )}
      {failed && <ErrorState error={failed} />}
      <ul className="entries" aria-label={t('task.taskTime.timeEntries2')}>
        {done.map((e) => (
          <li key={e.id}>
            {editing === e.id ? (
              <EntryForm
                label={t('task.taskTime.editTimeEntry')}
                submitLabel={t('task.taskTime.save')}
                initial={{ text: formatDuration(e.duration), day: localDay(new Date(e.startTime)) }}
                pending={edit.isPending}
                onSubmit={(seconds, day) => edit.mutate({ id: e.id, seconds, day })}
                onCancel={() => setEditing(null)}
              />
            ) : (
              <>
                <strong>{person(e.userId)}</strong> <time dateTime={e.startTime}>{formatDate(e.startTime)}</time> — {formatDuration(e.duration)}
                {e.description ? `: ${e.description}` : ''}
                {own(e) && (
                  <span className="actions">
                    <button type="button" className="secondary" onClick={() => setEditing(e.id)}>
                      {t('task.taskTime.edit')}
                    </button>
                    <ConfirmDialog
                      label={t('task.taskTime.delete')}
                      title={t('task.taskTime.deleteThisTimeEntry')}
                      confirmLabel={t('task.taskTime.delete')}
                      onConfirm={() => remove.mutate(e.id)}
                      isDisabled={remove.isPending}
                    >
                      <p>{t('task.taskTime.deleteEntryBody', { duration: formatDuration(e.duration), day: formatDate(e.startTime) })}</p>
                    </ConfirmDialog>
                  </span>
                )}
              </>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
