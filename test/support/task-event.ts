import type { TaskEvent } from '../../src/modules/task/task-event';

/** A task event as the outbox carries it (docs/integrations.md, "Payloads"), for unit tests of the delivery code. */
export const taskEvent = (over: Partial<TaskEvent> = {}): TaskEvent => ({
  id: '22222222-0000-4000-8000-000000000002',
  kind: 'taskCreated',
  occurredAt: '2030-01-02T03:04:05.678Z',
  workspaceId: '33333333-0000-4000-8000-000000000003',
  project: { id: '44444444-0000-4000-8000-000000000004', name: 'Apollo', slug: 'APO' },
  task: { id: '55555555-0000-4000-8000-000000000005', number: 1, title: 'Launch', description: null, status: 'to-do', priority: 'low', assigneeId: null },
  actor: null,
  data: {},
  ...over,
});
