/**
 * Polls `probe` until it returns a truthy value and resolves with that value; rejects, naming
 * `what`, once `timeoutMs` has passed without it. For state a test cannot subscribe to (a queue
 * job's state, a database row): the deadline only bounds a failure, a passing test never waits
 * longer than the state takes to appear.
 */
export async function until<T>(what: string, probe: () => Promise<T | null | undefined | false> | T | null | undefined | false, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
