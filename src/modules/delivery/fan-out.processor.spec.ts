import { taskEvent } from '../../../test/support/task-event';
import { Logger } from '@nestjs/common';
import { Job, UnrecoverableError } from 'bullmq';
import { QueueName } from '../../queue/queues';
import { WorkerSettings } from '../../queue/worker-settings';
import { TaskEvent } from '../task/task-event';
import { DeliveryTargetKinds } from './delivery-target-kinds';
import { FanOutProcessor } from './fan-out.processor';

/** The fan-out of a job of task events, with the target kinds stood in for (each counts what it was handed). */

const event = (n: number, over: Partial<TaskEvent> = {}): TaskEvent => taskEvent({ id: `11111111-0000-4000-8000-00000000000${n}`, ...over });

function setUp(perEvent = { person: 1, integration: 2 }) {
  const handed: Record<string, string[][]> = { person: [], integration: [] };
  const kind = (name: 'person' | 'integration') => ({
    kind: name,
    fanOut: async (events: readonly TaskEvent[]) => {
      handed[name].push(events.map((e) => e.id));
      return events.length * perEvent[name];
    },
  });
  const kinds = { all: [kind('person'), kind('integration')] };
  const started: unknown[][] = [];
  const settings = { start: (...args: unknown[]) => void started.push(args) } as unknown as WorkerSettings;
  const processor = new FanOutProcessor(kinds as unknown as DeliveryTargetKinds, settings);
  const run = (name: string, data: unknown) => processor.process({ id: 'j-1', name, data } as Job<TaskEvent>);
  return { run, handed, processor, started };
}

/** What the processor logged: level, message, context. */
const logged: Array<[string, string, unknown]> = [];
const collect =
  (level: string) =>
  (message: string, ...rest: unknown[]): void =>
    void logged.push([level, message, rest.at(-1)]);
beforeAll(() => Logger.overrideLogger({ log: collect('log'), warn: collect('warn'), error: collect('error'), debug: collect('debug'), verbose: collect('verbose') }));
afterAll(() => Logger.overrideLogger(false));
beforeEach(() => (logged.length = 0));

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

  it('logs how many delivery jobs a job asked for, and nothing when it asked for none', async () => {
    await setUp().run('events', { events: [event(1), event(2)] });
    expect(logged).toEqual([['debug', 'job j-1 (2 events): 6 delivery jobs asked for', 'FanOutProcessor']]);
    logged.length = 0;
    await setUp({ person: 0, integration: 1 }).run('taskCreated', event(1));
    expect(logged).toEqual([['debug', 'job j-1 (1 events): 1 delivery jobs asked for', 'FanOutProcessor']]);
    logged.length = 0;
    await setUp({ person: 1, integration: 1 }).run('taskCreated', event(1));
    expect(logged).toEqual([['debug', 'job j-1 (1 events): 2 delivery jobs asked for', 'FanOutProcessor']]);
    logged.length = 0;
    await expect(setUp({ person: 0, integration: 0 }).run('events', { events: [event(1)] })).resolves.toEqual({ queued: { person: 0, integration: 0 } });
    expect(logged).toEqual([]);
  });

  it('starts consuming the task-events queue at bootstrap, and closes its worker before the module goes', async () => {
    const { processor, started } = setUp();
    processor.onApplicationBootstrap();
    expect(started).toEqual([[processor, QueueName.TaskEvents]]);
    let closed = 0;
    (processor as unknown as { _worker: { close: () => Promise<void> } })._worker = { close: async () => void closed++ };
    await processor.onModuleDestroy();
    expect(closed).toBe(1);
  });
});
