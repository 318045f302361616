import type { Translation } from '../../types';
import type { en } from '../en';
import account from './account';
import board from './board';
import common from './common';
import integrations from './integrations';
import people from './people';
import task from './task';
import views from './views';

/** The German catalog by area (the same areas as English). */
export const deAreas = { common, account, board, views, task, integrations, people };

/** Every German message: loaded on demand, the first time German is chosen. */
export const de: Translation<typeof en> = { ...common, ...account, ...board, ...views, ...task, ...integrations, ...people };
