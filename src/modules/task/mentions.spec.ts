import { mentionedIds, mentionsAsText, newlyMentioned } from './mentions';

const A = '0b6a6f63-6c2a-4f5e-9d55-1f2b3c4d5e6f';
const B = 'A1B2C3D4-E5F6-4711-8899-AABBCCDDEEFF';

describe('mentions', () => {
  it('reads both tags, either quotes, each id once and lower-case', () => {
    const text = `Hi <mention id="${A}">Ada</mention> and <kaneo-mention data-x="1" id='${B}'>Bo</kaneo-mention>, again <mention id="${A}">Ada</mention>`;
    expect(mentionedIds(text)).toEqual([A, B.toLowerCase()]);
  });

  it('ignores what is not a mention of a user id', () => {
    expect(mentionedIds('<mention id="not-a-uuid">x</mention> <span id="' + A + '">y</span> mention ' + A)).toEqual([]);
    expect(mentionedIds(null)).toEqual([]);
  });

  it('an edit mentions only the ids the old text did not', () => {
    const before = `<mention id="${A}">Ada</mention>`;
    const after = `${before} <mention id="${B}">Bo</mention>`;
    expect(newlyMentioned(before, after)).toEqual([B.toLowerCase()]);
    expect(newlyMentioned(after, before)).toEqual([]);
    expect(newlyMentioned(null, before)).toEqual([A]);
  });

  it('shows a mention as @Name, without the markup inside it', () => {
    expect(mentionsAsText(`Ask <mention id="${A}">Ada</mention>, <kaneo-mention id="${B}">@<b>Bo</b></kaneo-mention> or <mention id="${A}"></mention>.`)).toBe(
      'Ask @Ada, @Bo or @someone.',
    );
    expect(mentionsAsText('plain text')).toBe('plain text');
  });
});
