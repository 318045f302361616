import { ENTRY_LIMIT, liveData, TEXT_LIMIT } from './live-entry';

describe('liveData', () => {
  it('leaves a small event as it is, without truncated', () => {
    const event = { id: 'e1', kind: 'taskStatusChanged', task: { id: 't1', title: 'Short', description: null }, data: { from: 'to-do', to: 'done' } };
    expect(JSON.parse(liveData(event))).toEqual(event);
  });

  it(`cuts every string over ${TEXT_LIMIT} characters, at any depth, and says truncated: true`, () => {
    const long = 'a'.repeat(TEXT_LIMIT) + 'b'.repeat(100);
    const out = JSON.parse(liveData({ id: 'e1', task: { id: 't1', description: long }, data: { old: long, new: 'short', list: [long] } }));
    expect(out).toEqual({
      id: 'e1',
      task: { id: 't1', description: 'a'.repeat(TEXT_LIMIT) },
      data: { old: 'a'.repeat(TEXT_LIMIT), new: 'short', list: ['a'.repeat(TEXT_LIMIT)] },
      truncated: true,
    });
    // Exactly the limit is not cut.
    expect(JSON.parse(liveData({ t: 'x'.repeat(TEXT_LIMIT) }))).toEqual({ t: 'x'.repeat(TEXT_LIMIT) });
  });

  it('does not split a surrogate pair at the cut', () => {
    const text = 'a'.repeat(TEXT_LIMIT - 1) + '😀' + 'tail';
    const cut = JSON.parse(liveData({ text })).text as string;
    expect(cut).toBe('a'.repeat(TEXT_LIMIT - 1));
    expect(encodeURIComponent(cut)).toBe('a'.repeat(TEXT_LIMIT - 1));
  });

  it(`keeps an entry that is still over ${ENTRY_LIMIT} bytes to its top-level values and the ids of what it names`, () => {
    const labels = Array.from({ length: 200 }, (_, i) => ({ id: `l${i}`, name: 'n'.repeat(200) }));
    const text = liveData({ id: 'e1', kind: 'taskLabelsChanged', workspaceId: 'w1', task: { id: 't1', labels }, project: { id: 'p1', name: 'P' }, labels });
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(ENTRY_LIMIT);
    expect(JSON.parse(text)).toEqual({ id: 'e1', kind: 'taskLabelsChanged', workspaceId: 'w1', task: { id: 't1' }, project: { id: 'p1' }, truncated: true });
  });
});
