import { jobsOf } from './outbox.relay';
import { PACKED_JOB_MAX, QueueName, TASK_EVENTS_JOB } from './queues';

const row = (i: number, queue: string) => ({ id: `row-${i}`, queue, name: `kind-${i}`, payload: { id: `event-${i}` } });

describe('the jobs the relay publishes', () => {
  it('one job per row, by the row id, for a queue without packing', () => {
    const rows = [row(1, QueueName.Email), row(2, QueueName.Email)];
    expect(jobsOf(QueueName.Email, rows)).toEqual([
      { name: 'kind-1', data: { id: 'event-1' }, opts: { jobId: 'row-1' } },
      { name: 'kind-2', data: { id: 'event-2' }, opts: { jobId: 'row-2' } },
    ]);
  });

  it('task events packed, at most PACKED_JOB_MAX to a job, in order, with an id the same batch always gets', () => {
    const rows = Array.from({ length: PACKED_JOB_MAX + 3 }, (_, i) => row(i, QueueName.TaskEvents));
    const jobs = jobsOf(QueueName.TaskEvents, rows);
    expect(jobs.map((j) => [j.name, j.opts.jobId, (j.data.events as unknown[]).length])).toEqual([
      [TASK_EVENTS_JOB, `row-0+${PACKED_JOB_MAX}`, PACKED_JOB_MAX],
      [TASK_EVENTS_JOB, `row-${PACKED_JOB_MAX}+3`, 3],
    ]);
    expect(jobs.flatMap((j) => j.data.events)).toEqual(rows.map((r) => r.payload));
    expect(jobsOf(QueueName.TaskEvents, rows)).toEqual(jobs);
    // BullMQ refuses ':' in job ids.
    expect(jobs.every((j) => !j.opts.jobId.includes(':'))).toBe(true);
  });

  it('exactly PACKED_JOB_MAX rows make one job; no rows make none', () => {
    const rows = Array.from({ length: PACKED_JOB_MAX }, (_, i) => row(i, QueueName.TaskEvents));
    expect(jobsOf(QueueName.TaskEvents, rows).map((j) => j.opts.jobId)).toEqual([`row-0+${PACKED_JOB_MAX}`]);
    expect(jobsOf(QueueName.TaskEvents, [])).toEqual([]);
    expect(jobsOf(QueueName.Email, [])).toEqual([]);
  });
});
