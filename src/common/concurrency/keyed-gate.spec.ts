import { KeyedGate } from './keyed-gate';

/** A task the test finishes by hand, recording when it started. */
function manualTask(log: string[], name: string) {
  let finish!: (v: string) => void;
  let fail!: (err: Error) => void;
  const task = () => {
    log.push(`start ${name}`);
    return new Promise<string>((resolve, reject) => {
      finish = (v) => {
        log.push(`end ${name}`);
        resolve(v);
      };
      fail = (err) => {
        log.push(`fail ${name}`);
        reject(err);
      };
    });
  };
  return { task, finish: (v = name) => finish(v), fail: (err: Error) => fail(err) };
}

const tick = () => new Promise((r) => setImmediate(r));

/** A gate of width 1 with tasks a and b run under keys `keyA` and `keyB`. */
function twoRuns(keyA: string, keyB: string) {
  const gate = new KeyedGate();
  const log: string[] = [];
  const a = manualTask(log, 'a');
  const b = manualTask(log, 'b');
  return { gate, log, a, b, ra: gate.run(keyA, a.task), rb: gate.run(keyB, b.task) };
}

describe('KeyedGate', () => {
  it('runs one task per key at a time, in the order they came', async () => {
    const gate = new KeyedGate();
    const log: string[] = [];
    const [a, b, c] = ['a', 'b', 'c'].map((n) => manualTask(log, n));
    const ra = gate.run('p1', a.task);
    const rb = gate.run('p1', b.task);
    const rc = gate.run('p1', c.task);
    await tick();
    expect(log).toEqual(['start a']);
    a.finish();
    await tick();
    expect(log).toEqual(['start a', 'end a', 'start b']);
    b.finish();
    await tick();
    c.finish();
    await expect(Promise.all([ra, rb, rc])).resolves.toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('runs up to `width` tasks of a key at once, the next as soon as one settles', async () => {
    const gate = new KeyedGate(2);
    const log: string[] = [];
    const [a, b, c] = ['a', 'b', 'c'].map((n) => manualTask(log, n));
    const results = [gate.run('p1', a.task), gate.run('p1', b.task), gate.run('p1', c.task)];
    await tick();
    expect(log).toEqual(['start a', 'start b']);
    b.finish();
    await tick();
    expect(log).toEqual(['start a', 'start b', 'end b', 'start c']);
    a.finish();
    c.finish();
    await expect(Promise.all(results)).resolves.toEqual(['a', 'b', 'c']);
    await tick();
    expect(gate.busyKeys).toBe(0);
  });

  it('refuses a width that is not a positive integer', () => {
    expect(() => new KeyedGate(0)).toThrow(RangeError);
    expect(() => new KeyedGate(1.5)).toThrow(RangeError);
  });

  it('lets tasks of different keys run at the same time', async () => {
    const { log, a, b, ra, rb } = twoRuns('p1', 'p2');
    await tick();
    expect(log).toEqual(['start a', 'start b']);
    b.finish();
    a.finish();
    await expect(Promise.all([ra, rb])).resolves.toEqual(['a', 'b']);
  });

  it('gives a failure to its own caller only and goes on with the next task', async () => {
    const { log, a, b, ra, rb } = twoRuns('p1', 'p1');
    await tick();
    a.fail(new Error('refused'));
    await expect(ra).rejects.toThrow('refused');
    await tick();
    expect(log).toEqual(['start a', 'fail a', 'start b']);
    b.finish();
    await expect(rb).resolves.toBe('b');
  });

  it('forgets a key once its last task has settled', async () => {
    const { gate, log, a, b, ra, rb } = twoRuns('p1', 'p2');
    expect(gate.busyKeys).toBe(2);
    await tick();
    a.finish();
    await ra;
    await tick();
    expect(gate.busyKeys).toBe(1);
    b.fail(new Error('x'));
    await expect(rb).rejects.toThrow('x');
    await tick();
    expect(gate.busyKeys).toBe(0);
    // A key used again after it was forgotten starts a new line at once.
    const c = manualTask(log, 'c');
    const rc = gate.run('p1', c.task);
    await tick();
    expect(log[log.length - 1]).toBe('start c');
    c.finish();
    await expect(rc).resolves.toBe('c');
  });

  it('runs a task whose synchronous part throws as a failure of that task alone', async () => {
    const gate = new KeyedGate();
    const bad = gate.run('p1', () => {
      throw new Error('sync');
    });
    const good = gate.run('p1', () => Promise.resolve('ok'));
    await expect(bad).rejects.toThrow('sync');
    await expect(good).resolves.toBe('ok');
  });
});
