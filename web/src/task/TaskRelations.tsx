import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, must } from '../api/client';
import type { TaskRelation as Relation } from '../api/types';
import { ErrorState, Loading } from '../ui/States';
import { navigate } from '../app/router';
import { useProjects } from '../api/workspace-queries';
import { t as tr } from '../i18n';

type RelationType = Relation['relationType'];

/** How a relation reads from one of its ends: the kind the form offers, and which end this task is. */
const KINDS = [
  {
    value: 'subtask',
    get label() {
      return tr('task.taskRelations.kind.subtask');
    },
    type: 'subtask',
    thisIsSource: true,
  },
  {
    value: 'parent',
    get label() {
      return tr('task.taskRelations.kind.parent');
    },
    type: 'subtask',
    thisIsSource: false,
  },
  {
    value: 'blocks',
    get label() {
      return tr('task.taskRelations.kind.blocks');
    },
    type: 'blocks',
    thisIsSource: true,
  },
  {
    value: 'blocked',
    get label() {
      return tr('task.taskRelations.kind.blocked');
    },
    type: 'blocks',
    thisIsSource: false,
  },
  {
    value: 'related',
    get label() {
      return tr('task.taskRelations.kind.related');
    },
    type: 'related',
    thisIsSource: true,
  },
] as const satisfies readonly { value: string; label: string; type: RelationType; thisIsSource: boolean }[];

function reading(r: Relation, taskId: string): string {
  const source = r.sourceTaskId === taskId;
  return KINDS.find((k) => k.type === r.relationType && (k.type === 'related' || k.thisIsSource === source))!.label;
}

/**
 * A task's relations (subtask, blocks, related; GET/POST/DELETE /api/task-relation): each other
 * task opens on click; a member who may update tasks adds one by searching the workspace's tasks,
 * or removes one.
 */
export function TaskRelations({ workspaceId, taskId, editable }: { workspaceId: string; taskId: string; editable: boolean }) {
  const queryClient = useQueryClient();
  const relations = useQuery({
    queryKey: ['task', taskId, 'relations'],
    queryFn: async () => must(await api.GET('/api/task-relation/{taskId}', { params: { path: { taskId } } })),
  });
  const projects = useProjects(workspaceId);
  const keyOf = (t: { projectId: string; number: number }) => `${projects.data?.find((p) => p.id === t.projectId)?.slug ?? '#'}-${t.number}`;
  const [kind, setKind] = useState<(typeof KINDS)[number]['value']>('related');
  const [text, setText] = useState('');
  const q = text.trim();
  const found = useQuery({
    queryKey: ['search', workspaceId, q, 'tasks'],
    queryFn: async () => must(await api.GET('/api/search', { params: { query: { q, workspaceId, type: 'tasks', limit: 5 } } })),
    enabled: q.length > 0,
    staleTime: 5_000,
  });
  const refresh = () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: ['task', taskId, 'relations'] }), queryClient.invalidateQueries({ queryKey: ['task', taskId, 'activity'] })]);
  const add = useMutation({
    mutationFn: async (otherId: string) => {
      const k = KINDS.find((x) => x.value === kind)!;
      const [sourceTaskId, targetTaskId] = k.thisIsSource ? [taskId, otherId] : [otherId, taskId];
      return must(await api.POST('/api/task-relation', { body: { sourceTaskId, targetTaskId, relationType: k.type } }));
    },
    onSuccess: async () => {
      setText('');
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: async (id: string) => must(await api.DELETE('/api/task-relation/{id}', { params: { path: { id } } })),
    onSettled: refresh,
  });
  const candidates = found.data?.tasks.filter((t) => t.id !== taskId) ?? [];
  return (
    <section aria-labelledby="relations-h">
      <h3 id="relations-h">{tr('task.taskRelations.relations')}</h3>
      {relations.isPending && <Loading what={tr('task.taskRelations.relations2')} />}
      {relations.error && <ErrorState error={relations.error} />}
      {relations.data?.length === 0 && <p className="state">{tr('task.taskRelations.noRelatedTasks')}</p>}
      <ul className="relations">
        {relations.data?.map((r) => {
          const other = r.sourceTaskId === taskId ? r.targetTask : r.sourceTask;
          return (
            <li key={r.id}>
              <span className="muted">{reading(r, taskId)}</span>{' '}
              <button type="button" className="link" onClick={() => navigate(`/w/${workspaceId}/p/${other.projectId}/t/${other.id}`)}>
                {keyOf(other)} {other.title}
              </button>
              {editable && (
                <button
                  type="button"
                  className="link"
                  aria-label={tr('task.taskRelations.removeTheRelationTo', { title: other.title })}
                  disabled={remove.isPending}
                  onClick={() => remove.mutate(r.id)}
                >
                  {tr('task.taskRelations.remove')}
                </button>
              )}
            </li>
          );
        })}
      </ul>
      {remove.error && <ErrorState error={remove.error} />}
      {editable && (
        <div className="inline-form">
          <label>
            {tr('task.taskRelations.kindOfRelation')}
            <select value={kind} onChange={(e) => setKind(e.target.value as typeof kind)}>
              {KINDS.map((k) => (
                <option key={k.value} value={k.value}>
                  {k.label}
                </option>
              ))}
            </select>
          </label>
          <label>
            {tr('task.taskRelations.findATask')}
            <input value={text} onChange={(e) => setText(e.target.value)} placeholder={tr('task.taskRelations.keyOrWordsOfIts')} />
          </label>
        </div>
      )}
      {editable && q && found.data && candidates.length === 0 && <p className="state">{tr('task.taskRelations.noTaskMatches')}</p>}
      {editable && candidates.length > 0 && (
        <ul className="relations" aria-label={tr('task.taskRelations.matchingTasks')}>
          {candidates.map((t) => (
            <li key={t.id}>
              <button type="button" className="secondary" disabled={add.isPending} onClick={() => add.mutate(t.id)}>
                {tr('task.taskRelations.relate', { key: keyOf(t), title: t.title })}
              </button>
            </li>
          ))}
        </ul>
      )}
      {add.error && <ErrorState error={add.error} />}
    </section>
  );
}
