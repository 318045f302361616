import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { FileHandle, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { YoungGarbage } from '../../../common/memory/young-garbage';
import { assertKey, ByteRange, FileStore, StoredBytes, UploadTarget } from './file-store';

const STALE_PART_MS = 24 * 3600 * 1000;

/** The size of the two buffers a download reads into, in turns. */
const COPY_CHUNK = 64 * 1024;

/**
 * Sends bytes `start`..`end` of `file` to `out` through two buffers used in turns: one is read
 * into while the other is being written, and a buffer is read into again only once `out` has
 * flushed what it held (its write callback). A download so allocates 128 KiB however big the
 * file, where a read stream would allocate a new chunk for every 64 KiB and leave the collector
 * to free them (docs/benchmarks.md, "Files").
 */
async function copyFile(file: FileHandle, start: number, end: number, out: Writable): Promise<void> {
  const buffers = [Buffer.allocUnsafe(COPY_CHUNK), Buffer.allocUnsafe(COPY_CHUNK)];
  const flushed: Promise<void>[] = [Promise.resolve(), Promise.resolve()];
  // A reader that goes away may leave a write's callback uncalled: its close ends the copy.
  let onClose: () => void = () => undefined;
  const gone = new Promise<never>((_, reject) => {
    onClose = () => reject(new Error('the reader went away'));
    out.once('close', onClose);
  });
  gone.catch(() => undefined);
  const until = <T>(p: Promise<T>) => Promise.race([p, gone]);
  try {
    let turn = 0;
    for (let pos = start; pos <= end; turn ^= 1) {
      await until(flushed[turn]);
      const buffer = buffers[turn];
      const { bytesRead } = await file.read(buffer, 0, Math.min(COPY_CHUNK, end - pos + 1), pos);
      if (!bytesRead) throw new Error('the file is shorter than its record says');
      pos += bytesRead;
      flushed[turn] = new Promise((resolve, reject) => out.write(buffer.subarray(0, bytesRead), (err) => (err ? reject(err) : resolve())));
      flushed[turn].catch(() => undefined);
    }
    await until(Promise.all(flushed));
    await until(new Promise<void>((resolve) => out.end(resolve)));
  } finally {
    out.off('close', onClose);
  }
}

/** Why a local upload's bytes were refused. */
export class UploadSizeError extends Error {
  constructor(
    readonly received: 'more' | 'fewer',
    readonly expected: number,
  ) {
    super(received === 'more' ? `The upload is larger than the declared ${expected} bytes` : `The upload has fewer bytes than the declared ${expected}`);
  }
}

/**
 * Files on the local disk under STORAGE_DIR (docs/files.md, "Local storage"). An upload streams
 * into a temporary file in `.incoming/` on the same file system and is renamed into place only
 * when all its bytes arrived, so a reader never sees half a file and a crash leaves only a
 * temporary file (removed at a later start). Several API processes can share one directory
 * (a network file system with atomic rename).
 */
export class LocalFileStore implements FileStore {
  readonly kind = 'local' as const;
  private readonly incoming: string;

  constructor(private readonly dir: string) {
    this.incoming = join(dir, '.incoming');
  }

  /**
   * Creates the folders and removes what uploads interrupted by a crash left in `.incoming/`
   * (older than a day: another process sharing the folder may be receiving one right now).
   */
  async prepare(): Promise<void> {
    await mkdir(this.incoming, { recursive: true });
    const before = Date.now() - STALE_PART_MS;
    for (const name of await readdir(this.incoming)) {
      const path = join(this.incoming, name);
      const s = await stat(path).catch(() => null);
      if (s && s.mtimeMs < before) await rm(path, { force: true });
    }
  }

  private path(key: string): string {
    assertKey(key);
    return join(this.dir, key);
  }

  async uploadTarget(_key: string, upload: { contentType: string; serviceUrl: string }): Promise<UploadTarget> {
    return { url: upload.serviceUrl, headers: { 'Content-Type': upload.contentType } };
  }

  /**
   * Streams `source` into `key`: exactly `size` bytes, else UploadSizeError and nothing is kept.
   * Never holds more than a stream's buffer in memory.
   */
  async write(key: string, source: Readable, size: number): Promise<void> {
    const target = this.path(key);
    const temp = join(this.incoming, `${randomBytes(12).toString('hex')}.part`);
    let received = 0;
    const garbage = new YoungGarbage();
    const count = new Transform({
      transform(chunk: Buffer, _enc, done) {
        received += chunk.length;
        garbage.passed(chunk.length);
        if (received > size) done(new UploadSizeError('more', size));
        else done(null, chunk);
      },
    });
    try {
      await mkdir(this.incoming, { recursive: true });
      await pipeline(source, count, createWriteStream(temp, { flags: 'wx' }));
      if (received < size) throw new UploadSizeError('fewer', size);
      await mkdir(dirname(target), { recursive: true });
      await rename(temp, target);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const s = await stat(this.path(key));
      return s.isFile() ? { size: s.size } : null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async readStart(key: string, bytes: number): Promise<Buffer> {
    const file = await open(this.path(key), 'r');
    try {
      const buf = Buffer.alloc(bytes);
      const { bytesRead } = await file.read(buf, 0, bytes, 0);
      return buf.subarray(0, bytesRead);
    } finally {
      await file.close();
    }
  }

  async open(key: string, range?: ByteRange): Promise<StoredBytes> {
    const file = await open(this.path(key), 'r');
    const start = range?.start ?? 0;
    let end: number;
    try {
      end = range ? range.end : (await file.stat()).size - 1;
    } catch (err) {
      await file.close();
      throw err;
    }
    return {
      copyTo: (out) => copyFile(file, start, end, out).finally(() => file.close()),
      close: () => file.close(),
    };
  }

  async remove(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }
}
