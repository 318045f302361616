import { diffTask, isEmptyDiff } from './task-changes';
import { TaskRow } from './task.record';

const task = (over: Partial<TaskRow> = {}): TaskRow => ({
  id: 't1',
  workspace_id: 'w1',
  project_id: 'p1',
  position: 0,
  number: 1,
  user_id: null,
  title: 'Write docs',
  description: null,
  status: 'to-do',
  priority: 'no-priority',
  created_at: new Date('2025-01-01T00:00:00Z'),
  start_date: null,
  due_date: null,
  ...over,
});

describe('diffTask', () => {
  it('finds nothing when every value equals the stored one', () => {
    const cur = task({ user_id: 'u1', due_date: new Date('2025-02-01T10:00:00Z'), description: 'x' });
    const d = diffTask(cur, {
      title: 'Write docs',
      description: 'x',
      status: 'to-do',
      priority: 'no-priority',
      position: 0,
      userId: 'u1',
      dueDate: '2025-02-01T10:00:00.000Z',
      startDate: null,
    });
    expect(isEmptyDiff(d)).toBe(true);
    expect(d.activities).toEqual([]);
  });

  it('compares dates by instant, not by spelling', () => {
    const cur = task({ due_date: new Date('2025-02-01T10:00:00Z') });
    expect(isEmptyDiff(diffTask(cur, { dueDate: '2025-02-01T11:00:00+01:00' }))).toBe(true);
  });

  it('writes one activity per changed field with old and new values', () => {
    const d = diffTask(task(), { title: 'Write more docs', status: 'done', priority: 'high', description: 'why', dueDate: '2025-03-04T00:00:00Z' });
    expect(d.set).toEqual({ title: 'Write more docs', status: 'done', priority: 'high', description: 'why', due_date: new Date('2025-03-04T00:00:00Z') });
    expect(d.activities.map((a) => [a.type, a.eventData])).toEqual([
      ['title_changed', { oldTitle: 'Write docs', newTitle: 'Write more docs' }],
      ['description_changed', { oldDescription: null, newDescription: 'why' }],
      ['status_changed', { oldStatus: 'to-do', newStatus: 'done' }],
      ['priority_changed', { oldPriority: 'no-priority', newPriority: 'high' }],
      ['due_date_changed', { oldDueDate: null, newDueDate: '2025-03-04T00:00:00.000Z' }],
    ]);
    expect(d.activities[2].content).toBe('changed the status from to-do to done');
  });

  it('tells assigning from unassigning', () => {
    expect(diffTask(task(), { userId: 'u2' }).activities).toEqual([{ type: 'assignee_changed', content: 'changed the assignee', eventData: { oldUserId: null, newUserId: 'u2' } }]);
    expect(diffTask(task({ user_id: 'u2' }), { userId: null }).activities).toEqual([
      { type: 'unassigned', content: 'unassigned the task', eventData: { oldUserId: 'u2', newUserId: null } },
    ]);
  });

  it('clears a due date with its own activity', () => {
    const d = diffTask(task({ due_date: new Date('2025-02-01T00:00:00Z') }), { dueDate: null });
    expect(d.set).toEqual({ due_date: null });
    expect(d.activities[0]).toEqual({ type: 'due_date_changed', content: 'removed the due date', eventData: { oldDueDate: '2025-02-01T00:00:00.000Z', newDueDate: null } });
  });

  it('changes position without an activity', () => {
    const d = diffTask(task(), { position: 5 });
    expect(d.set).toEqual({ position: 5 });
    expect(d.activities).toEqual([]);
    expect(isEmptyDiff(d)).toBe(false);
  });

  it('writes a start date change, set or cleared, as one activity', () => {
    const d = diffTask(task(), { startDate: '2025-01-02T00:00:00Z' });
    expect(d.set).toEqual({ start_date: new Date('2025-01-02T00:00:00Z') });
    expect(d.activities).toEqual([
      { type: 'start_date_changed', content: 'set the start date to 2025-01-02', eventData: { oldStartDate: null, newStartDate: '2025-01-02T00:00:00.000Z' } },
    ]);
    expect(diffTask(task({ start_date: new Date('2025-01-02T00:00:00Z') }), { startDate: null }).activities[0]).toMatchObject({
      type: 'start_date_changed',
      content: 'removed the start date',
    });
  });
});
