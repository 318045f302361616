import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

/** An answer as it came over the wire: headers as sent, the body's bytes as sent and decoded. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  wire: Buffer;
  body: Buffer;
}

/**
 * A GET through Node's http client, which (unlike fetch) decodes nothing itself: so a test sees
 * the Content-Encoding the service chose and how many bytes it sent.
 */
export function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const wire = Buffer.concat(chunks);
        const encoding = res.headers['content-encoding'];
        const body = encoding === 'br' ? brotliDecompressSync(wire) : encoding === 'gzip' ? gunzipSync(wire) : wire;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, wire, body });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
