/**
 * A `fetch` with a deadline and a cap on the answer's size, for libraries that accept a custom
 * fetch (the hostedgit client): the body is read up to `maxBytes` and the request is aborted with
 * an error past that, so a slow or endless answer cannot hold the worker or fill its memory
 * (SECURITY.md, "Outbound URLs"). The answer is handed back whole, as a new Response.
 */
export function cappedFetch(opts: { timeoutMs: number; maxBytes: number }): (url: string | URL, init?: RequestInit) => Promise<Response> {
  return async (url, init = {}) => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error(`no complete answer within ${opts.timeoutMs} ms`)), opts.timeoutMs);
    try {
      const res = await fetch(url, { ...init, signal: controller.signal });
      const chunks: Uint8Array[] = [];
      let size = 0;
      if (res.body) {
        const reader = res.body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          size += value.byteLength;
          if (size > opts.maxBytes) {
            controller.abort();
            throw new Error(`the answer is larger than ${opts.maxBytes} bytes`);
          }
          chunks.push(value);
        }
      }
      const body = res.status === 204 || res.status === 304 ? null : Buffer.concat(chunks);
      return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
    } finally {
      clearTimeout(timer);
    }
  };
}
