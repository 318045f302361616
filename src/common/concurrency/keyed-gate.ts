/**
 * Runs at most `width` tasks per key at a time in this process; the others wait their turn here,
 * in the order they came (docs/benchmarks.md, "Claims of one project, two at a time").
 *
 * For statements that all lock the same row until they commit: sent together, all but one wait
 * inside Postgres for that row, and handing a row lock over among many waiters costs the database
 * far more than the wait itself. Only for statements that commit on their own: a task that runs
 * inside a caller's transaction keeps its locks after it returns, so gating it would not shorten
 * any wait, and a caller waiting here while its transaction holds a lock a running task needs
 * would never be woken.
 *
 * A failed task releases its place like a successful one; its error goes to its own caller only.
 */
export class KeyedGate {
  /** Per busy key: how many of its tasks run, and the starts of those waiting, oldest first. */
  private readonly lines = new Map<string, { running: number; waiting: (() => void)[] }>();

  constructor(private readonly width = 1) {
    if (!Number.isInteger(width) || width < 1) throw new RangeError(`KeyedGate width must be a positive integer, not ${width}`);
  }

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const line = this.lines.get(key) ?? { running: 0, waiting: [] };
    this.lines.set(key, line);
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        line.running++;
        let result: Promise<T>;
        try {
          result = task();
        } catch (err) {
          result = Promise.reject(err);
        }
        result.then(resolve, reject).finally(() => this.release(key, line));
      };
      if (line.running < this.width) start();
      else line.waiting.push(start);
    });
  }

  /** A task of `key` has settled: the oldest waiting one starts, or an idle key is forgotten. */
  private release(key: string, line: { running: number; waiting: (() => void)[] }): void {
    line.running--;
    const next = line.waiting.shift();
    if (next) next();
    else if (line.running === 0) this.lines.delete(key);
  }

  /** Keys with a task running or waiting (for tests and diagnostics). */
  get busyKeys(): number {
    return this.lines.size;
  }
}
