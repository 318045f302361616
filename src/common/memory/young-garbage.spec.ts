import { collector, COLLECT_EVERY_BYTES, YoungGarbage } from './young-garbage';

describe('YoungGarbage', () => {
  it('asks for one young-generation collection per COLLECT_EVERY_BYTES that pass, whatever the chunk sizes', () => {
    const calls: unknown[] = [];
    const garbage = new YoungGarbage(() => (options) => calls.push(options));
    const chunk = 64 * 1024;
    for (let sent = 0; sent < 3 * COLLECT_EVERY_BYTES - chunk; sent += chunk) garbage.passed(chunk);
    expect(calls).toEqual([{ type: 'minor' }, { type: 'minor' }]);
    garbage.passed(chunk);
    expect(calls).toHaveLength(3);
  });

  it('through() passes chunks on unchanged and counts them', async () => {
    const calls: unknown[] = [];
    const step = new YoungGarbage(() => (options) => calls.push(options)).through();
    const out: Buffer[] = [];
    step.on('data', (c: Buffer) => out.push(c));
    const chunk = Buffer.alloc(COLLECT_EVERY_BYTES / 2, 1);
    step.write(chunk);
    step.write(chunk);
    step.end();
    await new Promise((r) => step.on('end', r));
    expect(Buffer.concat(out).equals(Buffer.concat([chunk, chunk]))).toBe(true);
    expect(calls).toHaveLength(1);
  });

  it("reaches V8's own collector in a process started without --expose-gc, and a minor collection runs", () => {
    const collect = collector();
    expect(typeof collect).toBe('function');
    expect(() => collect!({ type: 'minor' })).not.toThrow();
  });
});
