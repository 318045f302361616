import { setFlagsFromString } from 'node:v8';

/**
 * Sets how far V8 lets the old generation grow past what the last full collection kept before it
 * collects again (docs/benchmarks.md, "Memory"). V8's own factor rises to 4 when collections are
 * cheap, which under steady load lets a service with ~50 MB of live objects hold ~200 MB of heap
 * it does not need; 50 % keeps it near 1.5 times the live size for a few more (incremental, a few
 * milliseconds each) full collections. V8 reads the flag whenever it sets the next limit, so
 * setting it at start-up applies from the first collection on. 0 leaves V8's own factor.
 */
export function applyHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
