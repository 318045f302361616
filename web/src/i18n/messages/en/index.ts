import account from './account';
import board from './board';
import common from './common';
import integrations from './integrations';
import people from './people';
import task from './task';
import views from './views';

/** The English catalog by area; each id starts with its area's name (checked by catalogs.spec.ts). */
export const enAreas = { common, account, board, views, task, integrations, people };

/** Every English message: the app's own language, bundled with it. */
export const en = { ...common, ...account, ...board, ...views, ...task, ...integrations, ...people };

export type MessageId = keyof typeof en;
