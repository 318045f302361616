import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Button, Menu, MenuItem, MenuTrigger, Popover, Toolbar } from 'react-aria-components';
import { api, must } from '../api/client';
import { usePermissions } from '../api/permissions';
import type { CardDetails, Column, Task } from '../api/types';
import { refetchCardDetails, useLabels, useMembers, useProjects } from '../api/workspace-queries';
import { ConfirmModal } from '../ui/ConfirmDialog';
import { PRIORITIES, priorityName } from '../ui/format';
import { toast } from '../ui/toast';
import { t as tr } from '../i18n';

type Operation = 'updateStatus' | 'updatePriority' | 'updateAssignee' | 'addLabel' | 'removeLabel' | 'moveToProject' | 'delete';
/** One call of the bulk route (PATCH /api/task/bulk): all of its tasks change, or none. */
interface Change {
  operation: Operation;
  value?: string | null;
  taskIds: string[];
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));
const plural = (n: number) => tr('board.bulkBar.tasks', { count: n });

/** The calls that put each task back as it was: one per former value (the route sets one value for all). */
function undoBy<V extends string | null>(operation: Operation, tasks: Task[], before: (t: Task) => V): Change[] {
  const groups = new Map<V, string[]>();
  for (const t of tasks) groups.set(before(t), [...(groups.get(before(t)) ?? []), t.id]);
  return [...groups].map(([value, taskIds]) => ({ operation, value, taskIds }));
}

/**
 * What can be done to the selected tasks at once (docs/web.md, "Selecting many tasks"): status,
 * priority, assignee, add or remove a label, move to another project, delete. Each is one call of
 * the bulk route (all or nothing); a toast says what changed and offers "Undo" (the former values
 * put back the same way), but for a delete, which is asked first since nothing of it is kept.
 */
export function BulkBar(props: { workspaceId: string; projectId: string; selected: Task[]; columns: Column[]; detailsOf: Map<string, CardDetails>; onClear: () => void }) {
  const { workspaceId, projectId, selected, columns, detailsOf } = props;
  const queryClient = useQueryClient();
  const can = usePermissions(workspaceId);
  const members = useMembers(workspaceId);
  const labels = useLabels(workspaceId);
  const projects = useProjects(workspaceId);
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState(false);
  const n = selected.length;

  const send = async (changes: Change[]) => {
    for (const c of changes) {
      if (c.taskIds.length === 0) continue;
      must(await api.PATCH('/api/task/bulk', { body: { taskIds: c.taskIds, operation: c.operation, value: c.value } }));
    }
  };
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ['tasks'] });
    await refetchCardDetails(queryClient);
    await queryClient.invalidateQueries({ queryKey: ['task'] });
  };
  /** Runs `change`; on success a toast says `done` and, with `undo`, offers it. */
  const run = async (change: Change, done: string, undo?: Change[]) => {
    setBusy(true);
    try {
      await send([change]);
    } catch (err) {
      toast.show({ title: tr('board.bulkBar.couldNotChange', { plural: plural(change.taskIds.length) }), description: messageOf(err), tone: 'error' });
      return;
    } finally {
      setBusy(false);
      await refresh();
    }
    if (change.operation === 'delete' || change.operation === 'moveToProject') props.onClear();
    const back = async () => {
      try {
        await send(undo ?? []);
        toast.show({ title: tr('board.bulkBar.undone', { done }) });
      } catch (err) {
        toast.show({ title: tr('board.bulkBar.couldNotUndo'), description: messageOf(err), tone: 'error' });
      } finally {
        await refresh();
      }
    };
    toast.show({ title: done, action: undo ? { label: tr('board.bulkBar.undo'), run: () => void back() } : undefined });
  };

  const ids = selected.map((t) => t.id);
  const nameOfColumn = (slug: string) => columns.find((c) => c.slug === slug)?.name ?? slug;
  const memberName = (userId: string | null) => (userId ? (members.data?.find((m) => m.userId === userId)?.user?.name ?? tr('board.bulkBar.aMember')) : tr('board.bulkBar.nobody'));
  const canUpdate = can('task', 'update');
  const hasLabel = (t: Task, name: string) => (detailsOf.get(t.id)?.labels ?? []).some((l) => l.name.toLowerCase() === name.toLowerCase());
  const otherProjects = (projects.data ?? []).filter((p) => p.id !== projectId);

  return (
    <Toolbar className="bulk-bar" aria-label={tr('board.bulkBar.selectedTasks')}>
      <span className="bulk-count" aria-live="polite">
        {n} {tr('board.bulkBar.selected')}
      </span>
      {canUpdate && (
        <BulkMenu label={tr('board.bulkBar.status')} isDisabled={busy}>
          {columns.map((c) => (
            <MenuItem
              key={c.slug}
              className="menu-item"
              onAction={() =>
                void run(
                  { operation: 'updateStatus', value: c.slug, taskIds: ids },
                  tr('board.bulkBar.moved', { tasks: plural(n), column: c.name }),
                  undoBy('updateStatus', selected, (t) => t.status),
                )
              }
            >
              {c.name}
            </MenuItem>
          ))}
        </BulkMenu>
      )}
      {canUpdate && (
        <BulkMenu label={tr('board.bulkBar.priority')} isDisabled={busy}>
          {PRIORITIES.map((p) => (
            <MenuItem
              key={p}
              className="menu-item"
              onAction={() =>
                void run(
                  { operation: 'updatePriority', value: p, taskIds: ids },
                  tr('board.bulkBar.setPriority', { tasks: plural(n), priority: priorityName(p) }),
                  undoBy('updatePriority', selected, (t) => t.priority),
                )
              }
            >
              {priorityName(p)}
            </MenuItem>
          ))}
        </BulkMenu>
      )}
      {can('task', 'assign') && (
        <BulkMenu label={tr('board.bulkBar.assignee')} isDisabled={busy}>
          {[
            { userId: null as string | null, name: tr('board.bulkBar.unassignedOption') },
            ...(members.data ?? []).map((m) => ({ userId: m.userId, name: m.user?.name ?? m.userId })),
          ].map((m) => (
            <MenuItem
              key={m.userId ?? 'none'}
              className="menu-item"
              onAction={() =>
                void run(
                  { operation: 'updateAssignee', value: m.userId, taskIds: ids },
                  m.userId ? tr('board.bulkBar.assigned', { tasks: plural(n), name: memberName(m.userId) }) : tr('board.bulkBar.unassigned', { tasks: plural(n) }),
                  undoBy('updateAssignee', selected, (t) => t.userId ?? null),
                )
              }
            >
              {m.name}
            </MenuItem>
          ))}
        </BulkMenu>
      )}
      {can('label', 'update') && (labels.data?.length ?? 0) > 0 && (
        <BulkMenu label={tr('board.bulkBar.labels')} isDisabled={busy}>
          {(labels.data ?? []).flatMap((l) => {
            const without = selected.filter((t) => !hasLabel(t, l.name)).map((t) => t.id);
            const withIt = selected.filter((t) => hasLabel(t, l.name)).map((t) => t.id);
            // Add: to those that lack it (undone by removing it from them); remove: from those that have it.
            const items: [string, number, Change, Change, boolean][] = [
              [
                tr('board.bulkBar.addLabel', { label: l.name }),
                without.length,
                { operation: 'addLabel', value: l.id, taskIds: ids },
                { operation: 'removeLabel', value: l.name, taskIds: without },
                true,
              ],
              [
                tr('board.bulkBar.removeLabel', { label: l.name }),
                withIt.length,
                { operation: 'removeLabel', value: l.name, taskIds: ids },
                { operation: 'addLabel', value: l.id, taskIds: withIt },
                false,
              ],
            ];
            return items
              .filter(([, count]) => count > 0)
              .map(([name, count, change, undo, adds]) => (
                <MenuItem
                  key={name}
                  className="menu-item"
                  textValue={name}
                  onAction={() => void run(change, tr(adds ? 'board.bulkBar.addedLabel' : 'board.bulkBar.removedLabel', { label: l.name, tasks: plural(count) }), [undo])}
                >
                  <span className="dot" style={{ background: l.color }} aria-hidden="true" /> {name}
                </MenuItem>
              ));
          })}
        </BulkMenu>
      )}
      {canUpdate && otherProjects.length > 0 && (
        <BulkMenu label={tr('board.bulkBar.moveToProject')} isDisabled={busy}>
          {otherProjects.map((p) => (
            <MenuItem
              key={p.id}
              className="menu-item"
              onAction={() =>
                void run({ operation: 'moveToProject', value: p.id, taskIds: ids }, tr('board.bulkBar.moved', { tasks: plural(n), column: p.name }), [
                  { operation: 'moveToProject', value: projectId, taskIds: ids },
                ])
              }
            >
              {p.name}
            </MenuItem>
          ))}
        </BulkMenu>
      )}
      {can('task', 'delete') && (
        <Button className="danger" isDisabled={busy} onPress={() => setAsking(true)}>
          {tr('board.bulkBar.delete')}
        </Button>
      )}
      <Button className="secondary" onPress={props.onClear} aria-keyshortcuts="Escape">
        {tr('board.bulkBar.clearSelection')}
      </Button>
      <ConfirmModal
        isOpen={asking}
        onOpenChange={setAsking}
        title={tr('board.bulkBar.delete2', { plural: plural(n) })}
        confirmLabel={tr('board.bulkBar.delete3', { plural: plural(n) })}
        onConfirm={() => void run({ operation: 'delete', taskIds: ids }, tr('board.bulkBar.deleted', { tasks: plural(n) }))}
      >
        <p>
          {selected
            .slice(0, 5)
            .map((t) => t.title)
            .join(', ')}
          {n > 5 ? tr('board.bulkBar.andMore', { count: n - 5 }) : ''} {tr('board.bulkBar.willBeDeletedWithTheir')}
        </p>
        <p className="muted">
          {tr('board.bulkBar.in')} {[...new Set(selected.map((t) => nameOfColumn(t.status)))].join(', ')}
        </p>
      </ConfirmModal>
    </Toolbar>
  );
}

function BulkMenu({ label, isDisabled, children }: { label: string; isDisabled: boolean; children: ReactNode }) {
  return (
    <MenuTrigger>
      <Button className="secondary" isDisabled={isDisabled}>
        {label} ▾
      </Button>
      <Popover className="menu-popover" placement="top start">
        <Menu className="menu" aria-label={label}>
          {children}
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
