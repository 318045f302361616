/** A timestamp of the API as the reader's locale writes it. */
export const when = (iso: string) => new Date(iso).toLocaleString();

/** A task's priorities, most pressing last (the API's order), and how the app names them. */
export const PRIORITIES = ['no-priority', 'low', 'medium', 'high', 'urgent'] as const;
export type Priority = (typeof PRIORITIES)[number];
export const priorityName = (p: Priority | string) => (p === 'no-priority' ? 'No priority' : p[0]!.toUpperCase() + p.slice(1));
