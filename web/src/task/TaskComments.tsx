import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { api, must } from '../api/client';
import { useSession } from '../api/session';
import type { Member } from '../api/types';
import { refetchCardDetails, useMembers } from '../api/workspace-queries';
import { Avatar } from '../ui/avatar';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { Markdown } from '../ui/Markdown';
import { useImagePaste } from './image-paste';
import { useMentionPicker } from './mention-picker';
import { MarkdownTextarea } from './MarkdownTextarea';
import { PasteStatus } from './PasteStatus';
import { ErrorState, Loading } from '../ui/States';
import { formatDateTime, t } from '../i18n';

type Comment = { id: string; userId: string | null; content: string | null; createdAt: string; externalUserName: string | null };

/** Who wrote a comment: the member's name (the comment answer carries only the user id), the external author's, or a stand-in. */
function authorName(c: Comment, members: Member[] | undefined): string {
  if (c.userId) {
    const m = members?.find((x) => x.userId === c.userId);
    return m?.user?.name ?? (members ? t('task.taskComments.formerMember') : '…');
  }
  return c.externalUserName ?? t('task.taskComments.unknownAuthor');
}

/** A task's comments, oldest first: each with its author and time, in Markdown; add one; edit or delete your own. */
export function TaskComments({ workspaceId, taskId, canComment }: { workspaceId: string; taskId: string; canComment: boolean }) {
  const queryClient = useQueryClient();
  const me = useSession().data?.user.id;
  const members = useMembers(workspaceId);
  const comments = useQuery({ queryKey: ['task', taskId, 'comments'], queryFn: async () => must(await api.GET('/api/comment/{taskId}', { params: { path: { taskId } } })) });
  const [comment, setComment] = useState('');
  const area = useRef<HTMLTextAreaElement>(null);
  const images = useImagePaste(taskId, 'comment', area, setComment);
  const mentions = useMentionPicker(workspaceId, area, setComment);
  // A comment is in the task's activity and in its card's count (BoardPage.tsx, card details).
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['task', taskId, 'comments'] }),
      queryClient.invalidateQueries({ queryKey: ['task', taskId, 'activity'] }),
      refetchCardDetails(queryClient),
    ]);
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
      <h3 id="comments-h">{t('task.taskComments.comments')}</h3>
      {comments.isPending && <Loading what={t('task.taskComments.comments2')} />}
      {comments.error && <ErrorState error={comments.error} />}
      {comments.data?.length === 0 && <p className="state">{t('task.taskComments.noCommentsYet')}</p>}
      <ul className="comments">
        {comments.data?.map((c) => (
          <CommentItem
            key={c.id}
            workspaceId={workspaceId}
            taskId={taskId}
            comment={c}
            author={authorName(c, members.data)}
            mine={!!me && c.userId === me}
            onEdit={(content) => edit.mutate({ id: c.id, content })}
            onDelete={() => remove.mutate(c.id)}
          />
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
          <label className="mention-host">
            {t('task.taskComments.addAComment')}
            <MarkdownTextarea area={area} value={comment} onChange={setComment} rows={3} images={images} mentions={mentions} />
          </label>
          <PasteStatus uploading={images.uploading} error={images.error} />
          {add.error && <ErrorState error={add.error} />}
          <button type="submit" disabled={add.isPending || !comment.trim() || images.uploading > 0}>
            {t('task.taskComments.comment')}
          </button>
        </form>
      )}
    </section>
  );
}

/** One comment; its author edits it in place (Escape cancels, the focus goes back to its Edit button). */
function CommentItem(props: { workspaceId: string; taskId: string; comment: Comment; author: string; mine: boolean; onEdit: (content: string) => void; onDelete: () => void }) {
  const { comment: c, author, mine } = props;
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(c.content ?? '');
  const area = useRef<HTMLTextAreaElement>(null);
  const images = useImagePaste(props.taskId, 'comment', area, setText);
  const mentions = useMentionPicker(props.workspaceId, area, setText);
  const editButton = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);
  useEffect(() => {
    if (!editing && returnFocus.current) {
      returnFocus.current = false;
      editButton.current?.focus();
    }
  }, [editing]);
  const close = () => {
    returnFocus.current = true;
    setEditing(false);
  };
  const save = () => {
    if (text.trim() && text !== c.content) props.onEdit(text);
    close();
  };
  const created = new Date(c.createdAt);
  return (
    <li className="comment">
      <div className="comment-head">
        <Avatar name={author} />
        <span className="comment-author">{author}</span>
        <time dateTime={c.createdAt} title={formatDateTime(created)}>
          {formatDateTime(created)}
        </time>
      </div>
      {editing ? (
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            save();
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              // Cancels the edit only (the panel closes on Escape otherwise).
              e.preventDefault();
              e.stopPropagation();
              setText(c.content ?? '');
              close();
            } else if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              save();
            }
          }}
        >
          <label className="mention-host">
            <span className="visually-hidden">{t('task.taskComments.editYourCommentMarkdown')}</span>
            <MarkdownTextarea area={area} value={text} onChange={setText} rows={3} autoFocus images={images} mentions={mentions} />
          </label>
          <PasteStatus uploading={images.uploading} error={images.error} />
          <div className="actions">
            <button type="submit" disabled={!text.trim()}>
              {t('task.taskComments.saveComment')}
            </button>
            <button
              type="button"
              className="secondary"
              onClick={() => {
                setText(c.content ?? '');
                close();
              }}
            >
              {t('common.cancel')}
            </button>
          </div>
        </form>
      ) : (
        <>
          <div className="comment-body">
            <Markdown>{c.content ?? ''}</Markdown>
          </div>
          {mine && (
            <span className="actions">
              <button
                type="button"
                ref={editButton}
                className="link"
                onClick={() => {
                  setText(c.content ?? '');
                  setEditing(true);
                }}
              >
                {t('task.taskComments.editComment')}
              </button>
              <ConfirmDialog
                label={t('task.taskComments.deleteComment')}
                title={t('task.taskComments.deleteThisComment')}
                confirmLabel={t('task.taskComments.delete')}
                onConfirm={props.onDelete}
                className="link"
              >
                <p>{t('task.taskComments.itIsRemovedForEveryone')}</p>
              </ConfirmDialog>
            </span>
          )}
        </>
      )}
    </li>
  );
}
