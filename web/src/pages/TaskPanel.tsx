import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api, must } from '../api/client';
import type { Column } from '../api/types';
import { ErrorState, Loading } from '../components/States';

/** An open task: its fields, its status, and its comments (with adding one). */
export function TaskPanel({ taskId, projectSlug, columns, onClose }: { taskId: string; projectSlug: string; columns: Column[]; onClose: () => void }) {
  const queryClient = useQueryClient();
  const task = useQuery({ queryKey: ['task', taskId], queryFn: async () => must(await api.GET('/api/task/{id}', { params: { path: { id: taskId } } })) });
  const comments = useQuery({ queryKey: ['task', taskId, 'comments'], queryFn: async () => must(await api.GET('/api/comment/{taskId}', { params: { path: { taskId } } })) });
  const [comment, setComment] = useState('');
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => closeRef.current?.focus(), [taskId]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  const setStatus = useMutation({
    mutationFn: async (status: string) => must(await api.PUT('/api/task/status/{id}', { params: { path: { id: taskId } }, body: { status } })),
    onSuccess: async (t) => {
      queryClient.setQueryData(['task', taskId], t);
      await queryClient.invalidateQueries({ queryKey: ['tasks', t.projectId] });
    },
  });
  const addComment = useMutation({
    mutationFn: async () => must(await api.POST('/api/comment/{taskId}', { params: { path: { taskId } }, body: { content: comment } })),
    onSuccess: async () => {
      setComment('');
      await queryClient.invalidateQueries({ queryKey: ['task', taskId, 'comments'] });
    },
  });
  const onComment = (e: FormEvent) => {
    e.preventDefault();
    if (comment.trim()) addComment.mutate();
  };

  return (
    <aside className="panel" role="dialog" aria-modal="false" aria-labelledby="task-title">
      <button type="button" ref={closeRef} className="close" onClick={onClose} aria-label="Close task">
        ×
      </button>
      {task.isPending && <Loading what="the task" />}
      {task.error && <ErrorState error={task.error} />}
      {task.data && (
        <>
          <p className="key">
            {projectSlug}-{task.data.number}
          </p>
          <h2 id="task-title">{task.data.title}</h2>
          <label>
            Status
            <select value={task.data.status} onChange={(e) => setStatus.mutate(e.target.value)} disabled={setStatus.isPending}>
              {columns.map((c) => (
                <option key={c.id} value={c.slug}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
          {setStatus.error && <ErrorState error={setStatus.error} />}
          <section aria-labelledby="desc-h">
            <h3 id="desc-h">Description</h3>
            {/* Plain text: React escapes it, so no markup in a description can run. */}
            <p className="description">{task.data.description ?? 'No description.'}</p>
          </section>
          <section aria-labelledby="comments-h">
            <h3 id="comments-h">Comments</h3>
            {comments.isPending && <Loading what="comments" />}
            {comments.error && <ErrorState error={comments.error} />}
            <ul className="comments">
              {comments.data?.map((c) => (
                <li key={c.id}>
                  <p>{c.content}</p>
                  <time dateTime={c.createdAt}>{new Date(c.createdAt).toLocaleString()}</time>
                </li>
              ))}
            </ul>
            <form onSubmit={onComment} className="stack">
              <label>
                Add a comment
                <textarea value={comment} onChange={(e) => setComment(e.target.value)} rows={3} />
              </label>
              {addComment.error && <ErrorState error={addComment.error} />}
              <button type="submit" disabled={addComment.isPending || !comment.trim()}>
                Comment
              </button>
            </form>
          </section>
        </>
      )}
    </aside>
  );
}
