import { iso } from '../../database/sql';

export const SURFACES = ['description', 'comment', 'attachment'] as const;
export type AssetSurface = (typeof SURFACES)[number];

/** Surfaces whose file must be a raster image (shown inside the text). */
export const IMAGE_SURFACES: readonly AssetSurface[] = ['description', 'comment'];

export interface AssetRow {
  id: string;
  workspace_id: string;
  task_id: string;
  comment_id: string | null;
  surface: AssetSurface;
  storage_key: string;
  filename: string;
  content_type: string;
  /** bigint: pg hands it over as text. */
  size: string | number;
  is_image: boolean;
  uploaded_by: string | null;
  uploader_name: string | null;
  status: 'pending' | 'ready';
  created_at: Date;
}

export const ASSET_FIELDS =
  'a.id, a.workspace_id, a.task_id, a.comment_id, a.surface, a.storage_key, a.filename, a.content_type, a.size, a.is_image, a.uploaded_by, a.status, a.created_at';

/** The wire shape of an asset (docs/files.md, "The asset record"). */
export interface AssetRecord {
  id: string;
  taskId: string;
  filename: string;
  contentType: string;
  size: number;
  surface: AssetSurface;
  /** Where its bytes are read: `/api/asset/:id` (relative to the service's origin, as the original's). */
  url: string;
  /** A raster image (by its bytes): shown inline and as a thumbnail. */
  isImage: boolean;
  /** Null once the uploader's account is gone. */
  uploadedBy: { id: string; name: string } | null;
  createdAt: string;
}

export const assetUrl = (id: string): string => `/api/asset/${id}`;

export const toAssetRecord = (r: AssetRow): AssetRecord => ({
  id: r.id,
  taskId: r.task_id,
  filename: r.filename,
  contentType: r.content_type,
  size: Number(r.size),
  surface: r.surface,
  url: assetUrl(r.id),
  isImage: r.is_image,
  uploadedBy: r.uploaded_by ? { id: r.uploaded_by, name: r.uploader_name ?? '' } : null,
  createdAt: iso(r.created_at)!,
});

/** The answer to an upload request: where to send the bytes, and the key to finalize with. */
export interface UploadTicket {
  key: string;
  uploadUrl: string;
  headers: Record<string, string>;
  /** When uploadUrl stops working. */
  expiresAt: string;
}
