import { useQueryClient } from '@tanstack/react-query';
import { useState, type ClipboardEvent, type DragEvent, type RefObject } from 'react';
import { imageMarkdown, imagesOf, uploadFile, type Surface } from './uploads';

/**
 * Pasting or dropping images into a Markdown text area (a description or a comment): each image is
 * uploaded to the task, then its Markdown is put where the cursor was. Other pastes and drops
 * (text) go on as usual.
 */
export function useImagePaste(
  taskId: string,
  surface: Extract<Surface, 'description' | 'comment'>,
  area: RefObject<HTMLTextAreaElement | null>,
  setText: (update: (text: string) => string) => void,
) {
  const queryClient = useQueryClient();
  const [uploading, setUploading] = useState(0);
  const [error, setError] = useState<unknown>(null);

  const take = (files: File[]) => {
    if (!files.length) return false;
    const at = area.current?.selectionStart ?? Number.MAX_SAFE_INTEGER;
    setError(null);
    setUploading((n) => n + files.length);
    void (async () => {
      const done: string[] = [];
      for (const file of files) {
        try {
          done.push(imageMarkdown(await uploadFile(taskId, file, surface)));
        } catch (err) {
          setError(err);
        } finally {
          setUploading((n) => n - 1);
        }
      }
      if (!done.length) return;
      const inserted = done.join('\n');
      setText((text) => {
        const pos = Math.min(at, text.length);
        const before = text.slice(0, pos);
        const lead = before && !before.endsWith('\n') ? '\n' : '';
        return `${before}${lead}${inserted}\n${text.slice(pos)}`;
      });
      await queryClient.invalidateQueries({ queryKey: ['task', taskId, 'assets'] });
    })();
    return true;
  };

  return {
    uploading,
    error,
    handlers: {
      onPaste: (e: ClipboardEvent<HTMLTextAreaElement>) => {
        if (take(imagesOf(e.clipboardData?.files))) e.preventDefault();
      },
      onDragOver: (e: DragEvent<HTMLTextAreaElement>) => {
        if ([...(e.dataTransfer?.items ?? [])].some((i) => i.kind === 'file')) e.preventDefault();
      },
      onDrop: (e: DragEvent<HTMLTextAreaElement>) => {
        if (take(imagesOf(e.dataTransfer?.files))) e.preventDefault();
      },
    },
  };
}
