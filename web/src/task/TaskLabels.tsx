import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, must } from '../api/client';
import { useLabels } from '../api/workspace-queries';
import { ErrorState, Loading } from '../ui/States';

/** A task's labels: tick them from the workspace's catalogue. */
export function TaskLabels({ workspaceId, taskId, editable }: { workspaceId: string; taskId: string; editable: boolean }) {
  const queryClient = useQueryClient();
  const catalogue = useLabels(workspaceId);
  const onTask = useQuery({ queryKey: ['task', taskId, 'labels'], queryFn: async () => must(await api.GET('/api/label/task/{taskId}', { params: { path: { taskId } } })) });
  // What was asked for, set in the click's own render (a controlled box would otherwise spring back until the request starts).
  const [asked, setAsked] = useState<Record<string, boolean>>({});
  const toggle = useMutation({
    mutationFn: async ({ id, on }: { id: string; on: boolean }) =>
      on
        ? must(await api.PUT('/api/label/{id}/task', { params: { path: { id } }, body: { taskId } }))
        : must(await api.DELETE('/api/label/{id}/task', { params: { path: { id } }, body: { taskId } })),
    onSettled: async (_data, _err, { id }) => {
      await queryClient.invalidateQueries({ queryKey: ['task', taskId, 'labels'] });
      // The list view's label filter reads which tasks carry which label from the workspace's list.
      await queryClient.invalidateQueries({ queryKey: ['labels', workspaceId] });
      setAsked(({ [id]: _done, ...rest }) => rest);
    },
  });
  const names = new Set(onTask.data?.map((l) => l.name));
  const catalogueLabels = catalogue.data?.filter((l) => l.taskId === null) ?? [];
  return (
    <section aria-labelledby="labels-h">
      <h3 id="labels-h">Labels</h3>
      {(catalogue.isPending || onTask.isPending) && <Loading what="labels" />}
      {catalogue.data && catalogueLabels.length === 0 && <p className="state">The workspace has no labels.</p>}
      <ul className="chips">
        {catalogueLabels.map((l) => (
          <li key={l.id}>
            <label className="chip">
              <input
                type="checkbox"
                // While the change is on its way, the box shows what was asked for.
                checked={asked[l.id] ?? names.has(l.name)}
                disabled={!editable || l.id in asked}
                onChange={(e) => {
                  const on = e.target.checked;
                  setAsked((a) => ({ ...a, [l.id]: on }));
                  toggle.mutate({ id: l.id, on });
                }}
              />
              <span style={{ borderColor: l.color }}>{l.name}</span>
            </label>
          </li>
        ))}
      </ul>
      {toggle.error && <ErrorState error={toggle.error} />}
    </section>
  );
}
