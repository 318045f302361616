import { request } from 'node:http';
import { startTestApp, TestApp } from '../../support/app';
import { rawGet } from '../../support/raw-http';
import { createProject, createTask, ownerWithWorkspace } from '../../support/work-items';
import { COMPRESS_FROM_BYTES } from '../../../src/common/http/web-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

describe('compressed answers (docs/benchmarks.md, "Compressed answers")', () => {
  it('a JSON answer from the threshold on is sent compressed as the client accepts (brotli first, else gzip), a smaller one as it is', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const project = await createProject(t, owner.token, workspaceId);
    const small = await rawGet(`${t.url}/project/${project.id}`, { authorization: `Bearer ${owner.token}`, 'accept-encoding': 'br, gzip' });
    expect([small.status, small.headers['content-encoding'], small.wire.length < COMPRESS_FROM_BYTES]).toEqual([200, undefined, true]);

    for (let i = 0; i < 25; i++) await createTask(t, owner.token, project.id, { title: `Task ${i} with a title long enough to count`, description: 'x'.repeat(120) });
    const url = `${t.url}/task/tasks/${project.id}`;
    const auth = { authorization: `Bearer ${owner.token}` };
    const plain = await rawGet(url, auth);
    expect([plain.status, plain.headers['content-encoding']]).toEqual([200, undefined]);
    expect(plain.wire.length).toBeGreaterThan(COMPRESS_FROM_BYTES);
    const expected = JSON.parse(plain.body.toString('utf8'));

    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['identity', undefined],
    ] as const) {
      const res = await rawGet(url, { ...auth, 'accept-encoding': accept });
      expect([accept, res.status, res.headers['content-encoding'], res.headers.vary]).toEqual([accept, 200, encoding, expect.stringContaining('Accept-Encoding')]);
      expect(JSON.parse(res.body.toString('utf8'))).toEqual(expected);
      if (encoding) expect(res.wire.length).toBeLessThan(plain.wire.length / 3);
    }
  });

  it('the live event stream is never compressed: its first bytes arrive at once even when the client accepts gzip', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(t);
    const first = await new Promise<{ encoding: string | undefined; text: string }>((resolve, reject) => {
      const req = request(`${t.url}/events?workspaceId=${workspaceId}`, { headers: { authorization: `Bearer ${owner.token}`, 'accept-encoding': 'gzip, br' } }, (res) => {
        res.once('data', (chunk: Buffer) => {
          resolve({ encoding: res.headers['content-encoding'], text: chunk.toString('utf8') });
          req.destroy();
        });
      });
      req.on('error', reject);
      req.end();
    });
    expect(first).toEqual({ encoding: undefined, text: 'retry: 3000\n\n' });
  });
});
