import type { Writable } from 'node:stream';

/** A byte range of a stored file, both ends included (as HTTP's `Range: bytes=start-end`). */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

/** Where and how a client sends a file's bytes: `PUT url` with these headers. */
export interface UploadTarget {
  readonly url: string;
  readonly headers: Record<string, string>;
}

/**
 * Where the bytes of images and attachments are kept (docs/files.md, "Storage"): the local disk
 * (`LocalFileStore`) or an S3-compatible bucket (`S3FileStore`). Keys are the service's own
 * (`assets/<workspace>/<asset>`), never a client's text.
 */
export interface FileStore {
  readonly kind: 'local' | 's3';
  /**
   * Where the client uploads `key`: the bucket's presigned URL, or (local) `serviceUrl`, the
   * service's own one-use URL the caller made.
   */
  uploadTarget(key: string, upload: { contentType: string; size: number; serviceUrl: string }): Promise<UploadTarget>;
  /** The stored object's size, or null when there is none. */
  stat(key: string): Promise<{ size: number } | null>;
  /** Up to `bytes` first bytes (fewer when the file is shorter): enough to tell what a file is. */
  readStart(key: string, bytes: number): Promise<Buffer>;
  /**
   * Opens the bytes (of `range` only, when given) for one answer; fails when the object is not
   * there, before anything is sent.
   */
  open(key: string, range?: ByteRange): Promise<StoredBytes>;
  /** Removes the object; removing one that is not there is not an error. */
  remove(key: string): Promise<void>;
}

/** An opened file (or part of one), to be sent once. */
export interface StoredBytes {
  /** Writes the bytes to `out` (with backpressure) and ends it; rejects when either side fails. */
  copyTo(out: Writable): Promise<void>;
  /** Lets go of the file without sending it (a HEAD request, an answer that failed). */
  close(): Promise<void>;
}

export const FILE_STORE = Symbol('FILE_STORE');

/** Keys are made by the service; anything else is refused before it reaches a path or a bucket. */
export const KEY_PATTERN = /^assets\/[0-9a-f-]{36}\/[0-9a-f-]{36}$/;

export function assertKey(key: string): void {
  if (!KEY_PATTERN.test(key)) throw new Error(`Not a file key: ${JSON.stringify(key).slice(0, 80)}`);
}
