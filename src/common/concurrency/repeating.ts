/**
 * A piece of work a process repeats on its own, such as a daily prune or a sweep every few
 * seconds: the first run after `firstMs`, each next one `everyMs` after the previous one ended (so
 * runs never overlap), a failed run reported to `onError` and tried again at the next turn. The
 * timer does not keep the process alive; `stop()` lets a running turn finish and starts no other.
 */
export class Repeating {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly run: () => Promise<unknown>,
    private readonly everyMs: number,
    private readonly onError: (err: Error) => void,
  ) {}

  start(firstMs: number): void {
    this.schedule(firstMs);
  }

  /** True once stop() was called: a long turn may end early. */
  get isStopped(): boolean {
    return this.stopped;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.run()
        .then(() => undefined)
        .catch((err: Error) => this.onError(err))
        .finally(() => {
          this.running = null;
          this.schedule(this.everyMs);
        });
    }, ms);
    this.timer.unref();
  }
}
