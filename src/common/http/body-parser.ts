import type { NextFunction, Request, Response } from 'express';
import * as express from 'express';

export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Deeper JSON than any route takes; validation would recurse through it and overflow the stack. */
export const MAX_BODY_DEPTH = 32;

/**
 * What makes a parsed JSON body or query unusable: a NUL character in a string or a key (Postgres
 * text cannot store one), or nesting deeper than MAX_BODY_DEPTH. Null when it is fine.
 */
export function unusableInput(value: unknown): string | null {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return 'Text must not contain NUL characters';
    } else if (v && typeof v === 'object') {
      if (depth >= MAX_BODY_DEPTH) return 'Request body is nested too deeply';
      for (const [k, child] of Object.entries(v)) {
        if (k.includes('\u0000')) return 'Text must not contain NUL characters';
        stack.push([child, depth + 1]);
      }
    }
  }
  return null;
}

/**
 * JSON body parsing with our own error answers (Nest's built-in parser would let express answer
 * with HTML). The raw bytes are kept on req.rawBody for signature checks of inbound webhooks.
 * Bodies and queries with a NUL character or nested too deeply are refused (400). `errorKeyFor`
 * names the error body's key by request (the hostedgit PATCH and the inbound git-host webhooks
 * answer `{error}`).
 */
export function jsonBodyParser(limit = BODY_LIMIT_BYTES, errorKeyFor: (req: Request) => 'message' | 'error' = () => 'message') {
  const parse = express.json({
    limit,
    type: ['application/json', 'application/*+json'],
    verify: (req: any, _res, buf) => {
      req.rawBody = buf;
    },
  });
  return (req: Request, res: Response, next: NextFunction) => {
    // The routes that answer errors as {error} (errorKeyFor) do so here too.
    const fail = (status: number, message: string) => void res.status(status).json({ [errorKeyFor(req)]: message });
    parse(req, res, (err?: any) => {
      if (!err) {
        const unusable = unusableInput(req.body) ?? unusableInput(req.query);
        if (unusable) return fail(400, unusable);
        return next();
      }
      const type = err?.type;
      if (type === 'entity.too.large') return fail(413, 'Request body too large');
      if (type === 'entity.parse.failed') return fail(400, 'Invalid JSON body');
      if (type === 'encoding.unsupported' || type === 'charset.unsupported') return fail(415, 'Unsupported content encoding');
      if (type === 'request.aborted') return fail(400, 'Request aborted');
      return fail(400, 'Invalid request body');
    });
  };
}
