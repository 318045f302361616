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
 * Bodies and queries with a NUL character or nested too deeply are refused (400).
 */
export function jsonBodyParser(limit = BODY_LIMIT_BYTES) {
  const parse = express.json({
    limit,
    type: ['application/json', 'application/*+json'],
    verify: (req: any, _res, buf) => {
      req.rawBody = buf;
    },
  });
  return (req: Request, res: Response, next: NextFunction) => {
    parse(req, res, (err?: any) => {
      if (!err) {
        const unusable = unusableInput(req.body) ?? unusableInput(req.query);
        if (unusable) return void res.status(400).json({ message: unusable });
        return next();
      }
      const type = err?.type;
      if (type === 'entity.too.large') return void res.status(413).json({ message: 'Request body too large' });
      if (type === 'entity.parse.failed') return void res.status(400).json({ message: 'Invalid JSON body' });
      if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
        return void res.status(415).json({ message: 'Unsupported content encoding' });
      }
      if (type === 'request.aborted') return void res.status(400).json({ message: 'Request aborted' });
      return void res.status(400).json({ message: 'Invalid request body' });
    });
  };
}
