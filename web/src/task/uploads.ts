import { api, ApiError, errorMessage, must } from '../api/client';
import type { Asset } from '../api/types';

export type Surface = 'description' | 'comment' | 'attachment';

/** The raster image types a description or comment takes (the service checks the bytes too). */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/bmp', 'image/avif'];

/** Sends the bytes where the upload ticket says, reporting progress (0..1); fetch cannot report an upload's progress. */
function send(url: string, headers: Record<string, string>, file: Blob, onProgress?: (done: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress?.(e.loaded / e.total);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve();
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // A bucket answers XML: the status says enough.
      }
      reject(new ApiError(xhr.status, errorMessage(body, xhr.status, xhr.statusText)));
    };
    xhr.onerror = () => reject(new ApiError(0, 'The upload failed: the connection was lost'));
    xhr.send(file);
  });
}

/**
 * Uploads a file to a task in the service's three steps (docs/files.md, "Uploading"): ask, send
 * the bytes (to the bucket or the service's own URL), finalize. Answers the asset record.
 */
export async function uploadFile(taskId: string, file: File, surface: Surface, onProgress?: (done: number) => void): Promise<Asset> {
  const body = { filename: file.name || 'file', contentType: file.type || 'application/octet-stream', size: file.size, surface };
  const ticket = must(await api.PUT('/api/task/image-upload/{taskId}', { params: { path: { taskId } }, body }));
  await send(ticket.uploadUrl, ticket.headers, file, onProgress);
  return must(await api.POST('/api/task/image-upload/{taskId}/finalize', { params: { path: { taskId } }, body: { ...body, key: ticket.key } }));
}

/** The Markdown that shows an uploaded image: its name as the alternative text. */
export function imageMarkdown(asset: Asset): string {
  const alt = asset.filename.replace(/\.[a-z0-9]{2,5}$/i, '').replace(/[[\]\\]/g, '');
  return `![${alt}](${asset.url})`;
}

/** The images among a paste's or a drop's files. */
export const imagesOf = (files: FileList | null | undefined): File[] => [...(files ?? [])].filter((f) => IMAGE_TYPES.includes(f.type));
