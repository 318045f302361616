import { Client } from 'pg';

/**
 * Records every statement any pg client of this process sends while active (the app under test
 * runs in the test's process, so this sees the app's queries: TypeORM, the guard, the session check).
 * Keep the measured window free of the test's own SQL.
 */
export function recordQueries(): { statements: string[]; stop(): void } {
  const statements: string[] = [];
  const proto = Client.prototype as any;
  const original = proto.query;
  proto.query = function (this: Client, config: unknown, ...rest: unknown[]) {
    const text = typeof config === 'string' ? config : (config as { text?: string } | undefined)?.text;
    if (text) statements.push(text.replace(/\s+/g, ' ').trim());
    return original.call(this, config, ...rest);
  };
  return {
    statements,
    stop: () => {
      proto.query = original;
    },
  };
}

/** The outbox relay's wake after a commit that wrote events (src/queue/outbox-signal.ts): its own statement, coalesced, not a request's work. */
export const isOutboxWake = (statement: string): boolean => /^SELECT pg_notify\('outbox', ''\)$/.test(statement);

/** The statements the app sends while `fn` runs, outbox wakes left out (see isOutboxWake). */
export async function statementsOf<T>(fn: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const rec = recordQueries();
  try {
    const result = await fn();
    return { result, statements: rec.statements.filter((s) => !isOutboxWake(s)) };
  } finally {
    rec.stop();
  }
}
