import { mayHaveRecipient, mentionsOf, recipientsOf } from './recipients';

const ADA = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const BOB = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const CY = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';
const mention = (id: string) => `<mention id="${id}">x</mention>`;
const ev = (kind: string, assigneeId: string | null, actorId: string | null, data: Record<string, unknown> = {}, description: string | null = null) =>
  ({ kind, task: { assigneeId, description }, actor: actorId ? { id: actorId, name: 'x' } : null, data }) as any;

describe('recipientsOf', () => {
  it('the assignee hears of a task created for them and of being assigned, also from nobody (an import, a git host)', () => {
    for (const kind of ['taskCreated', 'taskAssigned']) {
      expect(recipientsOf(ev(kind, BOB, ADA))).toEqual([{ userId: BOB, mentioned: false }]);
      expect(recipientsOf(ev(kind, BOB, null))).toEqual([{ userId: BOB, mentioned: false }]);
    }
  });

  it('the watchers hear of status changes, comments and time entries; the assignee only as a watcher', () => {
    for (const kind of ['taskStatusChanged', 'taskCommentCreated', 'timeEntryCreated']) {
      expect(recipientsOf(ev(kind, BOB, ADA), [BOB, CY, ADA]).map((r) => r.userId)).toEqual([BOB, CY]);
      // An assignee who unwatched is not among the watchers, and hears nothing.
      expect(recipientsOf(ev(kind, BOB, ADA), [CY])).toEqual([{ userId: CY, mentioned: false }]);
    }
  });

  it('never the actor; nobody for title, priority, date and other changes', () => {
    expect(recipientsOf(ev('taskCreated', ADA, ADA))).toEqual([]);
    for (const kind of ['taskTitleChanged', 'taskPriorityChanged', 'taskDueDateChanged', 'taskMoved', 'taskDeleted', 'taskUnassigned']) {
      expect([kind, recipientsOf(ev(kind, BOB, ADA), [CY])]).toEqual([kind, []]);
      expect(mayHaveRecipient(ev(kind, BOB, ADA))).toBe(false);
    }
  });

  it('who a text mentions for the first time hears of it as a mention, once, before any other reason', () => {
    const comment = ev('taskCommentCreated', BOB, ADA, { content: `${mention(BOB)} ${mention(CY)} ${mention(ADA)}` });
    expect(recipientsOf(comment, [BOB, CY])).toEqual([
      { userId: BOB, mentioned: true },
      { userId: CY, mentioned: true },
    ]);
    const edit = ev('taskDescriptionChanged', null, ADA, { oldDescription: mention(BOB), newDescription: `${mention(BOB)} ${mention(CY)}` });
    expect(recipientsOf(edit)).toEqual([{ userId: CY, mentioned: true }]);
    expect(mentionsOf(ev('taskCommentUpdated', null, ADA, { oldContent: mention(CY), content: mention(CY) }))).toEqual([]);
    expect(mentionsOf(ev('taskCreated', null, ADA, {}, `hi ${mention(CY)}`))).toEqual([CY]);
    expect(mayHaveRecipient(edit)).toBe(true);
  });

  it('judged from the event alone: a mention or an assignee other than the actor may have a recipient', () => {
    expect(mayHaveRecipient(ev('taskStatusChanged', BOB, ADA))).toBe(true);
    expect(mayHaveRecipient(ev('taskStatusChanged', ADA, ADA))).toBe(false);
    expect(mayHaveRecipient(ev('taskStatusChanged', null, ADA))).toBe(false);
  });
});
