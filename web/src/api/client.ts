import createClient from 'openapi-fetch';
import type { paths } from './schema';

/**
 * The API client, typed from the service's own OpenAPI document (docs/openapi.json, turned into
 * `schema.d.ts` by openapi-typescript at build time). The browser's session is the HttpOnly
 * cookie the sign-in sets; nothing here holds a token.
 */
export const api = createClient<paths>({ baseUrl: '/', credentials: 'same-origin' });

/** An API error with the service's `{message}`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The service's message in an error body (`{message}`, or `{error}`), else the status. */
export function errorMessage(body: unknown, status: number, statusText: string): string {
  const b = body as { message?: unknown; error?: unknown } | null | undefined;
  return typeof b?.message === 'string' ? b.message : typeof b?.error === 'string' ? b.error : `${status} ${statusText}`;
}

/** The data of an answer, or an ApiError with the service's message. */
export function must<T>(r: { data?: T; error?: unknown; response: Response }): T {
  if (r.error !== undefined || !r.response.ok) {
    throw new ApiError(r.response.status, errorMessage(r.error, r.response.status, r.response.statusText));
  }
  return r.data as T;
}

/** Every item of a paged list (`{data, pagination: {totalPages}}`), page by page from 1, stopping at `max` items (or all). */
export async function allPages<T>(get: (page: number) => Promise<{ data: T[]; pagination: { totalPages: number } }>, max = Infinity): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; out.length < max; page++) {
    const r = await get(page);
    out.push(...r.data);
    if (page >= r.pagination.totalPages) break;
  }
  return out;
}
