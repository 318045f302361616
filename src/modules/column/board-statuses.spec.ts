import { columnSlug, DEFAULT_COLUMNS, invalidStatusMessage, isReservedSlug, validStatuses } from './board-statuses';

describe('columnSlug', () => {
  it("derives the default columns' slugs from their names", () => {
    for (const c of DEFAULT_COLUMNS) expect(columnSlug(c.name)).toBe(c.slug);
  });
  it('lower-cases, strips accents and joins words with single dashes', () => {
    expect(columnSlug('  Ready for QA!! ')).toBe('ready-for-qa');
    expect(columnSlug('Café  Über--Ready')).toBe('cafe-uber-ready');
    expect(columnSlug('Step 2: Deploy')).toBe('step-2-deploy');
  });
  it('keeps letters of other scripts', () => {
    expect(columnSlug('Готово')).toBe('готово');
  });
  it('answers empty when the name has no letter or digit', () => {
    expect(columnSlug('🚀 !!')).toBe('');
  });
  it('caps the length at 50 without a trailing dash', () => {
    const s = columnSlug(`${'a'.repeat(49)} bcd`);
    expect(s.length).toBeLessThanOrEqual(50);
    expect(s.endsWith('-')).toBe(false);
  });
});

describe('statuses', () => {
  const slugs = ['to-do', 'in-progress', 'in-review', 'done'];
  it('accepts column slugs and the virtual statuses', () => {
    for (const s of [...slugs, 'planned', 'archived']) expect(invalidStatusMessage(s, slugs)).toBeNull();
    expect(validStatuses(slugs)).toEqual([...slugs, 'planned', 'archived']);
  });
  it('names every valid status in board order when refusing one', () => {
    expect(invalidStatusMessage('doing', slugs)).toBe('Invalid status "doing". Valid statuses for this project: to-do, in-progress, in-review, done, planned, archived');
    expect(invalidStatusMessage('Done', slugs)).not.toBeNull();
  });
  it('reserves planned and archived', () => {
    expect(isReservedSlug('planned')).toBe(true);
    expect(isReservedSlug('archived')).toBe(true);
    expect(isReservedSlug('done')).toBe(false);
  });
});
