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

/** The data of an answer, or an ApiError with the service's message. */
export function must<T>(r: { data?: T; error?: unknown; response: Response }): T {
  if (r.error !== undefined || !r.response.ok) {
    const body = r.error as { message?: unknown; error?: unknown } | undefined;
    const message = typeof body?.message === 'string' ? body.message : typeof body?.error === 'string' ? body.error : `${r.response.status} ${r.response.statusText}`;
    throw new ApiError(r.response.status, message);
  }
  return r.data as T;
}
