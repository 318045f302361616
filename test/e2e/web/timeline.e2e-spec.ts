import type { Locator, Page } from 'playwright-core';
import { dateFromToday, dayFromToday } from '../../support/days';
import { until } from '../../support/until';
import { axeViolations, signIn, useWebApp } from '../../support/web-page';
import { createProject, createTask, ownerWithWorkspace } from '../../support/work-items';

/** The timeline view (docs/web.md, "Timeline") in a real Chromium against the real service. */
const web = useWebApp();
const PASSWORD = 'correct horse battery';

const at = dateFromToday;
const bar = (page: Page, title: string) => page.getByRole('button', { name: new RegExp(`^PLN-\\d+ ${title}: `) });

/** Presses on `el` (at `fromX` of its width, 0..1) and moves the pointer by `dx` pixels, then lets go. */
async function dragBy(page: Page, el: Locator, dx: number, fromX = 0.5): Promise<void> {
  const box = (await el.boundingBox())!;
  const [x, y] = [box.x + box.width * fromX, box.y + box.height / 2];
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y, { steps: 8 });
  await page.mouse.up();
}

describe('timeline', () => {
  it('bars from start to due, markers for one date, blocks arrows; drag moves, the ends resize, the keys move; a click opens', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(web.t);
    const project = await createProject(web.t, owner.token, workspaceId, { name: 'Roadmap', slug: 'PLN' });
    const design = await createTask(web.t, owner.token, project.id, { title: 'Design', startDate: at(2), dueDate: at(6) });
    const build = await createTask(web.t, owner.token, project.id, { title: 'Build', startDate: at(7), dueDate: at(12) });
    const launch = await createTask(web.t, owner.token, project.id, { title: 'Launch', dueDate: at(14) });
    await createTask(web.t, owner.token, project.id, { title: 'Someday' });
    expect((await web.t.api.post('/task-relation', { sourceTaskId: design.id, targetTaskId: build.id, relationType: 'blocks' }, owner.token)).status).toBe(200);
    const saved = async (id: string) => (await web.t.api.get(`/task/${id}`, owner.token)).body as { startDate: string | null; dueDate: string | null };
    const { page, problems, close } = await web.newPage();
    try {
      await signIn(page, owner.user.email, PASSWORD);
      await page.waitForURL((u) => u.pathname.startsWith('/w/'));
      await page.goto(`/w/${workspaceId}/p/${project.id}`);
      await page.getByRole('navigation', { name: 'View' }).getByRole('link', { name: 'Timeline' }).click();
      await page.getByRole('list', { name: 'Tasks by date' }).waitFor();
      // Weeks: a day is 32 px.
      await page.getByRole('button', { name: 'Weeks' }).click();
      await until('the weeks scale', async () => (await page.getByRole('button', { name: 'Weeks' }).getAttribute('aria-pressed')) === 'true');
      // Each of the eight weeks is marked by its Monday's day of the month, 7 days (224 px) apart.
      const weekMarks = page.locator('.timeline-week');
      expect(await weekMarks.count()).toBe(8);
      const [first, second] = [(await weekMarks.nth(0).boundingBox())!, (await weekMarks.nth(1).boundingBox())!];
      expect(second.x - first.x).toBeCloseTo(7 * 32, 0);
      expect(await weekMarks.allInnerTexts()).toEqual(expect.arrayContaining([expect.stringMatching(/^\d{1,2}$/)]));

      // Rows by start date; the undated one is only counted; Design blocks Build, drawn as one arrow.
      expect(await page.getByRole('list', { name: 'Tasks by date' }).locator('.card-title').allInnerTexts()).toEqual(['Design', 'Build', 'Launch']);
      await page.getByText(/3 tasks with dates; 1 without a start or due date is not shown/).waitFor();
      expect(await bar(page, 'Design').getAttribute('aria-label')).toMatch(/: .+ to .+; blocks PLN-2$/);
      expect(await bar(page, 'Build').getAttribute('aria-label')).toMatch(/; blocked by PLN-1$/);
      expect(await bar(page, 'Launch').getAttribute('aria-label')).toMatch(/: due /);
      expect(await page.locator('.timeline-arrow').count()).toBe(1);
      const width = (await bar(page, 'Design').boundingBox())!.width;
      expect(Math.round(width)).toBe(5 * 32);
      expect(await axeViolations(page)).toEqual([]);

      // Drag Design three days later: both dates move.
      await dragBy(page, bar(page, 'Design'), 3 * 32);
      await until('Design moved', async () => {
        const x = await saved(design.id);
        return x.startDate === at(5) && x.dueDate === at(9);
      });
      await until('its bar too', async () => (await bar(page, 'Design').getAttribute('data-from')) === dayFromToday(5));
      // Build's right end two days later: its due day only.
      await dragBy(page, bar(page, 'Build').locator('.timeline-grip.end'), 2 * 32);
      await until('Build resized', async () => {
        const x = await saved(build.id);
        return x.startDate === at(7) && x.dueDate === at(14);
      });
      // The keys: → moves the Launch marker a day; Shift+← takes a day off Design's due day; Alt+→ moves Build's start.
      await bar(page, 'Launch').focus();
      await page.keyboard.press('ArrowRight');
      await until('Launch a day later', async () => (await saved(launch.id)).dueDate === at(15));
      await bar(page, 'Design').focus();
      await page.keyboard.press('Shift+ArrowLeft');
      await until('Design due a day earlier', async () => (await saved(design.id)).dueDate === at(8));
      expect((await saved(design.id)).startDate).toBe(at(5));
      await bar(page, 'Build').focus();
      await page.keyboard.press('Alt+ArrowRight');
      await until('Build starting a day later', async () => (await saved(build.id)).startDate === at(8));

      // A click (no move) opens the task beside the timeline.
      await bar(page, 'Launch').click();
      await page
        .getByRole('dialog')
        .getByRole('heading', { name: /Launch/ })
        .waitFor();
      expect(new URL(page.url()).pathname).toBe(`/w/${workspaceId}/p/${project.id}/timeline/t/${launch.id}`);
      await page.keyboard.press('Escape');

      // The board's filters apply.
      await page.getByRole('group', { name: 'Filters' }).getByLabel('Text').fill('build');
      await until('only Build', async () => (await page.getByRole('list', { name: 'Tasks by date' }).locator('.card-title').allInnerTexts()).join() === 'Build');
      expect(await page.locator('.timeline-arrow').count()).toBe(0);

      await page.setViewportSize({ width: 375, height: 740 });
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
