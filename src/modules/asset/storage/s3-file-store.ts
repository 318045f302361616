import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FileStorageTarget } from '../../../config/app-config';
import { YoungGarbage } from '../../../common/memory/young-garbage';
import { assertKey, ByteRange, FileStore, StoredBytes, UploadTarget } from './file-store';

type S3Target = Extract<FileStorageTarget, { kind: 's3' }>;

const notFound = (err: unknown) => err instanceof S3ServiceException && (err.$metadata.httpStatusCode === 404 || err.name === 'NotFound' || err.name === 'NoSuchKey');

/**
 * Files in an S3-compatible bucket (docs/files.md, "S3-compatible storage"): the browser uploads
 * to the bucket directly with a presigned PUT whose signature covers the content type and length;
 * the service reads objects back to stream them with its own headers.
 */
export class S3FileStore implements FileStore {
  readonly kind = 's3' as const;
  private readonly client: S3Client;

  constructor(
    private readonly target: S3Target,
    private readonly uploadTtlSeconds: number,
  ) {
    this.client = new S3Client({
      endpoint: target.endpoint,
      region: target.region,
      forcePathStyle: target.forcePathStyle,
      credentials: target.accessKeyId && target.secretAccessKey ? { accessKeyId: target.accessKeyId, secretAccessKey: target.secretAccessKey } : undefined,
      // Checksums only where S3 requires them: several S3-compatible servers refuse the SDK's
      // default CRC32 trailers, and a presigned browser upload could not send them anyway.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private objectKey(key: string): string {
    assertKey(key);
    return `${this.target.keyPrefix}${key}`;
  }

  async uploadTarget(key: string, upload: { contentType: string; size: number }): Promise<UploadTarget> {
    const url = await getSignedUrl(
      this.client,
      new PutObjectCommand({ Bucket: this.target.bucket, Key: this.objectKey(key), ContentType: upload.contentType, ContentLength: upload.size }),
      { expiresIn: this.uploadTtlSeconds, signableHeaders: new Set(['content-type', 'content-length']) },
    );
    return { url, headers: { 'Content-Type': upload.contentType } };
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.target.bucket, Key: this.objectKey(key) }));
      return { size: Number(head.ContentLength ?? 0) };
    } catch (err) {
      if (notFound(err)) return null;
      throw err;
    }
  }

  async readStart(key: string, bytes: number): Promise<Buffer> {
    const got = await this.client.send(new GetObjectCommand({ Bucket: this.target.bucket, Key: this.objectKey(key), Range: `bytes=0-${bytes - 1}` }));
    return Buffer.from(await got.Body!.transformToByteArray()).subarray(0, bytes);
  }

  async open(key: string, range?: ByteRange): Promise<StoredBytes> {
    const got = await this.client.send(
      new GetObjectCommand({ Bucket: this.target.bucket, Key: this.objectKey(key), Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
    );
    const body = got.Body as Readable;
    return {
      // The SDK hands a new Buffer per chunk, as a request body does: collected as they pass.
      copyTo: (out) => pipeline(body, new YoungGarbage().through(), out),
      close: async () => void body.destroy(),
    };
  }

  async remove(key: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.target.bucket, Key: this.objectKey(key) }));
    } catch (err) {
      if (!notFound(err)) throw err;
    }
  }

  close(): void {
    this.client.destroy();
  }
}
