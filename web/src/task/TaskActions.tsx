import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Menu, MenuItem, MenuTrigger, Popover } from 'react-aria-components';
import { api, must } from '../api/client';
import { usePermissions } from '../api/permissions';
import type { Task } from '../api/types';
import { ConfirmModal } from '../ui/ConfirmDialog';
import { toast } from '../ui/toast';
import { focusWhenShown } from '../board/card-focus';
import { t as tr } from '../i18n';

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Puts a task in `status` (a column slug, or `archived`) and refreshes the project's board and list. */
async function setStatus(queryClient: QueryClient, task: Task, status: string): Promise<Task> {
  const t = must(await api.PUT('/api/task/status/{id}', { params: { path: { id: task.id } }, body: { status } }));
  queryClient.setQueryData(['task', task.id], t);
  await queryClient.invalidateQueries({ queryKey: ['tasks', task.projectId] });
  return t;
}

/**
 * Takes an archived task out of the archive, into `status` (where it was, or a column of the
 * project), with a toast either way. Used by the panel's "Undo" and the archived tasks' "Restore".
 */
export async function unarchive(queryClient: QueryClient, task: Task, status: string, key: string): Promise<boolean> {
  try {
    await setStatus(queryClient, task, status);
    toast.show({ title: tr('task.taskActions.restored', { key }) });
    // The restored card takes the focus (the toast's Undo that had it is gone).
    focusWhenShown(task.id);
    return true;
  } catch (err) {
    toast.show({ title: tr('task.taskActions.couldNotRestore', { key }), description: messageOf(err), tone: 'error' });
    return false;
  }
}

/**
 * The task panel's actions menu (React Aria Menu): "Archive task" (with task:update; the panel
 * closes and a toast offers "Undo") and "Delete task" (with task:delete; asked first in a dialog,
 * since the API keeps nothing of a deleted task). Errors come as toasts with the API's message.
 */
export function TaskActions({ workspaceId, task, taskKey, onClose }: { workspaceId: string; task: Task; taskKey: string; onClose: () => void }) {
  const queryClient = useQueryClient();
  const can = usePermissions(workspaceId);
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const canArchive = can('task', 'update') && task.status !== 'archived';
  const canDelete = can('task', 'delete');
  if (!canArchive && !canDelete) return null;

  const archive = async () => {
    const before = task.status;
    setBusy(true);
    try {
      await setStatus(queryClient, task, 'archived');
    } catch (err) {
      toast.show({ title: tr('task.taskActions.couldNotArchive', { taskKey }), description: messageOf(err), tone: 'error' });
      return;
    } finally {
      setBusy(false);
    }
    onClose();
    toast.show({
      title: tr('task.taskActions.archived', { taskKey }),
      action: { label: tr('task.taskActions.undo'), run: () => void unarchive(queryClient, task, before, taskKey) },
    });
  };

  const remove = async () => {
    setBusy(true);
    try {
      must(await api.DELETE('/api/task/{id}', { params: { path: { id: task.id } } }));
    } catch (err) {
      toast.show({ title: tr('task.taskActions.couldNotDelete', { taskKey }), description: messageOf(err), tone: 'error' });
      return;
    } finally {
      setBusy(false);
    }
    // The card leaves the board first, so that the focus goes to the next one as the panel closes;
    // the panel goes before the board is fetched again, so that nothing asks for the deleted task.
    queryClient.setQueryData<Task[]>(['tasks', task.projectId], (list) => list?.filter((t) => t.id !== task.id));
    onClose();
    await queryClient.invalidateQueries({ queryKey: ['tasks', task.projectId] });
    toast.show({ title: tr('task.taskActions.deleted', { taskKey }) });
  };

  return (
    <>
      <MenuTrigger>
        <Button className="secondary task-actions-button" aria-label={tr('task.taskActions.actionsFor', { taskKey })} isDisabled={busy}>
          {tr('task.taskActions.actions')}
        </Button>
        <Popover className="menu-popover" placement="bottom end">
          <Menu
            className="menu"
            onAction={(key) => {
              if (key === 'archive') void archive();
              else if (key === 'delete') setAsking(true);
            }}
          >
            {canArchive && (
              <MenuItem id="archive" className="menu-item">
                {tr('task.taskActions.archiveTask')}
              </MenuItem>
            )}
            {canDelete && (
              <MenuItem id="delete" className="menu-item">
                {tr('task.taskActions.deleteTask')}
              </MenuItem>
            )}
          </Menu>
        </Popover>
      </MenuTrigger>
      <ConfirmModal
        isOpen={asking}
        onOpenChange={setAsking}
        title={tr('task.taskActions.delete', { taskKey })}
        confirmLabel={tr('task.taskActions.deleteTask')}
        onConfirm={() => void remove()}
      >
        <p>{tr('task.taskActions.cannotBeBroughtBack', { title: task.title })}</p>
      </ConfirmModal>
    </>
  );
}
