import type { Locator, Page } from 'playwright-core';
import { until } from '../../support/until';
import { axeViolations, signIn, useWebApp } from '../../support/web-page';
import { createProject, createTask, ownerWithWorkspace, userWithRole } from '../../support/work-items';

/** The calendar view (docs/web.md, "Calendar") in a real Chromium against the real service. */
const web = useWebApp();
const PASSWORD = 'correct horse battery';

/** `YYYY-MM-DD` of day `d` of the current month (the page opens on the current month). */
const ym = (() => {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`;
})();
const dayOf = (d: number) => `${ym}-${String(d).padStart(2, '0')}`;
const at = (d: number) => `${dayOf(d)}T00:00:00.000Z`;
const cell = (page: Page, d: number) => page.locator(`[data-day="${dayOf(d)}"]`);
const titlesOn = (page: Page, d: number) => cell(page, d).locator('.card-title').allInnerTexts();

/** Drags a calendar task (its row on a day) onto another day's cell with the mouse. */
async function dragOnto(page: Page, item: Locator, target: Locator): Promise<void> {
  const from = (await item.boundingBox())!;
  const to = (await target.boundingBox())!;
  await page.mouse.move(from.x + from.width / 3, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 3 + 10, from.y + from.height / 2 + 10, { steps: 3 });
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 10 });
  await page.mouse.up();
}
const taskOn = (page: Page, d: number, title: string) => cell(page, d).locator('li', { hasText: title });

async function openCalendar(page: Page, email: string, workspaceId: string, projectId: string, query = '') {
  await signIn(page, email, PASSWORD);
  await page.waitForURL((u) => u.pathname.startsWith('/w/'));
  await page.goto(`/w/${workspaceId}/p/${projectId}/calendar${query}`);
  await page.getByRole('grid', { name: 'Days' }).waitFor();
}

describe('calendar', () => {
  it('tasks on their due day or across start to due; drag moves the dates; a day adds a task due then; week view; filters apply', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(web.t);
    const project = await createProject(web.t, owner.token, workspaceId, { name: 'Planning', slug: 'PLN' });
    const single = await createTask(web.t, owner.token, project.id, { title: 'Ship the newsletter', dueDate: at(10), priority: 'high' });
    const span = await createTask(web.t, owner.token, project.id, { title: 'Offsite', startDate: at(12), dueDate: at(14) });
    await createTask(web.t, owner.token, project.id, { title: 'Someday', priority: 'low' });
    const { page, problems, close } = await web.newPage();
    try {
      // Reached from the board in one step.
      await signIn(page, owner.user.email, PASSWORD);
      await page.waitForURL((u) => u.pathname.startsWith('/w/'));
      await page.goto(`/w/${workspaceId}/p/${project.id}`);
      await page.getByRole('navigation', { name: 'View' }).getByRole('link', { name: 'Calendar' }).click();
      await page.getByRole('grid', { name: 'Days' }).waitFor();
      const monthTitle = new Date(`${dayOf(1)}T00:00:00Z`).toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
      await page.getByRole('heading', { name: monthTitle }).waitFor();

      expect(await titlesOn(page, 10)).toEqual(['Ship the newsletter']);
      for (const d of [12, 13, 14]) expect(await titlesOn(page, d)).toEqual(['Offsite']);
      expect(await titlesOn(page, 11)).toEqual([]);
      await page.getByText('1 task without a due date is not on the calendar.').waitFor();
      expect(await axeViolations(page)).toEqual([]);

      // Drag the single task to the 17th: shown there at once, and saved.
      await dragOnto(page, taskOn(page, 10, 'Ship the newsletter'), cell(page, 17));
      await until('the newsletter on the 17th', async () => (await titlesOn(page, 17)).includes('Ship the newsletter'));
      expect(await titlesOn(page, 10)).toEqual([]);
      await until('the due date saved', async () => (await web.t.api.get(`/task/${single.id}`, owner.token)).body.dueDate?.startsWith(dayOf(17)));
      // Drag the span by its middle day two days on: it keeps its length.
      await dragOnto(page, taskOn(page, 13, 'Offsite'), cell(page, 15));
      await until('the offsite saved', async () => {
        const x = (await web.t.api.get(`/task/${span.id}`, owner.token)).body;
        return x.startDate?.startsWith(dayOf(14)) && x.dueDate?.startsWith(dayOf(16));
      });
      for (const d of [14, 15, 16]) expect(await titlesOn(page, d)).toContain('Offsite');
      expect(await titlesOn(page, 13)).toEqual([]);

      // A day's + adds a task due that day.
      await cell(page, 20)
        .getByRole('button', { name: /^Add a task on / })
        .click();
      await page
        .getByRole('dialog', { name: /^New task on / })
        .getByLabel('Title')
        .fill('Book the venue');
      await page
        .getByRole('dialog', { name: /^New task on / })
        .getByRole('button', { name: 'Add task' })
        .click();
      await until('the new task on the 20th', async () => (await titlesOn(page, 20)).includes('Book the venue'));
      const made = (await web.t.api.get(`/task/tasks/${project.id}?q=venue`, owner.token)).body.data[0];
      expect(made.dueDate).toBe(at(20));

      // The board's filters apply (and stay in the address); a task opens beside the calendar.
      await page.getByRole('group', { name: 'Filters' }).getByLabel('Priority filter').selectOption('high');
      await until('only the high-priority task', async () => (await page.locator('.calendar-task').count()) === 1);
      expect(page.url()).toContain('priority=high');
      await taskOn(page, 17, 'Ship the newsletter')
        .getByRole('button', { name: /Ship the newsletter/ })
        .first()
        .click();
      await page
        .getByRole('dialog')
        .getByRole('heading', { name: /Ship the newsletter/ })
        .waitFor();
      expect(new URL(page.url()).pathname).toBe(`/w/${workspaceId}/p/${project.id}/calendar/t/${single.id}`);
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Clear filters' }).click();

      // The week of the 17th: seven days, Monday first; Next and Previous move by a week.
      await page.goto(`/w/${workspaceId}/p/${project.id}/calendar?span=week&at=${dayOf(17)}`);
      await page.getByRole('grid', { name: 'Days' }).waitFor();
      expect(await page.locator('.calendar-day').count()).toBe(7);
      expect(await titlesOn(page, 17)).toEqual(['Ship the newsletter']);
      const firstDay = await page.locator('.calendar-day').first().getAttribute('data-day');
      expect(new Date(`${firstDay}T00:00:00Z`).getUTCDay()).toBe(1);
      await page.getByRole('button', { name: 'Next week' }).click();
      await until('a week later', async () => (await page.locator('.calendar-day').first().getAttribute('data-day')) !== firstDay);
      await page.getByRole('button', { name: 'Month' }).click();
      await until('the month again', async () => (await page.locator('.calendar-day').count()) >= 28);
      expect(await axeViolations(page)).toEqual([]);

      // At 375 px the page does not run past the screen (the grid scrolls inside).
      await page.setViewportSize({ width: 375, height: 740 });
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it("a refused move goes back with the service's message; a change elsewhere shows live", async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(web.t);
    const member = await userWithRole(web.t, workspaceId, 'member');
    const project = await createProject(web.t, owner.token, workspaceId, { name: 'Refused', slug: 'REF' });
    const task = await createTask(web.t, owner.token, project.id, { title: 'Stay on the 8th', dueDate: at(8) });
    const { page, problems, close } = await web.newPage();
    try {
      await openCalendar(page, member.user.email, workspaceId, project.id);
      await page.getByText('Live', { exact: true }).waitFor();
      expect(await titlesOn(page, 8)).toEqual(['Stay on the 8th']);
      // Live: the owner moves it from the command line.
      expect((await web.t.api.put(`/task/${task.id}`, { dueDate: at(9) }, owner.token)).status).toBe(200);
      await until('moved live to the 9th', async () => (await titlesOn(page, 9)).includes('Stay on the 8th'));

      // The member becomes a viewer behind the page's back: the drag is refused and undone.
      const members = (await web.t.api.get(`/auth/organization/list-members?organizationId=${workspaceId}`, owner.token)).body;
      const row = (members.members ?? members).find((m: { userId: string }) => m.userId === member.user.id);
      expect((await web.t.api.post('/auth/organization/update-member-role', { organizationId: workspaceId, memberId: row.id, role: 'viewer' }, owner.token)).status).toBe(200);
      await dragOnto(page, taskOn(page, 9, 'Stay on the 8th'), cell(page, 22));
      await page.getByText('Could not move REF-1').waitFor();
      await page
        .getByText(/Insufficient permissions/)
        .first()
        .waitFor();
      await until('back on the 9th', async () => (await titlesOn(page, 9)).includes('Stay on the 8th'));
      expect(await titlesOn(page, 22)).toEqual([]);
      expect((await web.t.api.get(`/task/${task.id}`, owner.token)).body.dueDate).toBe(at(9));
      expect(problems.filter((p) => !/status of 403/.test(p))).toEqual([]);
    } finally {
      await close();
    }
  });
});
