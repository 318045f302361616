import { taskEvent } from '../../../test/support/task-event';
import { Logger } from '@nestjs/common';
import { Job, UnrecoverableError } from 'bullmq';
import { WorkerSettings } from '../../queue/worker-settings';
import { TaskEvent } from '../task/task-event';
import { DeliveryTargetKinds } from './delivery-target-kinds';
import { FanOutProcessor } from './fan-out.processor';

/** The fan-out of a job of task events, with the target kinds stood in for (each counts what it was handed). */

const event = (n: number, over: Partial<TaskEvent> = {}): TaskEvent => taskEvent({ id: `11111111-0000-4000-8000-00000000000${n}`, ...over });

function setUp() {
  const handed: Record<string, string[][]> = { person: [], integration: [] };
  const kind = (name: 'person' | 'integration', perEvent: number) => ({
    kind: name,
    fanOut: async (events: readonly TaskEvent[]) => {
      handed[name].push(events.map((e) => e.id));
      return events.length * perEvent;
    },
  });
  const kinds = { all: [kind('person', 1), kind('integration', 2)] };
  const processor = new FanOutProcessor(kinds as unknown as DeliveryTargetKinds, {} as WorkerSettings);
  const run = (name: string, data: unknown) => processor.process({ id: 'j-1', name, data } as Job<TaskEvent>);
  return { run, handed };
}

beforeAll(() => Logger.overrideLogger(false));

describe('FanOutProcessor', () => {
  it('a packed job: every event to every target kind, the jobs asked for counted by kind', async () => {
    const { run, handed } = setUp();
    await expect(run('events', { events: [event(1), event(2)] })).resolves.toEqual({ queued: { person: 2, integration: 4 } });
    expect(handed).toEqual({ person: [[event(1).id, event(2).id]], integration: [[event(1).id, event(2).id]] });
  });

  it('a job of one event, named after its kind', async () => {
    const { run, handed } = setUp();
    await expect(run('taskCreated', event(1))).resolves.toEqual({ queued: { person: 1, integration: 2 } });
    expect(handed.integration).toEqual([[event(1).id]]);
  });

  it('events that cannot be read are left out, the others fanned out, and the job fails for good saying how many', async () => {
    const { run, handed } = setUp();
    const bad = [
      event(3, { kind: 'taskExploded' as TaskEvent['kind'] }),
      event(4, { id: 'not-a-uuid' }),
      event(5, { workspaceId: 'x' }),
      event(6, { project: undefined as never }),
      event(7, { task: undefined as never }),
      null,
    ];
    const err = await run('events', { events: [event(1), ...bad] }).catch((e) => e);
    expect(err).toBeInstanceOf(UnrecoverableError);
    expect(err.message).toBe('Not a task event: 6 of 7 in job j-1 (events)');
    expect(handed.person).toEqual([[event(1).id]]);
  });

  it('a packed job without events, or with none that is a list, fails for good', async () => {
    for (const data of [{ events: [] }, { events: 'x' }, {}]) {
      const { run, handed } = setUp();
      await expect(run('events', data)).rejects.toThrow(new UnrecoverableError('Not a task event: 0 of 0 in job j-1 (events)'));
      expect(handed.person).toEqual([[]]);
    }
  });
});
