import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, must } from '../api/client';
import { useSession } from '../api/session';
import { ErrorState, Loading } from '../ui/States';

/** A task's comments, oldest first: add one; edit or delete your own. */
export function TaskComments({ taskId, canComment }: { workspaceId: string; taskId: string; canComment: boolean }) {
  const queryClient = useQueryClient();
  const me = useSession().data?.user.id;
  const comments = useQuery({ queryKey: ['task', taskId, 'comments'], queryFn: async () => must(await api.GET('/api/comment/{taskId}', { params: { path: { taskId } } })) });
  const [comment, setComment] = useState('');
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['task', taskId, 'comments'] });
  const add = useMutation({
    mutationFn: async () => must(await api.POST('/api/comment/{taskId}', { params: { path: { taskId } }, body: { content: comment } })),
    onSuccess: async () => {
      setComment('');
      await refresh();
    },
  });
  const remove = useMutation({ mutationFn: async (id: string) => must(await api.DELETE('/api/comment/{id}', { params: { path: { id } } })), onSettled: refresh });
  const edit = useMutation({
    mutationFn: async ({ id, content }: { id: string; content: string }) => must(await api.PUT('/api/comment/{id}', { params: { path: { id } }, body: { content } })),
    onSettled: refresh,
  });
  return (
    <section aria-labelledby="comments-h">
      <h3 id="comments-h">Comments</h3>
      {comments.isPending && <Loading what="comments" />}
      {comments.error && <ErrorState error={comments.error} />}
      {comments.data?.length === 0 && <p className="state">No comments yet.</p>}
      <ul className="comments">
        {comments.data?.map((c) => (
          <li key={c.id}>
            <p>{c.content}</p>
            <time dateTime={c.createdAt}>{new Date(c.createdAt).toLocaleString()}</time>
            {c.userId === me && (
              <span className="actions">
                <button
                  type="button"
                  className="link"
                  onClick={() => {
                    const content = window.prompt('Edit your comment', c.content ?? '');
                    if (content && content !== c.content) edit.mutate({ id: c.id, content });
                  }}
                >
                  Edit comment
                </button>
                <button type="button" className="link" onClick={() => window.confirm('Delete this comment?') && remove.mutate(c.id)}>
                  Delete comment
                </button>
              </span>
            )}
          </li>
        ))}
      </ul>
      {(edit.error ?? remove.error) && <ErrorState error={edit.error ?? remove.error} />}
      {canComment && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (comment.trim()) add.mutate();
          }}
          className="stack"
        >
          <label>
            Add a comment
            <textarea value={comment} onChange={(e) => setComment(e.target.value)} rows={3} />
          </label>
          {add.error && <ErrorState error={add.error} />}
          <button type="submit" disabled={add.isPending || !comment.trim()}>
            Comment
          </button>
        </form>
      )}
    </section>
  );
}
