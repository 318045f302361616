import type { Translation } from '../../types';
import type en from '../en/common';

/** German messages shared across the app (docs/web.md, "Languages"). */
export default {
  'common.cancel': 'Abbrechen',
  'common.close': 'Schließen',
  'common.loading': 'Wird geladen: {what}…',
  'common.somethingWentWrong': 'Etwas ist schiefgelaufen',
  'common.skipToContent': 'Zum Inhalt springen',
  'common.pageNotFound': 'Seite nicht gefunden',
  'common.loadingWhat.session': 'deine Sitzung',
  'common.loadingWhat.page': 'die Seite',
  'common.toastRegion': 'Hinweise der App',
  'common.backToBoard': '← Zurück zum Board',
  'common.projectNav': 'Projekt',
  'common.checklistItem': 'Aufgabe',
  'common.someone': 'jemand',
  'common.priority.no-priority': 'Keine Priorität',
  'common.priority.low': 'Niedrig',
  'common.priority.medium': 'Mittel',
  'common.priority.high': 'Hoch',
  'common.priority.urgent': 'Dringend',
  'common.role.owner': 'Inhaber',
  'common.role.admin': 'Admin',
  'common.role.member': 'Mitglied',
  'common.role.viewer': 'Betrachter',
} satisfies Translation<typeof en>;
