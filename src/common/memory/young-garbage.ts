import { Transform } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Collect = (options: { type: 'minor' }) => void;
let collect: Collect | null | undefined;

/** V8's own collector, reachable once `--expose-gc` is set (a new context gets `gc`); null where it cannot be had. */
export function collector(): Collect | null {
  if (collect === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      collect = (runInNewContext('gc') as Collect | undefined) ?? null;
    } catch {
      collect = null;
    }
  }
  return collect;
}

/** Bytes of streamed chunks between two collections. */
export const COLLECT_EVERY_BYTES = 4 * 1024 * 1024;

/**
 * Counts the bytes of a stream's chunks and runs a young-generation collection (a scavenge, well
 * under a millisecond) each time another COLLECT_EVERY_BYTES have passed. A request body arrives
 * as a new 64 KiB Buffer per read: the chunks are garbage once written, but their memory lies
 * outside V8's heap, and V8 would let tens of megabytes of them pile up before it collects. With
 * this, an upload of any size keeps the process within a few megabytes of idle
 * (docs/benchmarks.md, "Files").
 */
export class YoungGarbage {
  private since = 0;

  /** `collect` is V8's collector unless a test gives another. */
  constructor(private readonly collect: () => Collect | null = collector) {}

  passed(bytes: number): void {
    this.since += bytes;
    if (this.since < COLLECT_EVERY_BYTES) return;
    this.since = 0;
    this.collect()?.({ type: 'minor' });
  }

  /** A stream step that passes its chunks on unchanged, counting them here. */
  through(): Transform {
    return new Transform({
      transform: (chunk: Buffer, _enc, done) => {
        this.passed(chunk.length);
        done(null, chunk);
      },
    });
  }
}
