import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startTestApp, TestApp, testStorageDir } from '../../support/app';
import { sql } from '../../support/fixtures';
import { TestS3Server } from '../../support/s3-server';
import { until } from '../../support/until';
import { createProject, createTask, MISSING_ID, ownerWithWorkspace, taskOnBoard, userWithRole } from '../../support/work-items';

/**
 * Files (docs/files.md): the same tests against both file stores, the local disk and an
 * S3-compatible bucket (a real S3 server on loopback). Small limits, so that the limits are
 * reached with small files.
 */
const LIMITS = { S3_MAX_IMAGE_UPLOAD_BYTES: String(64 * 1024), MAX_ATTACHMENT_BYTES: String(256 * 1024), WORKSPACE_STORAGE_BYTES: String(400 * 1024) };

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(300, 7)]);
const HTML = Buffer.from('<html><body><script>document.title = "owned"</script></body></html>');

interface Driver {
  name: 'local' | 's3';
  start(): Promise<TestApp>;
  /** Whether the store holds the object of `key` (as the asset routes name it). */
  has(key: string): Promise<boolean>;
  /** The bucket stops answering, and comes back on the same address (S3 only). */
  stop?(): Promise<void>;
  restart?(): Promise<void>;
  close(): Promise<void>;
}

function localDriver(): Driver {
  let t: TestApp;
  return {
    name: 'local',
    start: async () => (t = await startTestApp(LIMITS)),
    has: async (key) => existsSync(join(testStorageDir(t.queuePrefix), key)),
    close: async () => undefined,
  };
}

function s3Driver(): Driver {
  const s3 = new TestS3Server();
  return {
    name: 's3',
    start: async () => {
      await s3.start();
      return startTestApp({ ...LIMITS, ...s3.env('tandem/') });
    },
    has: (key) => s3.has(`tandem/${key}`),
    stop: () => s3.stop(),
    restart: async () => void (await s3.start(s3.port)),
    close: () => s3.close(),
  };
}

describe.each([localDriver(), s3Driver()])('files ($name store)', (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await driver.start();
  });
  afterAll(async () => {
    await t?.close();
    await driver.close();
  });

  const ask = (token: string, taskId: string, body: Record<string, unknown>) => t.api.put(`/task/image-upload/${taskId}`, body, token);
  const send = (ticket: { uploadUrl: string; headers: Record<string, string> }, bytes: Buffer, headers: Record<string, string> = {}) =>
    fetch(ticket.uploadUrl, { method: 'PUT', headers: { ...ticket.headers, ...headers }, body: bytes });
  const finalize = (token: string, taskId: string, body: Record<string, unknown>) => t.api.post(`/task/image-upload/${taskId}/finalize`, body, token);

  /** The three steps; answers the finalize's answer and the ticket. */
  async function upload(token: string, taskId: string, bytes: Buffer, fields: { filename?: string; contentType?: string; surface?: string } = {}) {
    const body = { filename: 'shot.png', contentType: 'image/png', surface: 'description', ...fields, size: bytes.length };
    const ticket = await ask(token, taskId, body);
    expect([ticket.status, ticket.text]).toEqual([200, expect.any(String)]);
    const put = await send(ticket.body, bytes);
    expect([put.status, await put.text()]).toEqual([200, expect.any(String)]);
    return { done: await finalize(token, taskId, { ...body, key: ticket.body.key }), ticket: ticket.body };
  }

  const download = (id: string, token?: string, headers: Record<string, string> = {}) =>
    fetch(`${t.url}/asset/${id}`, { headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } });

  it('uploads an image in three steps, lists it and streams it back inline with the safety headers', async () => {
    const { owner, task } = await taskOnBoard(t);
    const { done, ticket } = await upload(owner.token, task.id, PNG);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({
      id: expect.any(String),
      taskId: task.id,
      filename: 'shot.png',
      contentType: 'image/png',
      size: PNG.length,
      surface: 'description',
      url: `/api/asset/${done.body.id}`,
      isImage: true,
      uploadedBy: { id: owner.user.id, name: owner.user.name },
      createdAt: expect.any(String),
    });
    // The local store takes the bytes itself; with S3 the client sends them to the bucket.
    if (driver.name === 'local') expect(ticket.uploadUrl.startsWith(`${new URL(t.url).origin}/api/asset/upload/`)).toBe(true);
    else expect(ticket.uploadUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/tandem-test\/tandem\/assets\/.*X-Amz-Signature=/);
    expect(ticket.key).toMatch(/^assets\/[0-9a-f-]{36}\/[0-9a-f-]{36}$/);
    expect(await driver.has(ticket.key)).toBe(true);

    const res = await download(done.body.id, owner.token);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe('sandbox');
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="shot.png"; filename*=UTF-8''shot.png`);
    expect(res.headers.get('content-length')).toBe(String(PNG.length));

    const second = (await upload(owner.token, task.id, PNG, { filename: 'b.png', surface: 'attachment' })).done.body;
    const list = await t.api.get(`/asset/task/${task.id}`, owner.token);
    expect(list.status).toBe(200);
    expect(list.body.map((a: any) => a.id)).toEqual([second.id, done.body.id]);
    // Finalizing again answers the same record.
    expect((await finalize(owner.token, task.id, { key: ticket.key, filename: 'shot.png', contentType: 'image/png', size: PNG.length })).body).toEqual(done.body);
  });

  it('answers byte ranges (206), suffixes and 416 outside the file', async () => {
    const { owner, task } = await taskOnBoard(t);
    const bytes = Buffer.from('0123456789abcdefghij');
    const { done } = await upload(owner.token, task.id, bytes, { filename: 'digits.txt', contentType: 'text/plain', surface: 'attachment' });
    const part = await download(done.body.id, owner.token, { range: 'bytes=2-5' });
    expect([part.status, part.headers.get('content-range'), await part.text()]).toEqual([206, 'bytes 2-5/20', '2345']);
    const tail = await download(done.body.id, owner.token, { range: 'bytes=-3' });
    expect([tail.status, await tail.text()]).toEqual([206, 'hij']);
    const outside = await download(done.body.id, owner.token, { range: 'bytes=20-' });
    expect([outside.status, outside.headers.get('content-range'), await outside.json()]).toEqual([416, 'bytes */20', { message: "The range is outside the file's 20 bytes" }]);
  });

  it('streams a file of many chunks byte for byte, whole and across a chunk boundary; a reader that leaves mid-file harms nothing', async () => {
    const { owner, task } = await taskOnBoard(t);
    const bytes = randomBytes(200 * 1024);
    const { done } = await upload(owner.token, task.id, bytes, { filename: 'noise.bin', contentType: 'application/octet-stream', surface: 'attachment' });
    const whole = await download(done.body.id, owner.token);
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);
    const across = await download(done.body.id, owner.token, { range: 'bytes=65530-131080' });
    expect([across.status, across.headers.get('content-length')]).toEqual([206, String(131080 - 65530 + 1)]);
    expect(Buffer.from(await across.arrayBuffer()).equals(bytes.subarray(65530, 131081))).toBe(true);
    // Read the first chunk, then go away.
    const left = new AbortController();
    const partial = await fetch(`${t.url}/asset/${done.body.id}`, { headers: { authorization: `Bearer ${owner.token}` }, signal: left.signal });
    await partial.body!.getReader().read();
    left.abort();
    const again = await download(done.body.id, owner.token);
    expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('serves anything that is not a raster image as a download, with a safe file name', async () => {
    const { owner, task } = await taskOnBoard(t);
    const { done } = await upload(owner.token, task.id, HTML, { filename: '../../Bericht\u202Egnp.html\r\n', contentType: 'text/html', surface: 'attachment' });
    expect(done.body).toMatchObject({ filename: 'Berichtgnp.html', contentType: 'text/html', isImage: false });
    const res = await download(done.body.id, owner.token);
    expect(res.headers.get('content-type')).toBe('text/html');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="Berichtgnp.html"; filename*=UTF-8''Berichtgnp.html`);
    expect(res.headers.get('content-security-policy')).toBe('sandbox');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const svg = await upload(owner.token, task.id, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), {
      filename: 'März.svg',
      contentType: 'image/svg+xml',
      surface: 'attachment',
    });
    const svgRes = await download(svg.done.body.id, owner.token);
    expect(svgRes.headers.get('content-disposition')).toBe(`attachment; filename="M_rz.svg"; filename*=UTF-8''M%C3%A4rz.svg`);
  });

  it('takes only raster images into descriptions and comments, by their bytes; a refused file is removed', async () => {
    const { owner, task } = await taskOnBoard(t);
    const svg = await ask(owner.token, task.id, { filename: 'x.svg', contentType: 'image/svg+xml', size: 10, surface: 'comment' });
    expect([svg.status, svg.body]).toEqual([400, { message: 'An image of a comment must be a raster image (PNG, JPEG, GIF, WebP, BMP or AVIF), not image/svg+xml' }]);
    const { done, ticket } = await upload(owner.token, task.id, HTML, { filename: 'fake.png', contentType: 'image/png', surface: 'description' });
    expect([done.status, done.body]).toEqual([400, { message: 'The uploaded file is not a raster image (PNG, JPEG, GIF, WebP, BMP or AVIF)' }]);
    await until('the refused object is removed', async () => !(await driver.has(ticket.key)));
    expect((await t.api.get(`/asset/task/${task.id}`, owner.token)).body).toEqual([]);
    // The key is used up.
    expect((await finalize(owner.token, task.id, { key: ticket.key, filename: 'fake.png', contentType: 'image/png', size: HTML.length })).status).toBe(400);
  });

  it('refuses files over their limit and over the workspace quota (413), counting unfinished uploads', async () => {
    const { owner, task } = await taskOnBoard(t);
    const big = await ask(owner.token, task.id, { filename: 'big.png', contentType: 'image/png', size: 64 * 1024 + 1, surface: 'description' });
    expect([big.status, big.body]).toEqual([413, { message: 'The file is larger than the 64 KiB allowed for an image' }]);
    const bigFile = await ask(owner.token, task.id, { filename: 'big.zip', contentType: 'application/zip', size: 256 * 1024 + 1, surface: 'attachment' });
    expect([bigFile.status, bigFile.body]).toEqual([413, { message: 'The file is larger than the 256 KiB allowed for an attachment' }]);
    const asks = (size: number) => ask(owner.token, task.id, { filename: 'a.zip', contentType: 'application/zip', size, surface: 'attachment' });
    expect((await asks(200 * 1024)).status).toBe(200);
    expect((await asks(150 * 1024)).status).toBe(200);
    const over = await asks(51 * 1024);
    expect([over.status, over.body]).toEqual([413, { message: 'The workspace has no room left for this file: its files may take 400 KiB in all' }]);
    expect((await asks(50 * 1024)).status).toBe(200);
    // Uploads racing for the last room: exactly as many as fit get it.
    const racer = await taskOnBoard(t);
    const raced = await Promise.all(
      Array.from({ length: 6 }, () => ask(racer.owner.token, racer.task.id, { filename: 'r.zip', contentType: 'application/zip', size: 100 * 1024, surface: 'attachment' })),
    );
    expect(raced.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 413, 413]);
    // Another workspace has its own room.
    const other = await taskOnBoard(t);
    expect((await ask(other.owner.token, other.task.id, { filename: 'a.zip', contentType: 'application/zip', size: 200 * 1024, surface: 'attachment' })).status).toBe(200);
  });

  it('a finalize whose stored file is missing or of another size is 400, and the object is removed', async () => {
    const { owner, task } = await taskOnBoard(t);
    const body = { filename: 'a.bin', contentType: 'application/octet-stream', size: 100, surface: 'attachment' };
    const nothing = await ask(owner.token, task.id, body);
    const missing = await finalize(owner.token, task.id, { ...body, key: nothing.body.key });
    expect([missing.status, missing.body]).toEqual([400, { message: 'Nothing was uploaded with this key' }]);

    const short = await ask(owner.token, task.id, body);
    const sent = await send(short.body, Buffer.alloc(60, 1));
    if (driver.name === 'local') {
      // The service counts the bytes itself.
      expect([sent.status, await sent.json()]).toEqual([400, { message: 'Content-Length must be the declared 100' }]);
      expect((await finalize(owner.token, task.id, { ...body, key: short.body.key })).body).toEqual({ message: 'Nothing was uploaded with this key' });
    } else {
      const res = await finalize(owner.token, task.id, { ...body, key: short.body.key });
      expect([res.status, res.body]).toEqual([400, { message: 'The uploaded file has 60 bytes, not the declared 100' }]);
      await until('the object of the wrong size is removed', async () => !(await driver.has(short.body.key)));
    }
    expect((await t.api.get(`/asset/task/${task.id}`, owner.token)).body).toEqual([]);
  });

  it('needs task:update to upload and task:read to read; deleting needs its uploader or task:update', async () => {
    const { owner, workspaceId, task } = await taskOnBoard(t);
    const viewer = await userWithRole(t, workspaceId, 'viewer');
    const member = await userWithRole(t, workspaceId, 'member');
    expect((await ask(viewer.token, task.id, { filename: 'a.png', contentType: 'image/png', size: 10 })).status).toBe(403);
    const mine = (await upload(member.token, task.id, PNG)).done.body;
    const owners = (await upload(owner.token, task.id, PNG)).done.body;
    expect((await download(mine.id, viewer.token)).status).toBe(200);
    expect((await t.api.get(`/asset/task/${task.id}`, viewer.token)).body).toHaveLength(2);
    const refused = await t.api.delete(`/asset/${owners.id}`, viewer.token);
    expect([refused.status, refused.body]).toEqual([403, { message: 'Insufficient permissions: task:update is needed' }]);
    expect((await t.api.delete(`/asset/${mine.id}`, member.token)).body).toEqual(mine);
    expect((await t.api.delete(`/asset/${owners.id}`, member.token)).status).toBe(200);
    expect((await download(mine.id, owner.token)).status).toBe(404);
    expect((await t.api.delete(`/asset/${mine.id}`, owner.token)).status).toBe(404);
  });

  it("another workspace's asset and task are 404 everywhere; signed out, a private file is 401 and a public project's is open", async () => {
    const { owner, workspaceId, task } = await taskOnBoard(t);
    const asset = (await upload(owner.token, task.id, PNG)).done.body;
    const stranger = await ownerWithWorkspace(t);
    expect((await download(asset.id, stranger.owner.token)).status).toBe(404);
    expect((await t.api.get(`/asset/task/${task.id}`, stranger.owner.token)).status).toBe(404);
    expect((await t.api.delete(`/asset/${asset.id}`, stranger.owner.token)).body).toEqual({ message: 'Asset not found' });
    expect((await ask(stranger.owner.token, task.id, { filename: 'a.png', contentType: 'image/png', size: 10 })).status).toBe(404);
    expect((await download(MISSING_ID, owner.token)).status).toBe(404);
    expect((await download('not-an-id', owner.token)).status).toBe(404);
    // A stranger's key cannot be finalized on one's own task, nor one's own on another task.
    const strangerTask = (await taskOnBoard(t)).task;
    const ticket = await ask(owner.token, task.id, { filename: 'a.png', contentType: 'image/png', size: PNG.length });
    await send(ticket.body, PNG);
    expect((await finalize(owner.token, strangerTask.id, { key: ticket.body.key, filename: 'a.png', contentType: 'image/png', size: PNG.length })).status).toBe(404);
    const sameWs = await createTask(t, owner.token, task.projectId);
    expect((await finalize(owner.token, sameWs.id, { key: ticket.body.key, filename: 'a.png', contentType: 'image/png', size: PNG.length })).status).toBe(400);

    expect((await download(asset.id)).status).toBe(401);
    const open = await createProject(t, owner.token, workspaceId, { isPublic: true });
    const openTask = await createTask(t, owner.token, open.id);
    const shown = (await upload(owner.token, openTask.id, PNG)).done.body;
    const res = await download(shown.id);
    expect([res.status, res.headers.get('cache-control')]).toEqual([200, 'public, max-age=86400, no-transform']);
    expect((await download(shown.id, stranger.owner.token)).status).toBe(200);
    // The listing stays for members.
    expect((await t.api.get(`/asset/task/${openTask.id}`)).status).toBe(401);
  });

  it('removes the files of a deleted asset, task, comment and workspace (the worker), and abandons unfinished uploads', async () => {
    const { owner, workspaceId, project, task } = await taskOnBoard(t);
    const single = await upload(owner.token, task.id, PNG);
    await t.api.delete(`/asset/${single.done.body.id}`, owner.token);
    await until('a deleted asset loses its file', async () => !(await driver.has(single.ticket.key)));

    // A comment's images go with the comment; an attachment stays with the task.
    const image = await upload(owner.token, task.id, PNG, { surface: 'comment' });
    const attachment = await upload(owner.token, task.id, HTML, { filename: 'a.html', contentType: 'text/html', surface: 'attachment' });
    const comment = await t.api.post(`/comment/${task.id}`, { content: `Look: ![shot](/api/asset/${image.done.body.id})` }, owner.token);
    expect(comment.status).toBe(200);
    expect((await t.api.delete(`/comment/${comment.body.id}`, owner.token)).status).toBe(200);
    await until('the comment image is removed with its comment', async () => !(await driver.has(image.ticket.key)));
    expect((await t.api.get(`/asset/task/${task.id}`, owner.token)).body.map((a: any) => a.id)).toEqual([attachment.done.body.id]);

    const other = await createTask(t, owner.token, project.id);
    const inOther = await upload(owner.token, other.id, PNG);
    expect((await t.api.delete(`/task/${task.id}`, owner.token)).status).toBe(200);
    await until('a deleted task loses its files', async () => !(await driver.has(attachment.ticket.key)));
    expect(await driver.has(inOther.ticket.key)).toBe(true);

    const abandoned = await ask(owner.token, other.id, { filename: 'late.png', contentType: 'image/png', size: PNG.length });
    await send(abandoned.body, PNG);
    await sql(t.databaseUrl, `UPDATE asset SET created_at = now() - interval '25 hours' WHERE storage_key = $1`, [abandoned.body.key]);
    await until('an upload never finalized is abandoned', async () => !(await driver.has(abandoned.body.key)));
    expect((await sql(t.databaseUrl, `SELECT 1 FROM asset WHERE storage_key = $1`, [abandoned.body.key])).length).toBe(0);

    expect((await t.api.post('/auth/organization/delete', { organizationId: workspaceId }, owner.token)).status).toBe(200);
    await until('a deleted workspace loses its files', async () => !(await driver.has(inOther.ticket.key)));
    expect(await sql(t.databaseUrl, `SELECT storage_key FROM stored_file_removal`)).toEqual([]);
  });

  if (driver.name === 's3') {
    it("lets the web app's pages connect to the bucket (Content-Security-Policy connect-src), for the browser's direct uploads", async () => {
      const { owner, task } = await taskOnBoard(t);
      const ticket = (await ask(owner.token, task.id, { filename: 'a.png', contentType: 'image/png', size: PNG.length })).body;
      const csp = (await fetch(`${t.url}/health`)).headers.get('content-security-policy') ?? '';
      const connect = /(?:^|;)\s*connect-src ([^;]*)/.exec(csp)?.[1].split(' ') ?? [];
      expect(connect).toEqual(expect.arrayContaining(["'self'", new URL(ticket.uploadUrl).origin]));
    });

    it('a removal that fails while the bucket is away is kept with its error and retried until the object is gone', async () => {
      const { owner, task } = await taskOnBoard(t);
      const { done, ticket } = await upload(owner.token, task.id, PNG);
      await driver.stop!();
      try {
        expect((await t.api.delete(`/asset/${done.body.id}`, owner.token)).status).toBe(200);
        const failed = await until('the failed attempt to be recorded', async () => {
          const [row] = await sql(t.databaseUrl, `SELECT attempts, last_error FROM stored_file_removal WHERE storage_key = $1`, [ticket.key]);
          return row?.last_error ? row : null;
        });
        expect(failed.attempts).toBeGreaterThanOrEqual(1);
      } finally {
        await driver.restart!();
      }
      await until('the object removed once the bucket is back', async () => !(await driver.has(ticket.key)), 30_000);
      await until('the removal cleared', async () => (await sql(t.databaseUrl, `SELECT 1 FROM stored_file_removal WHERE storage_key = $1`, [ticket.key])).length === 0);
    }, 45_000);
  }

  if (driver.name === 'local') {
    it("the service's own upload URL is one-use, needs its token and the declared Content-Type", async () => {
      const { owner, task } = await taskOnBoard(t);
      const ticket = (await ask(owner.token, task.id, { filename: 'a.png', contentType: 'image/png', size: PNG.length })).body;
      const forged = await fetch(ticket.uploadUrl.replace(/token=[^&]+/, 'token=forged'), { method: 'PUT', headers: ticket.headers, body: PNG });
      expect([forged.status, await forged.json()]).toEqual([403, { message: 'This upload URL is not valid: it was used already, has expired or was never issued' }]);
      const typed = await send(ticket, PNG, { 'Content-Type': 'text/html' });
      expect([typed.status, await typed.json()]).toEqual([400, { message: 'Content-Type must be the declared image/png' }]);
      // Refused headers leave the URL usable; once used, it is spent.
      expect((await send(ticket, PNG)).status).toBe(200);
      expect((await send(ticket, PNG)).status).toBe(403);
      const json = (await ask(owner.token, task.id, { filename: 'a.json', contentType: 'application/json', size: 9, surface: 'attachment' })).body;
      // A JSON file is bytes like any other: never parsed as a request body.
      expect((await send(json, Buffer.from('{"a": 1}\n'))).status).toBe(200);
      expect((await finalize(owner.token, task.id, { key: json.key, filename: 'a.json', contentType: 'application/json', size: 9, surface: 'attachment' })).status).toBe(200);
    });
  }
});
