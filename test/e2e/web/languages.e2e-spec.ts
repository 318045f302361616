import type { Page } from 'playwright-core';
import { de } from '../../../web/src/i18n/messages/de';
import { en } from '../../../web/src/i18n/messages/en';
import { until } from '../../support/until';
import { axeViolations, card, signIn, useWebApp } from '../../support/web-page';
import { createProject, createTask, ownerWithWorkspace } from '../../support/work-items';

/** The app's languages (docs/web.md, "Languages") in a real Chromium against the real service. */
const web = useWebApp();
const PASSWORD = 'correct horse battery';

/** A task's date as the page's browser writes it in `locale` on a card (day and short month: "5. März"). */
const cardDay = async (page: Page, locale: string, iso: string) =>
  (await page.evaluate(`new Intl.DateTimeFormat('${locale}', { day: 'numeric', month: 'short' }).format(new Date('${iso}T00:00:00'))`)) as string;

/**
 * English texts of the catalogs that German writes otherwise and that are long enough to be no
 * accident (two words or more, no placeholder): none may be on a page shown in German.
 */
const ENGLISH_ONLY = Object.entries(en as Record<string, string>)
  .filter(([id, text]) => !/[{}<'#]/.test(text) && /\p{L}+\s+\p{L}+/u.test(text) && (de as Record<string, string>)[id] !== text)
  .map(([, text]) => text.trim());

/** What a reader gets from the page: its text, and the names given to screen readers and tooltips. */
async function pageWords(page: Page): Promise<string> {
  return (await page.evaluate(
    `document.body.innerText + '\\n' + [...document.querySelectorAll('[aria-label],[title],[placeholder]')].map((e) => [e.getAttribute('aria-label'), e.getAttribute('title'), e.getAttribute('placeholder')].filter(Boolean).join('\\n')).join('\\n')`,
  )) as string;
}
async function englishOn(page: Page): Promise<string[]> {
  const words = await pageWords(page);
  return ENGLISH_ONLY.filter((text) => words.includes(text));
}

describe('languages', () => {
  it('a German browser gets the app in German: its pages, dates in German, no English left; the API’s messages stay English', async () => {
    const { owner, workspaceId } = await ownerWithWorkspace(web.t);
    const project = await createProject(web.t, owner.token, workspaceId, { name: 'Webseite', slug: 'WEB' });
    await createTask(web.t, owner.token, project.id, { title: 'Startseite entwerfen', dueDate: '2026-03-05', priority: 'high', userId: owner.user.id });
    const { page, problems, close } = await web.newPage({ locale: 'de-DE' });
    try {
      await page.goto('/sign-in');
      await page.getByRole('heading', { name: 'Bei Tandem anmelden' }).waitFor();
      expect(await page.evaluate('document.documentElement.lang')).toBe('de-DE');
      expect(await englishOn(page)).toEqual([]);
      expect(await axeViolations(page)).toEqual([]);

      // A refused sign-in: the service's own message, in English as it sent it.
      await page.getByLabel('E-Mail').fill(owner.user.email);
      await page.getByLabel('Passwort').fill('not the password');
      await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
      await page.getByRole('alert').waitFor();
      expect(await page.getByRole('alert').innerText()).toMatch(/[Ii]nvalid|password/);

      await page.getByLabel('Passwort').fill(PASSWORD);
      await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
      await page.waitForURL((u) => u.pathname.startsWith('/w/'));

      // The board: German words, the due date as German writes it (5. März).
      await page.goto(`/w/${workspaceId}/p/${project.id}`);
      await card(page, 'Startseite entwerfen').waitFor();
      await page.getByRole('link', { name: 'Kalender' }).waitFor();
      const german = await cardDay(page, 'de-DE', '2026-03-05');
      expect(german).toMatch(/^5\. März/);
      const body = page.locator('.card-body', { has: card(page, 'Startseite entwerfen') });
      expect(await body.innerText()).toContain(german);
      expect(await body.innerText()).toContain('Hoch');
      expect(await englishOn(page)).toEqual([]);
      expect(await axeViolations(page)).toEqual([]);

      // The task panel, the calendar (German weekdays), my work, the account page.
      await card(page, 'Startseite entwerfen').click();
      const panel = page.getByRole('dialog');
      await panel.getByRole('heading', { name: /^Beschreibung/ }).waitFor();
      await panel.getByText('Aktivität', { exact: true }).waitFor();
      expect(await englishOn(page)).toEqual([]);
      await page.keyboard.press('Escape');

      await page.goto(`/w/${workspaceId}/p/${project.id}/calendar?at=2026-03-05`);
      await page.getByRole('grid', { name: 'Tage' }).waitFor();
      const weekdays = await page.getByRole('columnheader').allInnerTexts();
      expect(weekdays.map((w) => w.replace('.', ''))).toEqual(['Mo', 'Di', 'Mi', 'Do', 'Fr', 'Sa', 'So']);
      await page.getByRole('heading', { name: 'März 2026' }).waitFor();
      expect(await englishOn(page)).toEqual([]);

      await page.goto(`/w/${workspaceId}/my-work`);
      await page.getByRole('heading', { level: 1, name: 'Meine Arbeit' }).waitFor();
      await page
        .getByRole('list', { name: 'Überfällig', exact: true })
        .or(page.getByRole('list', { name: 'Später', exact: true }))
        .first()
        .waitFor();
      expect(await englishOn(page)).toEqual([]);

      // The pages of a project and a workspace, and the notification preferences.
      for (const [path, heading] of [
        [`/w/${workspaceId}/p/${project.id}/settings`, 'Projekt'],
        [`/w/${workspaceId}/p/${project.id}/integrations`, 'Git-Hosts'],
        [`/w/${workspaceId}/members`, 'Personen'],
        [`/w/${workspaceId}`, 'Projekte'],
        ['/account/notifications', 'Benachrichtigungseinstellungen'],
      ]) {
        await page.goto(path!);
        await page.getByRole('heading', { name: heading!, exact: true }).first().waitFor();
        await until(`${path} loaded`, async () => !(await pageWords(page)).includes('Wird geladen'));
        expect([path, await englishOn(page)]).toEqual([path, []]);
      }

      await page.goto('/account');
      await page.getByRole('heading', { level: 1, name: 'Dein Konto' }).waitFor();
      expect(await page.getByRole('combobox', { name: 'Sprache' }).inputValue()).toBe('');
      expect(await englishOn(page)).toEqual([]);
      expect(await axeViolations(page)).toEqual([]);
      // The one refused request is the wrong password's 401.
      expect(problems.filter((p) => !/status of 401/.test(p))).toEqual([]);
    } finally {
      await close();
    }
  });

  it('the account page switches the language at once and keeps it in this browser; “Same as the browser” goes back', async () => {
    const { owner } = await ownerWithWorkspace(web.t);
    const { page, problems, close } = await web.newPage({ locale: 'en-US' });
    try {
      await signIn(page, owner.user.email, PASSWORD);
      await page.waitForURL((u) => u.pathname.startsWith('/w/'));
      await page.goto('/account');
      await page.getByRole('heading', { level: 1, name: 'Your account' }).waitFor();
      expect(await page.evaluate('document.documentElement.lang')).toBe('en-US');

      await page.getByRole('combobox', { name: 'Language' }).selectOption('de');
      await page.getByRole('heading', { level: 1, name: 'Dein Konto' }).waitFor();
      expect(await page.evaluate('document.documentElement.lang')).toBe('de');
      // Still focused where it was chosen, and the choice shown.
      expect(await page.getByRole('combobox', { name: 'Sprache' }).inputValue()).toBe('de');

      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Dein Konto' }).waitFor();
      expect(await englishOn(page)).toEqual([]);

      await page.getByRole('combobox', { name: 'Sprache' }).selectOption({ label: 'Wie im Browser' });
      await page.getByRole('heading', { level: 1, name: 'Your account' }).waitFor();
      await until('the choice forgotten', async () => (await page.evaluate("localStorage.getItem('tandem.language')")) === null);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
