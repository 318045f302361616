import { TestApp } from './app';

/** The first bytes of a PNG: enough for the image check (docs/files.md, "Safety"). */
export const PNG_BYTES = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(56, 1)]);

/**
 * Uploads `bytes` to a task in the three steps of docs/files.md (ask, send, finalize) as `token`'s
 * user; answers the asset record, or throws with what failed.
 */
export async function uploadFile(
  t: TestApp,
  token: string,
  taskId: string,
  bytes: Buffer = PNG_BYTES,
  fields: { filename?: string; contentType?: string; surface?: string } = {},
): Promise<any> {
  const body = { filename: 'shot.png', contentType: 'image/png', surface: 'attachment', ...fields, size: bytes.length };
  const ticket = await t.api.put(`/task/image-upload/${taskId}`, body, token);
  if (ticket.status !== 200) throw new Error(`upload request failed: ${ticket.status} ${ticket.text}`);
  const sent = await fetch(ticket.body.uploadUrl, { method: 'PUT', headers: ticket.body.headers, body: bytes });
  if (sent.status !== 200) throw new Error(`sending the bytes failed: ${sent.status} ${await sent.text()}`);
  const done = await t.api.post(`/task/image-upload/${taskId}/finalize`, { ...body, key: ticket.body.key }, token);
  if (done.status !== 200) throw new Error(`finalize failed: ${done.status} ${done.text}`);
  return done.body;
}
