import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { until } from './until';

/** The README as it is in the checkout: the walkthrough tests run its shell blocks as written. */
export const README = readFileSync(join(__dirname, '../../README.md'), 'utf8');

/**
 * The ```sh blocks of the README section titled `heading` (a `##` or `###` heading), up to the
 * next heading (a subsection is a walkthrough of its own); lines in code blocks (shell comments
 * start with `#` too) are not headings. Throws when the section or its blocks are gone, so a README edit that
 * removes a walkthrough fails its test instead of running nothing.
 */
export function shellBlocks(heading: string): string[] {
  const lines = README.split('\n');
  let level = 0;
  let inFence = false;
  let block: string[] | null = null;
  const blocks: string[] = [];
  for (const line of lines) {
    const fence = /^```(\w*)/.exec(line);
    if (fence) {
      inFence = !inFence;
      if (level && inFence && fence[1] === 'sh') block = [];
      else if (level && !inFence && block) {
        blocks.push(block.join('\n'));
        block = null;
      }
      continue;
    }
    if (inFence) {
      block?.push(line);
      continue;
    }
    const h = /^(#{2,6}) (.*)$/.exec(line);
    if (!h) continue;
    if (level) break;
    if (!level && h[2].trim() === heading) level = h[1].length;
  }
  if (!level) throw new Error(`README has no section "${heading}"`);
  if (!blocks.length) throw new Error(`README section "${heading}" has no sh block`);
  return blocks;
}

/**
 * `text` with each `[from, to]` replaced everywhere; throws when a `from` does not occur (the
 * README changed: the test's substitutions must change with it).
 */
export function substitute(text: string, replacements: ReadonlyArray<readonly [string, string]>): string {
  let out = text;
  for (const [from, to] of replacements) {
    if (!out.includes(from)) throw new Error(`the walkthrough no longer contains "${from}"`);
    out = out.split(from).join(to);
  }
  return out;
}

const DONE = '__WALKTHROUGH_DONE__';
const VAR = '__WALKTHROUGH_VAR__';

/** A walkthrough's script running in bash; its background jobs (a receiver) keep running until stop(). */
export class Walkthrough {
  private out = '';
  private exitCode: number | null | undefined;
  private readonly child: ChildProcess;

  /**
   * Runs `script` (the README's commands) in `bash` with `set -euo pipefail` and `curl` failing on
   * an HTTP error (`--fail-with-body`), so a step that does not work as written stops the run and
   * the test sees its answer. After the script, the values of `vars` are printed.
   */
  constructor(script: string, vars: readonly string[]) {
    const full = [
      'set -euo pipefail',
      'curl() { command curl --fail-with-body --show-error "$@"; }',
      script,
      'echo',
      ...vars.map((v) => `echo "${VAR} ${v}=\${${v}}"`),
      `echo ${DONE}`,
      'wait',
    ].join('\n');
    // Its own process group, so stop() ends the background receiver with it; the test's node first on the PATH.
    this.child = spawn('bash', ['-c', full], {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` },
    });
    this.child.stdout!.on('data', (d: Buffer) => (this.out += d.toString()));
    this.child.stderr!.on('data', (d: Buffer) => (this.out += d.toString()));
    this.child.on('exit', (code) => (this.exitCode = code));
  }

  /** Everything the script and its background jobs printed so far. */
  get output(): string {
    return this.out;
  }

  /** Waits until the script's commands have all run; fails with the output when one failed. Answers the printed variables. */
  async finished(timeoutMs = 30_000): Promise<Record<string, string>> {
    await until('the walkthrough to finish', () => this.out.includes(DONE) || this.exitCode !== undefined, timeoutMs);
    if (!this.out.includes(DONE)) throw new Error(`the walkthrough stopped (exit ${this.exitCode}) at a step that failed:\n${this.out}`);
    return Object.fromEntries(
      this.out
        .split('\n')
        .filter((l) => l.startsWith(`${VAR} `))
        .map((l) => {
          const [name, ...value] = l.slice(VAR.length + 1).split('=');
          return [name, value.join('=')];
        }),
    );
  }

  /** Waits until the script stopped by itself; answers its exit code and output. */
  async exited(timeoutMs = 30_000): Promise<{ code: number | null; output: string }> {
    await until('the walkthrough to stop', () => this.exitCode !== undefined, timeoutMs);
    return { code: this.exitCode ?? null, output: this.out };
  }

  /** Waits until the output contains every one of `texts` (a receiver printed what it got). */
  printed(texts: readonly string[], timeoutMs = 20_000): Promise<string> {
    return until(`the walkthrough to print ${texts.join(', ')}`, () => texts.every((t) => this.out.includes(t)) && this.out, timeoutMs).catch((err: Error) => {
      throw new Error(`${err.message}; it printed:\n${this.out}`);
    });
  }

  /** Ends the script and its background jobs. */
  async stop(): Promise<void> {
    if (this.child.pid === undefined) return;
    const gone = this.exitCode !== undefined ? Promise.resolve() : new Promise((resolve) => this.child.once('exit', resolve));
    try {
      // The group, also when bash has stopped at a failed step and left the receiver running.
      process.kill(-this.child.pid, 'SIGTERM');
    } catch {
      return; // nothing of the group is left
    }
    await gone;
  }
}
