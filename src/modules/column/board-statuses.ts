/**
 * What a task's status may be (docs/records.md, "Task"): the slugs of its project's columns plus two
 * virtual statuses that have no column. The column module owns this rule because it owns the slugs.
 */
export const VIRTUAL_STATUSES = ['planned', 'archived'] as const;

/** The four columns every new project starts with. */
export const DEFAULT_COLUMNS = [
  { name: 'To Do', slug: 'to-do', isFinal: false },
  { name: 'In Progress', slug: 'in-progress', isFinal: false },
  { name: 'In Review', slug: 'in-review', isFinal: false },
  { name: 'Done', slug: 'done', isFinal: true },
] as const;

/** Slug of a column name: lower-case letters and digits (any script) joined by dashes; '' when none. */
export function columnSlug(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50)
    .replace(/-+$/g, '');
}

export const isReservedSlug = (slug: string): boolean => (VIRTUAL_STATUSES as readonly string[]).includes(slug);

/** Every status valid in a project whose columns have these slugs (in board order). */
export const validStatuses = (columnSlugs: readonly string[]): string[] => [...columnSlugs, ...VIRTUAL_STATUSES];

/** The 400 message for a status the project does not know, or null when it is valid. */
export function invalidStatusMessage(status: string, columnSlugs: readonly string[]): string | null {
  const valid = validStatuses(columnSlugs);
  return valid.includes(status) ? null : `Invalid status "${status}". Valid statuses for this project: ${valid.join(', ')}`;
}
