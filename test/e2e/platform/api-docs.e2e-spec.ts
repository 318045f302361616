import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderApiDocs } from '../../support/api-docs';
import { startTestApp, TestApp } from '../../support/app';

const FILE = join(__dirname, '../../../docs/api.md');
const DOCUMENT = join(__dirname, '../../../docs/openapi.json');

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ APP_ROLES: 'api' });
});
afterAll(() => t?.close());

describe('docs/api.md and docs/openapi.json', () => {
  it('are the OpenAPI document the service serves, rendered and as it is (npm run docs:api rewrites both)', async () => {
    const doc = (await t.api.get('/openapi.json')).body;
    const rendered = renderApiDocs(doc);
    const document = `${JSON.stringify(doc, null, 2)}\n`;
    if (process.env.UPDATE_API_DOCS === '1') {
      writeFileSync(FILE, rendered);
      writeFileSync(DOCUMENT, document);
    }
    expect(readFileSync(FILE, 'utf8')).toBe(rendered);
    // The document itself, which the web app's API types are generated from (npm run web:types).
    expect(readFileSync(DOCUMENT, 'utf8')).toBe(document);
    // Every route is in it with its access rule.
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const method of Object.keys(item)) {
        expect([path, method, item[method]['x-access']]).toEqual([path, method, expect.any(String)]);
        expect(rendered).toContain(`### \`${method.toUpperCase()} ${path}\``);
      }
    }
  });
});
