import { formatDateTime, t } from '../i18n';

/** A timestamp of the API as the reader's locale writes it. */
export const when = (iso: string) => formatDateTime(iso);

/** A task's priorities, most pressing last (the API's order), and how the app names them. */
export const PRIORITIES = ['no-priority', 'low', 'medium', 'high', 'urgent'] as const;
export type Priority = (typeof PRIORITIES)[number];
export const priorityName = (p: Priority | string) => ((PRIORITIES as readonly string[]).includes(p) ? t(`common.priority.${p as Priority}`) : p);

/** The built-in roles, as the app names them; a workspace's custom role is shown by its own name. */
const BUILT_IN_ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export const roleName = (role: string) => ((BUILT_IN_ROLES as readonly string[]).includes(role) ? t(`common.role.${role as (typeof BUILT_IN_ROLES)[number]}`) : role);
