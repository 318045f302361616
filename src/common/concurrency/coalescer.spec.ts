import { Coalescer } from './coalescer';

/** A batch function whose calls the test finishes by hand. */
function manual() {
  const calls: { inputs: number[]; finish: (outs?: string[]) => void; fail: (err: Error) => void }[] = [];
  const run = (inputs: number[]) =>
    new Promise<string[]>((resolve, reject) => {
      calls.push({ inputs, finish: (outs) => resolve(outs ?? inputs.map((i) => `r${i}`)), fail: reject });
    });
  return { calls, run };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('Coalescer', () => {
  it('runs a lone call at once, and the calls of one tick together', async () => {
    const { calls, run } = manual();
    const c = new Coalescer(run);
    const lone = c.submit(1);
    await tick();
    expect(calls.map((x) => x.inputs)).toEqual([[1]]);
    calls[0].finish();
    await expect(lone).resolves.toBe('r1');

    const same = [c.submit(2), c.submit(3), c.submit(4)];
    await tick();
    expect(calls.map((x) => x.inputs)).toEqual([[1], [2, 3, 4]]);
    calls[1].finish();
    await expect(Promise.all(same)).resolves.toEqual(['r2', 'r3', 'r4']);
  });

  it('gathers the calls made while a batch runs into the next batch, one batch at a time, at most `max` each', async () => {
    const { calls, run } = manual();
    const c = new Coalescer(run, 2);
    const first = c.submit(1);
    await tick();
    const later = [c.submit(2), c.submit(3), c.submit(4)];
    await tick();
    expect(calls.map((x) => x.inputs)).toEqual([[1]]);
    calls[0].finish();
    await first;
    await tick();
    expect(calls.map((x) => x.inputs)).toEqual([[1], [2, 3]]);
    calls[1].finish();
    await tick();
    expect(calls.map((x) => x.inputs)).toEqual([[1], [2, 3], [4]]);
    calls[2].finish();
    await expect(Promise.all(later)).resolves.toEqual(['r2', 'r3', 'r4']);
  });

  it('fails every call of a failed batch with its error, and goes on with the next batch', async () => {
    const { calls, run } = manual();
    const c = new Coalescer(run);
    const a = c.submit(1);
    const b = c.submit(2);
    await tick();
    const after = c.submit(3);
    calls[0].fail(new Error('connection lost'));
    await expect(a).rejects.toThrow('connection lost');
    await expect(b).rejects.toThrow('connection lost');
    await tick();
    expect(calls[1].inputs).toEqual([3]);
    calls[1].finish();
    await expect(after).resolves.toBe('r3');
  });

  it('fails a batch whose results do not match its inputs, and one whose function throws at once', async () => {
    const { calls, run } = manual();
    const c = new Coalescer(run);
    const short = [c.submit(1), c.submit(2)];
    await tick();
    calls[0].finish(['only one']);
    await expect(Promise.all(short)).rejects.toThrow('1 results for 2 inputs');

    const throwing = new Coalescer<number, number>(() => {
      throw new Error('bad statement');
    });
    await expect(throwing.submit(1)).rejects.toThrow('bad statement');
    expect(() => new Coalescer(run, 0)).toThrow(RangeError);
  });
});
