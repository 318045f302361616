import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Dialog, DialogTrigger, Heading, Popover, ToggleButton } from 'react-aria-components';
import { api, must } from '../api/client';
import type { TaskWatchers } from '../api/types';
import { Avatar } from '../ui/avatar';
import { toast } from '../ui/toast';
import { t } from '../i18n';

type Reason = TaskWatchers['watchers'][number]['reasons'][number];

const REASON_TEXT: Record<Reason, () => string> = {
  creator: () => t('task.taskWatch.reasonCreator'),
  assignee: () => t('task.taskWatch.reasonAssignee'),
  commenter: () => t('task.taskWatch.reasonCommenter'),
  mentioned: () => t('task.taskWatch.reasonMentioned'),
  watching: () => t('task.taskWatch.reasonWatching'),
};

/**
 * Watching a task (docs/notifications.md, "Watchers"): a toggle for the caller (watch: hear of its
 * status changes, comments and time logged; unwatch: for good, until watched again) and the list
 * of who watches it and why. Anyone who can open the task can watch it.
 */
export function TaskWatch({ taskId }: { taskId: string }) {
  const queryClient = useQueryClient();
  const key = ['watchers', taskId];
  const watchers = useQuery({ queryKey: key, queryFn: async () => must(await api.GET('/api/task/{id}/watchers', { params: { path: { id: taskId } } })) });
  const choose = useMutation({
    mutationFn: async (watch: boolean) =>
      must(watch ? await api.POST('/api/task/{id}/watch', { params: { path: { id: taskId } } }) : await api.DELETE('/api/task/{id}/watch', { params: { path: { id: taskId } } })),
    onSuccess: (answer) => queryClient.setQueryData(key, answer),
    onError: (err) => toast.show({ title: t('task.taskWatch.couldNotChange'), description: err instanceof Error ? err.message : String(err), tone: 'error' }),
  });
  const data = watchers.data;
  if (!data) return null;
  const watching = choose.isPending ? choose.variables : data.watching;
  return (
    <div className="task-watch">
      <ToggleButton className="secondary watch-toggle" isSelected={watching} isDisabled={choose.isPending} onChange={(on) => choose.mutate(on)}>
        {watching ? t('task.taskWatch.watching') : t('task.taskWatch.watch')}
      </ToggleButton>
      <DialogTrigger>
        <Button className="link watchers-count">{t('task.taskWatch.watchers', { count: data.watchers.length })}</Button>
        <Popover className="menu-popover" placement="bottom end">
          <Dialog className="dialog watchers-dialog" aria-label={t('task.taskWatch.whoWatches')}>
            <Heading slot="title" className="watchers-heading">
              {t('task.taskWatch.whoWatches')}
            </Heading>
            {data.watchers.length ? (
              <ul className="watchers">
                {data.watchers.map((w) => (
                  <li key={w.userId}>
                    <Avatar name={w.name} />
                    <span>
                      {w.name}
                      <span className="muted"> · {w.reasons.map((r) => REASON_TEXT[r]()).join(', ')}</span>
                    </span>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="muted">{t('task.taskWatch.nobody')}</p>
            )}
            <p className="muted small">{t('task.taskWatch.about')}</p>
          </Dialog>
        </Popover>
      </DialogTrigger>
    </div>
  );
}
