import { Repeating } from './repeating';

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
};

describe('Repeating', () => {
  it('runs again after each run ends, reports a failure and goes on, and stops after the running turn', async () => {
    const errors: string[] = [];
    let runs = 0;
    let inside = 0;
    let overlapped = false;
    const work = new Repeating(
      async () => {
        inside++;
        overlapped ||= inside > 1;
        runs++;
        await new Promise((r) => setTimeout(r, 2));
        inside--;
        if (runs === 2) throw new Error('second failed');
      },
      1,
      (err) => errors.push(err.message),
    );
    work.start(0);
    await until(() => runs >= 4);
    expect(errors).toEqual(['second failed']);
    expect(overlapped).toBe(false);
    await work.stop();
    expect(work.isStopped).toBe(true);
    const after = runs;
    await new Promise((r) => setTimeout(r, 20));
    expect(runs).toBe(after);
    expect(inside).toBe(0);
  });
});
