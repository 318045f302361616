/**
 * Gathers single calls into batches for one statement: a call made while no batch is running
 * starts one at once (after the current tick, so the calls of one tick share it); calls made while
 * a batch runs wait for it and then go together in the next one, up to `max` at a time. Idle, a
 * call costs what the single statement did; under load one round trip serves many callers, and
 * the batches grow with the load instead of adding a fixed wait (docs/benchmarks.md, "The path of
 * an event").
 *
 * `run` answers one output per input, in the inputs' order. When it fails, every call of that
 * batch fails with its error; the next batch is unaffected.
 */
export class Coalescer<I, O> {
  private waiting: { input: I; resolve: (out: O) => void; reject: (err: unknown) => void }[] = [];
  private running = false;
  private scheduled = false;

  constructor(
    private readonly run: (inputs: I[]) => Promise<O[]>,
    private readonly max = 100,
  ) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`Coalescer batch size must be a positive integer, not ${max}`);
  }

  submit(input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ input, resolve, reject });
      if (!this.running && !this.scheduled) {
        this.scheduled = true;
        queueMicrotask(() => {
          this.scheduled = false;
          this.next();
        });
      }
    });
  }

  private next(): void {
    if (this.running || !this.waiting.length) return;
    const batch = this.waiting.splice(0, this.max);
    this.running = true;
    Promise.resolve()
      .then(() => this.run(batch.map((b) => b.input)))
      .then((outs) => {
        if (outs.length !== batch.length) throw new Error(`Coalescer: ${outs.length} results for ${batch.length} inputs`);
        batch.forEach((b, i) => b.resolve(outs[i]));
      })
      .catch((err: unknown) => batch.forEach((b) => b.reject(err)))
      .finally(() => {
        this.running = false;
        this.next();
      });
  }
}
