import { recipientOf } from './recipients';

const ADA = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const BOB = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const ev = (kind: string, assigneeId: string | null, actorId: string | null) => ({ kind, task: { assigneeId }, actor: actorId ? { id: actorId, name: 'x' } : null }) as any;

describe('recipientOf', () => {
  it('the assignee hears of creation for them, assignment, status changes, comments and time entries by others', () => {
    for (const kind of ['taskCreated', 'taskAssigned', 'taskStatusChanged', 'taskCommentCreated', 'timeEntryCreated']) {
      expect([kind, recipientOf(ev(kind, BOB, ADA))]).toEqual([kind, BOB]);
      // Also when no user is behind the change (an import, a git host).
      expect([kind, recipientOf(ev(kind, BOB, null))]).toEqual([kind, BOB]);
    }
  });

  it('never the actor of the change', () => {
    for (const kind of ['taskCreated', 'taskAssigned', 'taskStatusChanged', 'taskCommentCreated', 'timeEntryCreated']) {
      expect([kind, recipientOf(ev(kind, ADA, ADA))]).toEqual([kind, null]);
    }
  });

  it('nobody for title, description and priority changes, or an unassigned task', () => {
    for (const kind of ['taskTitleChanged', 'taskDescriptionChanged', 'taskPriorityChanged']) expect(recipientOf(ev(kind, BOB, ADA))).toBeNull();
    expect(recipientOf(ev('taskStatusChanged', null, ADA))).toBeNull();
    expect(recipientOf({ kind: 'taskStatusChanged', actor: null } as any)).toBeNull();
  });
});
