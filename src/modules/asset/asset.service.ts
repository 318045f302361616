import {
  BadRequestException,
  ForbiddenException,
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  PayloadTooLargeException,
  UnauthorizedException,
} from '@nestjs/common';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { keyScopeAllows } from '../../common/decorators/api-key-scope.decorator';
import { AuthUser } from '../../common/decorators/current-user.decorator';
import { ResolvedScope } from '../../common/decorators/require-permission.decorator';
import { isUuid } from '../../common/pipes/id.pipe';
import { hasPermission, insufficientPermissions } from '../../common/permissions/permissions';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { bareType, contentDisposition, parseRange, RASTER_IMAGE_TYPES, safeFilename, SNIFF_BYTES, sniffRasterImage } from './asset-files';
import { AssetRecord, IMAGE_SURFACES, toAssetRecord, UploadTicket } from './asset.record';
import { AssetRepository } from './asset.repository';
import { FinalizeUploadDto, RequestUploadDto } from './dto/upload.dto';
import { FILE_STORE, FileStore } from './storage/file-store';
import { LocalFileStore, UploadSizeError } from './storage/local-file-store';

export const ASSET_NOT_FOUND = 'Asset not found';
export const UPLOAD_URL_REFUSED = 'This upload URL is not valid: it was used already, has expired or was never issued';
const IMAGE_KINDS = 'PNG, JPEG, GIF, WebP, BMP or AVIF';

const MIB = 1024 * 1024;
/** A size as people read it: `10 MiB`, `512 KiB`, `300 bytes`. */
export const readableBytes = (n: number): string =>
  n >= MIB && n % (MIB / 10) === 0 ? `${+(n / MIB).toFixed(1)} MiB` : n >= 1024 && n % 1024 === 0 ? `${n / 1024} KiB` : `${n} bytes`;

const tokenHash = (token: string): Buffer => createHash('sha256').update(token).digest();

/**
 * Images and attachments of tasks (docs/files.md): the three-step upload (request, send the bytes,
 * finalize), reading with the safety headers and byte ranges, listing and deleting. Bytes never
 * pass through memory whole: they stream between the client and the file store.
 */
@Injectable()
export class AssetService {
  private readonly logger = new Logger(AssetService.name);

  constructor(
    private readonly assets: AssetRepository,
    @Inject(FILE_STORE) private readonly store: FileStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Step one: checks what the client declares and reserves its room in the workspace's quota. */
  async requestUpload(workspaceId: string, user: AuthUser, taskId: string, dto: RequestUploadDto, origin: string): Promise<UploadTicket> {
    const surface = dto.surface ?? 'description';
    const files = this.config.files;
    const image = IMAGE_SURFACES.includes(surface);
    if (image && !RASTER_IMAGE_TYPES.includes(bareType(dto.contentType))) {
      throw new BadRequestException(`An image of a ${surface} must be a raster image (${IMAGE_KINDS}), not ${bareType(dto.contentType)}`);
    }
    const limit = image ? files.maxImageBytes : files.maxAttachmentBytes;
    if (dto.size > limit) throw new PayloadTooLargeException(`The file is larger than the ${readableBytes(limit)} allowed for ${image ? 'an image' : 'an attachment'}`);
    const id = randomUUID();
    const key = `assets/${workspaceId}/${id}`;
    const token = this.store.kind === 'local' ? randomBytes(32).toString('base64url') : null;
    const contentType = dto.contentType.trim();
    const reserved = await this.assets.reserve(
      workspaceId,
      {
        id,
        taskId,
        surface,
        storageKey: key,
        filename: safeFilename(dto.filename),
        contentType,
        size: dto.size,
        uploadedBy: user.id,
        uploadTokenHash: token ? tokenHash(token) : null,
      },
      files.workspaceQuotaBytes,
    );
    if (reserved === null)
      throw new PayloadTooLargeException(`The workspace has no room left for this file: its files may take ${readableBytes(files.workspaceQuotaBytes)} in all`);
    if (!reserved) throw new NotFoundException('Task not found'); // deleted since the permission check
    const base = files.publicApiUrlSet ? this.config.publicApiUrl : origin;
    const target = await this.store.uploadTarget(key, { contentType, size: dto.size, serviceUrl: `${base}/api/asset/upload/${id}?token=${token}` });
    return { key, uploadUrl: target.url, headers: target.headers, expiresAt: new Date(Date.now() + files.uploadTtlSeconds * 1000).toISOString() };
  }

  /**
   * Step two with the local store: the bytes, sent to the one-use URL of step one, stream to disk.
   * Refused (403) when the URL is not valid; 400 when the bytes are not the declared ones.
   */
  async receiveUpload(id: string, token: unknown, req: Request): Promise<{ key: string; size: number }> {
    if (!(this.store instanceof LocalFileStore)) throw new NotFoundException('Uploads go to the S3 bucket: this service receives none');
    if (!isUuid(id) || typeof token !== 'string' || !token) throw new ForbiddenException(UPLOAD_URL_REFUSED);
    const hash = tokenHash(token);
    const ttl = this.config.files.uploadTtlSeconds;
    // The request's headers are judged before the URL is used up: a wrong type or length leaves it usable.
    const waiting = await this.assets.findUnclaimed(id.toLowerCase(), hash, ttl);
    if (!waiting) throw new ForbiddenException(UPLOAD_URL_REFUSED);
    const size = Number(waiting.size);
    const sentType = req.headers['content-type'];
    if (typeof sentType !== 'string' || sentType.trim().toLowerCase() !== waiting.content_type.toLowerCase()) {
      throw new BadRequestException(`Content-Type must be the declared ${waiting.content_type}`);
    }
    const length = req.headers['content-length'];
    if (length !== undefined && Number(length) !== size) throw new BadRequestException(`Content-Length must be the declared ${size}`);
    const claimed = await this.assets.claimUpload(waiting.id, hash, ttl);
    if (!claimed) throw new ForbiddenException(UPLOAD_URL_REFUSED);
    try {
      await this.store.write(claimed.storage_key, req, size);
    } catch (err) {
      if (err instanceof UploadSizeError) throw new BadRequestException(err.message);
      if ((err as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE' || (err as NodeJS.ErrnoException).code === 'ECONNRESET') {
        throw new BadRequestException('The upload was interrupted');
      }
      throw err;
    }
    return { key: claimed.storage_key, size };
  }

  /**
   * Step three: the stored object must be there with the declared size, and an image of a
   * description or comment must be a raster image by its first bytes; else 400 and the object
   * is removed. Finalizing a finished upload again answers its record.
   */
  async finalize(workspaceId: string, user: AuthUser, taskId: string, dto: FinalizeUploadDto): Promise<AssetRecord> {
    const row = await this.assets.findUpload(workspaceId, taskId, dto.key, user.id);
    if (!row) throw new BadRequestException('No upload of this task has this key');
    if (row.status === 'ready') return toAssetRecord(row);
    const declared = Number(row.size);
    const stored = await this.store.stat(row.storage_key);
    if (!stored || stored.size !== declared) {
      await this.assets.deleteById(row.id);
      throw new BadRequestException(stored ? `The uploaded file has ${stored.size} bytes, not the declared ${declared}` : 'Nothing was uploaded with this key');
    }
    const sniffed = sniffRasterImage(await this.store.readStart(row.storage_key, SNIFF_BYTES));
    if (IMAGE_SURFACES.includes(row.surface) && !sniffed) {
      await this.assets.deleteById(row.id);
      throw new BadRequestException(`The uploaded file is not a raster image (${IMAGE_KINDS})`);
    }
    const ready = await this.assets.markReady(row.id, sniffed ?? row.content_type, sniffed !== null);
    if (!ready) throw new BadRequestException('No upload of this task has this key'); // deleted meanwhile (its task went)
    return toAssetRecord(ready);
  }

  async listOfTask(workspaceId: string, taskId: string): Promise<AssetRecord[]> {
    return (await this.assets.listOfTask(workspaceId, taskId)).map(toAssetRecord);
  }

  /** Its uploader may delete a file, and whoever may change the task. */
  async remove(scope: ResolvedScope, user: AuthUser, id: string): Promise<AssetRecord> {
    const row = await this.assets.findInWorkspace(scope.workspaceId, id);
    if (!row) throw new NotFoundException(ASSET_NOT_FOUND);
    const keyScopes = user.apiKey?.permissions;
    if (keyScopes && !keyScopeAllows(keyScopes, 'task', 'update')) throw new ForbiddenException('Insufficient API key scope');
    if (row.uploaded_by !== user.id && !hasPermission(scope.permissions, 'task', 'update')) throw new ForbiddenException(insufficientPermissions('task', 'update'));
    const gone = await this.assets.deleteInWorkspace(scope.workspaceId, id);
    if (!gone) throw new NotFoundException(ASSET_NOT_FOUND);
    return toAssetRecord(gone);
  }

  /**
   * Streams a file with the safety headers of docs/files.md, "Safety" (raster images inline,
   * everything else as a download; never sniffed, never run) and one byte range when asked.
   * Members read their workspace's files; anyone reads a public project's. To a signed-out
   * caller any other id is 401, to a signed-in one 404.
   */
  async download(user: AuthUser | null, id: string, req: Request, res: Response): Promise<void> {
    const row = isUuid(id) ? await this.assets.findForReader(id.toLowerCase(), user?.id ?? null) : undefined;
    if (!row || (!row.is_member && !row.is_public)) {
      if (!user) throw new UnauthorizedException('Unauthorized');
      throw new NotFoundException(ASSET_NOT_FOUND);
    }
    const size = Number(row.size);
    const range = parseRange(typeof req.headers.range === 'string' ? req.headers.range : undefined, size);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Content-Security-Policy', 'sandbox');
    res.setHeader('Accept-Ranges', 'bytes');
    if (range === 'unsatisfiable') {
      res.setHeader('Content-Range', `bytes */${size}`);
      throw new HttpException({ message: `The range is outside the file's ${size} bytes` }, HttpStatus.REQUESTED_RANGE_NOT_SATISFIABLE);
    }
    let body;
    try {
      body = await this.store.open(row.storage_key, range === 'whole' ? undefined : range);
    } catch (err) {
      this.logger.warn(`asset ${row.id}: its file cannot be read (${(err as Error).message})`);
      throw new NotFoundException('The file of this asset is missing');
    }
    res.setHeader('Content-Type', row.content_type);
    res.setHeader('Content-Disposition', contentDisposition(row.is_image ? 'inline' : 'attachment', row.filename));
    // Files never change: a reader may keep them, no proxy may transform (compress) them.
    res.setHeader('Cache-Control', `${row.is_public ? 'public' : 'private'}, max-age=86400, no-transform`);
    res.setHeader('ETag', `"${row.id}"`);
    res.setHeader('Last-Modified', row.created_at.toUTCString());
    if (range === 'whole') {
      res.status(200).setHeader('Content-Length', String(size));
    } else {
      res.status(206).setHeader('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
      res.setHeader('Content-Length', String(range.end - range.start + 1));
    }
    if (req.method === 'HEAD') {
      await body.close();
      res.end();
      return;
    }
    await body.copyTo(res).catch(async () => {
      // The reader went away (or the store failed mid-file): the answer cannot be mended now.
      await body.close().catch(() => undefined);
      if (!res.destroyed) res.destroy();
    });
  }

  /** The assets of tasks (the task export), by task. */
  async ofTasks(workspaceId: string, taskIds: string[]): Promise<Map<string, AssetRecord[]>> {
    const out = new Map<string, AssetRecord[]>();
    if (!taskIds.length) return out;
    for (const r of await this.assets.listOfTasks(workspaceId, taskIds)) {
      const list = out.get(r.task_id) ?? [];
      list.push(toAssetRecord(r));
      out.set(r.task_id, list);
    }
    return out;
  }

  /** Ties the comment images a comment shows (`/api/asset/<id>` in its text) to it, so they go with it. */
  async claimForComment(workspaceId: string, taskId: string, commentId: string, text: string): Promise<void> {
    const ids = [...new Set([...text.matchAll(/\/api\/asset\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/gi)].map((m) => m[1].toLowerCase()))];
    await this.assets.claimForComment(workspaceId, taskId, commentId, ids);
  }
}
