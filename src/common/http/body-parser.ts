import { isUtf8 } from 'node:buffer';
import type { NextFunction, Request, Response } from 'express';
import * as express from 'express';

export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Where a file's bytes arrive (docs/files.md): streamed by its route to the file store, never parsed. */
export const STREAMED_UPLOAD_PATH = '/api/asset/upload/';

/** Deeper JSON than any route takes; validation would recurse through it and overflow the stack. */
export const MAX_BODY_DEPTH = 32;

/** `String.prototype.isWellFormed` (Node 20; the ES2022 type declarations lack it). */
const isWellFormed = (s: string): boolean => (s as string & { isWellFormed(): boolean }).isWellFormed();

/** A name from the request shown in an error message: at most 100 characters, never half a surrogate pair. */
function shown(name: string): string {
  if (name.length <= 100) return name;
  const cut = name.slice(0, 100);
  return `${/[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut}…`;
}

/** The message for text that is not well-formed Unicode; `problem` says what and where. */
export const illFormedText = (problem: string) => `Text must be well-formed Unicode (${problem})`;

/**
 * What makes a parsed JSON body or query unusable: a NUL character in a string or a key (Postgres
 * text cannot store one), a lone UTF-16 surrogate in a string or a key (`"\ud800"` is valid JSON
 * and survives JSON.parse; no UTF-8 text can hold it, so it would be stored as U+FFFD or fail in a
 * jsonb column), or nesting deeper than MAX_BODY_DEPTH. `what` names the whole ('body', 'query').
 * Null when it is fine.
 */
export function unusableInput(value: unknown, what: 'body' | 'query' = 'body'): string | null {
  // Paths are dot-separated keys and array indexes (`tasks.0.title`), as validation names fields.
  const at = (path: string) => (what === 'query' ? `query parameter ${shown(path)}` : shown(path));
  const keyOf = (path: string) => (path ? `a key of ${at(path)}` : what === 'query' ? 'a query parameter name' : 'a key of the body');
  const stack: [unknown, number, string][] = [[value, 0, '']];
  while (stack.length) {
    const [v, depth, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return 'Text must not contain NUL characters';
      if (!isWellFormed(v)) return illFormedText(`a lone surrogate in ${path ? at(path) : `the ${what}`}`);
    } else if (v && typeof v === 'object') {
      if (depth >= MAX_BODY_DEPTH) return 'Request body is nested too deeply';
      // Every key of an object is judged before its children, so a path in a message is well-formed text.
      const entries = Object.entries(v);
      for (const [k] of entries) {
        if (k.includes('\u0000')) return 'Text must not contain NUL characters';
        if (!isWellFormed(k)) return illFormedText(`a lone surrogate in ${keyOf(path)}`);
      }
      for (const [k, child] of entries) stack.push([child, depth + 1, path ? `${path}.${k}` : k]);
    }
  }
  return null;
}

/** Runs of percent escapes (`%ED%A0%80`); a `%` not followed by two hex digits is a literal `%`. */
const ESCAPES = /(?:%[0-9A-Fa-f]{2})+/g;

/** True when every run of percent escapes in `s` decodes to UTF-8 (a multi-byte character is never split around plain characters). */
function escapesAreUtf8(s: string): boolean {
  if (!s.includes('%')) return true;
  for (const [run] of s.matchAll(ESCAPES)) {
    if (!isUtf8(Buffer.from(run.replace(/%/g, ''), 'hex'))) return false;
  }
  return true;
}

/**
 * Percent-encoded bytes in the request target that are not UTF-8 (`%FF`, `%ED%A0%80`, which is a
 * lone surrogate as WTF-8 writes it): decoders would turn them into U+FFFD or keep the escapes as
 * text, so what the client meant is lost. Null when the path and every query parameter are fine.
 */
export function malformedUrl(url: string): string | null {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  if (!escapesAreUtf8(path)) return illFormedText('bytes that are not UTF-8 in the path');
  if (q < 0) return null;
  for (const part of url.slice(q + 1).split('&')) {
    const eq = part.indexOf('=');
    const name = eq < 0 ? part : part.slice(0, eq);
    if (!escapesAreUtf8(name)) return illFormedText('bytes that are not UTF-8 in a query parameter name');
    if (eq >= 0 && !escapesAreUtf8(part.slice(eq + 1))) return illFormedText(`bytes that are not UTF-8 in query parameter ${shown(decodeName(name))}`);
  }
  return null;
}

/** A query parameter name as the query parser reads it (`+` is a space); one that does not decode is shown as sent. */
function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/** The body's charset as the JSON parser decodes it (it refuses any that is not `utf-*`). */
const isUtf8Charset = (encoding: unknown) => typeof encoding !== 'string' || /^utf-?8$/i.test(encoding);

/**
 * JSON body parsing with our own error answers (Nest's built-in parser would let express answer
 * with HTML). The raw bytes are kept on req.rawBody for signature checks of inbound webhooks.
 * Every request's input is judged here, before any route, so no route sees text it cannot store:
 * bodies and queries with a NUL character, text that is not well-formed Unicode (a lone surrogate
 * in a body or query string or key, a UTF-8 body with bytes that are not UTF-8, percent-encoded
 * bytes that are not UTF-8 in the path or query) and bodies nested too deeply are refused (400).
 * `errorKeyFor` names the error body's key by request (the hostedgit PATCH and the inbound
 * git-host webhooks answer `{error}`).
 */
export function jsonBodyParser(limit = BODY_LIMIT_BYTES, errorKeyFor: (req: Request) => 'message' | 'error' = () => 'message') {
  const parse = express.json({
    limit,
    type: ['application/json', 'application/*+json'],
    verify: (req: any, _res, buf, encoding) => {
      req.rawBody = buf;
      // The decoder would put U+FFFD in place of such bytes without a word; refused below.
      if (isUtf8Charset(encoding) && !isUtf8(buf)) req.bodyNotUtf8 = true;
    },
  });
  return (req: Request, res: Response, next: NextFunction) => {
    // The routes that answer errors as {error} (errorKeyFor) do so here too.
    const fail = (status: number, message: string) => void res.status(status).json({ [errorKeyFor(req)]: message });
    const badUrl = malformedUrl(req.url);
    if (badUrl) return fail(400, badUrl);
    if (req.method === 'PUT' && req.path.startsWith(STREAMED_UPLOAD_PATH)) {
      const unusable = unusableInput(req.query, 'query');
      return unusable ? fail(400, unusable) : next();
    }
    parse(req, res, (err?: any) => {
      if (!err) {
        if ((req as Request & { bodyNotUtf8?: boolean }).bodyNotUtf8) return fail(400, illFormedText('bytes that are not UTF-8 in the body'));
        const unusable = unusableInput(req.body) ?? unusableInput(req.query, 'query');
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
