import { sql } from '../../support/fixtures';
import { PNG_BYTES, uploadFile } from '../../support/files';
import { until } from '../../support/until';
import { axeViolations, signIn, type useWebApp } from '../../support/web-page';
import { createProject, createTask, ownerWithWorkspace } from '../../support/work-items';

/**
 * Files in the web app (docs/files.md): images pasted into the description and a comment, the
 * attachments list, the card's count, in a real Chromium. The same journeys run with each file
 * store: files.e2e-spec.ts (the local disk) and files-s3.e2e-spec.ts (a bucket on loopback, which
 * the browser uploads to directly). `has(key)` says whether that store holds a file's object.
 */
export function describeWebFiles(web: ReturnType<typeof useWebApp>, store: string, has: (key: string) => Promise<boolean>): void {
  /** A 1×1 PNG a browser decodes. */
  const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

  /** Pastes an image file into the focused text area, as a screenshot pasted from the clipboard arrives. */
  const pasteImage = (name: string) => `(() => {
  const bin = atob(${JSON.stringify(PIXEL)});
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const data = new DataTransfer();
  data.items.add(new File([bytes], ${JSON.stringify(name)}, { type: 'image/png' }));
  document.activeElement.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
})()`;

  /** Whether every image of the locator's subtree has loaded and decoded. */
  const imagesLoaded = (selector: string) => `[...document.querySelectorAll(${JSON.stringify(selector)})].every((i) => i.complete && i.naturalWidth > 0)`;

  describe(`files in the web app (${store})`, () => {
    it('an image pasted into the description and into a comment uploads and shows; an image the original service linked shows too', async () => {
      const { t } = web;
      const { owner, workspaceId } = await ownerWithWorkspace(t);
      const project = await createProject(t, owner.token, workspaceId, { name: 'Shots' });
      const task = await createTask(t, owner.token, project.id, { title: 'Look at this' });
      const { page, problems, close } = await web.newPage();
      try {
        await signIn(page, owner.user.email, 'correct horse battery');
        await page.waitForURL((u) => u.pathname.startsWith('/w/'));
        await page.goto(`/w/${workspaceId}/p/${project.id}/t/${task.id}`);
        const panel = page.getByRole('dialog', { name: /Look at this/ });
        await panel.getByRole('heading', { name: /Look at this/ }).waitFor();

        await panel.getByRole('button', { name: 'Edit description' }).click();
        const box = panel.getByLabel('Description (Markdown)');
        await box.fill('Before');
        await page.evaluate(pasteImage('screen shot.png'));
        await until('the pasted image in the text', async () => /!\[screen shot\]\(\/api\/asset\/[0-9a-f-]{36}\)/.test(await box.inputValue()));
        expect(await box.inputValue()).toMatch(/^Before\n!\[screen shot\]\(\/api\/asset\/[0-9a-f-]{36}\)\n$/);
        await panel.getByRole('button', { name: 'Save description' }).click();
        const shown = panel.locator('.description img[alt="screen shot"]');
        await shown.waitFor();
        await until('the description image to load', () => page.evaluate(imagesLoaded('.description img')));
        const saved = (await t.api.get(`/task/${task.id}`, owner.token)).body.description as string;
        const id = /\/api\/asset\/([0-9a-f-]{36})/.exec(saved)![1];
        expect((await t.api.get(`/asset/task/${task.id}`, owner.token)).body).toEqual([
          expect.objectContaining({ id, surface: 'description', filename: 'screen shot.png', isImage: true }),
        ]);

        // A comment: pasted, posted, shown, and its image belongs to the comment.
        const comments = panel.getByRole('region', { name: 'Comments' });
        await comments.getByLabel('Add a comment').focus();
        await page.evaluate(pasteImage('diagram.png'));
        await until('the comment image in the text', async () => (await comments.getByLabel('Add a comment').inputValue()).includes('![diagram](/api/asset/'));
        await comments.getByRole('button', { name: 'Comment' }).click();
        await comments.locator('.comment-body img[alt="diagram"]').waitFor();
        await until('the comment image to load', () => page.evaluate(imagesLoaded('.comment-body img')));
        const [comment] = (await t.api.get(`/comment/${task.id}`, owner.token)).body;
        const owned = await sql(t.databaseUrl, `SELECT comment_id FROM asset WHERE surface = 'comment' AND task_id = $1`, [task.id]);
        expect(owned).toEqual([{ comment_id: comment.id }]);

        // Markdown the original service wrote: its image link shows the file when it exists.
        const other = await createTask(t, owner.token, project.id, { title: 'Imported' });
        const file = await uploadFile(t, owner.token, other.id, PNG_BYTES, { surface: 'description' });
        await t.api.put(`/task/${other.id}`, { description: `Old text ![old](/api/asset/${file.id})` }, owner.token);
        await page.goto(`/w/${workspaceId}/p/${project.id}/t/${other.id}`);
        await page
          .getByRole('dialog', { name: /Imported/ })
          .locator('.description img[alt="old"]')
          .waitFor();
        expect(await axeViolations(page)).toEqual([]);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    });

    it('attachments: added with the button (a progress bar while it uploads), listed with a thumbnail and a download link, counted on the card, deleted', async () => {
      const { t } = web;
      const { owner, workspaceId } = await ownerWithWorkspace(t);
      const project = await createProject(t, owner.token, workspaceId, { name: 'Docs' });
      const task = await createTask(t, owner.token, project.id, { title: 'Contract' });
      const { page, problems, close } = await web.newPage();
      try {
        await signIn(page, owner.user.email, 'correct horse battery');
        await page.waitForURL((u) => u.pathname.startsWith('/w/'));
        await page.goto(`/w/${workspaceId}/p/${project.id}/t/${task.id}`);
        const panel = page.getByRole('dialog', { name: /Contract/ });
        const section = panel.getByRole('region', { name: 'Attachments' });
        await section.getByText('No attachments.').waitFor();

        // A slow link, so that the progress bar is seen.
        const cdp = await page.context().newCDPSession(page);
        await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 200 * 1024 });
        const chooser = page.waitForEvent('filechooser');
        await section.getByRole('button', { name: 'Add files' }).click();
        await (
          await chooser
        ).setFiles([
          { name: 'terms.pdf', mimeType: 'application/pdf', buffer: Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(600 * 1024, 32)]) },
          { name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from(PIXEL, 'base64') },
        ]);
        await section.getByRole('progressbar', { name: 'Uploading terms.pdf' }).waitFor();
        await section.getByRole('link', { name: 'terms.pdf' }).waitFor({ timeout: 30_000 });
        await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
        await section.getByRole('link', { name: 'logo.png' }).waitFor();
        expect(await section.getByRole('progressbar').count()).toBe(0);
        const assets = (await t.api.get(`/asset/task/${task.id}`, owner.token)).body as { id: string; filename: string; url: string }[];
        expect(assets.map((a) => a.filename).sort()).toEqual(['logo.png', 'terms.pdf']);
        const pdf = assets.find((a) => a.filename === 'terms.pdf')!;
        // The bytes are in the store the service is set up with.
        expect(await has(`assets/${workspaceId}/${pdf.id}`)).toBe(true);
        expect(await section.getByRole('link', { name: 'terms.pdf' }).getAttribute('href')).toBe(pdf.url);
        expect(await section.getByRole('link', { name: 'terms.pdf' }).getAttribute('download')).toBe('terms.pdf');
        await until('the thumbnail to load', () => page.evaluate(imagesLoaded('.attachment img')));
        expect(await section.locator('.attachment img').count()).toBe(1);
        expect(await axeViolations(page)).toEqual([]);

        // The card counts them.
        await panel.getByRole('button', { name: 'Close task' }).click();
        await page.getByLabel('2 attachments').waitFor();

        // Deleted through the dialog.
        await page.goto(`/w/${workspaceId}/p/${project.id}/t/${task.id}`);
        await section.getByRole('button', { name: 'Delete terms.pdf' }).click();
        const confirm = page.getByRole('alertdialog', { name: 'Delete this attachment?' });
        await confirm.getByRole('button', { name: 'Delete' }).click();
        await section.getByRole('link', { name: 'terms.pdf' }).waitFor({ state: 'detached' });
        expect((await t.api.get(`/asset/task/${task.id}`, owner.token)).body.map((a: { filename: string }) => a.filename)).toEqual(['logo.png']);
        await panel.getByRole('button', { name: 'Close task' }).click();
        await page.getByLabel('1 attachment').waitFor();
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    });
  });
}
