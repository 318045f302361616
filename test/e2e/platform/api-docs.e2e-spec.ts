import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderApiDocs } from '../../support/api-docs';
import { startTestApp, TestApp } from '../../support/app';

const FILE = join(__dirname, '../../../docs/api.md');

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ APP_ROLES: 'api' });
});
afterAll(() => t?.close());

describe('docs/api.md', () => {
  it('is the OpenAPI document the service serves, rendered (npm run docs:api rewrites it)', async () => {
    const doc = (await t.api.get('/openapi.json')).body;
    const rendered = renderApiDocs(doc);
    if (process.env.UPDATE_API_DOCS === '1') writeFileSync(FILE, rendered);
    expect(readFileSync(FILE, 'utf8')).toBe(rendered);
    // Every route is in it with its access rule.
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const method of Object.keys(item)) {
        expect([path, method, item[method]['x-access']]).toEqual([path, method, expect.any(String)]);
        expect(rendered).toContain(`### \`${method.toUpperCase()} ${path}\``);
      }
    }
  });
});
