import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, DropZone, FileTrigger, ProgressBar, Text } from 'react-aria-components';
import { api, must } from '../api/client';
import { useSession } from '../api/session';
import { refetchCardDetails } from '../api/workspace-queries';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { ErrorState, Loading } from '../ui/States';
import { formatDateTime, formatNumber, t } from '../i18n';
import { uploadFile } from './uploads';

/** A size as people read it, in the reader's locale: 312 bytes, 48 KB, 2.4 MB. */
export function fileSize(bytes: number): string {
  if (bytes < 1024) return t('task.taskAttachments.bytes', { count: bytes });
  const unit = bytes < 1024 * 1024 ? 'kilobyte' : 'megabyte';
  const value = bytes / (unit === 'kilobyte' ? 1024 : 1024 * 1024);
  return formatNumber(value, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: value < 10 ? 1 : 0 });
}

/** A file's extension in capitals (`PDF`), shown on its thumbnail; empty when it has none. */
export const extensionOf = (filename: string): string => /\.([a-z0-9]{1,5})$/i.exec(filename)?.[1]?.toUpperCase() ?? '';

interface Sending {
  id: number;
  name: string;
  done: number;
}

/**
 * A task's attachments (docs/files.md): newest first, each with a thumbnail when it is an image,
 * its size, who added it and when, a download link and (for its uploader or whoever may change
 * the task) delete. Files are added with the button or dropped on the list; each shows a progress
 * bar while it uploads.
 */
export function TaskAttachments({ taskId, editable }: { taskId: string; editable: boolean }) {
  const queryClient = useQueryClient();
  const me = useSession().data?.user.id;
  const assets = useQuery({ queryKey: ['task', taskId, 'assets'], queryFn: async () => must(await api.GET('/api/asset/task/{taskId}', { params: { path: { taskId } } })) });
  const [sending, setSending] = useState<Sending[]>([]);
  const [failure, setFailure] = useState<unknown>(null);
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ['task', taskId, 'assets'] });
    // The cards count a task's attachments (BoardPage.tsx, card details).
    await refetchCardDetails(queryClient);
  };
  const remove = useMutation({ mutationFn: async (id: string) => must(await api.DELETE('/api/asset/{id}', { params: { path: { id } } })), onSettled: refresh });

  const add = (files: File[]) => {
    setFailure(null);
    for (const file of files) {
      const id = Math.random();
      setSending((s) => [...s, { id, name: file.name, done: 0 }]);
      uploadFile(taskId, file, 'attachment', (done) => setSending((s) => s.map((x) => (x.id === id ? { ...x, done } : x))))
        .then(refresh)
        .catch(setFailure)
        .finally(() => setSending((s) => s.filter((x) => x.id !== id)));
    }
  };
  const list = assets.data?.filter((a) => a.surface === 'attachment') ?? [];

  const body = (
    <>
      {assets.isPending && <Loading what={t('task.taskAttachments.attachments2')} />}
      {assets.error && <ErrorState error={assets.error} />}
      {assets.data && list.length === 0 && !sending.length && <p className="state">{t('task.taskAttachments.none')}</p>}
      <ul className="attachments">
        {list.map((a) => (
          <li key={a.id} className="attachment">
            {a.isImage ? (
              <img className="thumb" src={a.url} alt="" loading="lazy" />
            ) : (
              <span className="thumb file-thumb" aria-hidden="true">
                {extensionOf(a.filename)}
              </span>
            )}
            <span className="attachment-text">
              <a href={a.url} download={a.filename} title={a.filename}>
                {a.filename}
              </a>
              <span className="muted">
                {t('task.taskAttachments.meta', { size: fileSize(a.size), name: a.uploadedBy?.name ?? t('task.taskAttachments.formerMember'), when: formatDateTime(a.createdAt) })}
              </span>
            </span>
            {(editable || a.uploadedBy?.id === me) && (
              <ConfirmDialog
                label={t('task.taskAttachments.delete')}
                ariaLabel={t('task.taskAttachments.deleteNamed', { name: a.filename })}
                title={t('task.taskAttachments.deleteQuestion')}
                confirmLabel={t('task.taskAttachments.delete')}
                onConfirm={() => remove.mutate(a.id)}
                className="link"
              >
                <p>{t('task.taskAttachments.deleteBody', { name: a.filename })}</p>
              </ConfirmDialog>
            )}
          </li>
        ))}
        {sending.map((s) => (
          <li key={s.id} className="attachment">
            <ProgressBar value={s.done * 100} className="upload-progress" aria-label={t('task.taskAttachments.uploadingNamed', { name: s.name })}>
              {({ percentage }) => (
                <>
                  <Text slot="description">{s.name}</Text>
                  <div className="bar">
                    <div className="fill" style={{ width: `${percentage ?? 0}%` }} />
                  </div>
                </>
              )}
            </ProgressBar>
          </li>
        ))}
      </ul>
      {failure ? <ErrorState error={failure} /> : null}
      {remove.error && <ErrorState error={remove.error} />}
    </>
  );

  return (
    <section aria-labelledby="attachments-h">
      <h3 id="attachments-h">{t('task.taskAttachments.attachments')}</h3>
      {editable ? (
        <DropZone
          className="drop-zone"
          aria-label={t('task.taskAttachments.dropHere')}
          onDrop={(e) => {
            void Promise.all(e.items.filter((i) => i.kind === 'file').map((i) => (i as { getFile(): Promise<File> }).getFile())).then(add);
          }}
        >
          {body}
          <FileTrigger allowsMultiple onSelect={(files) => files && add([...files])}>
            <Button className="secondary">{t('task.taskAttachments.addFiles')}</Button>
          </FileTrigger>
          <span className="hint"> {t('task.taskAttachments.orDrop')}</span>
        </DropZone>
      ) : (
        body
      )}
    </section>
  );
}
