import 'reflect-metadata';
/** Where @nestjs/bullmq's @Processor keeps its options (bull.constants PROCESSOR_METADATA). */
const PROCESSOR_METADATA = 'bullmq:processor_metadata';
import { QUEUE_NAMES, QUEUES } from '../../queue/queues';
import { INTEGRATION_TYPES } from '../integrations/integration.record';
import { USER_CHANNELS } from '../notification-preferences/channel-rules';
import { ALL_CHANNELS, CHANNELS, INTEGRATION_CHANNELS, PERSON_CHANNELS, queueOf } from './channels';
import { DELIVERY_PROCESSORS } from './delivery.processors';
import { INTEGRATION_FORMATS } from './integrations/channel-formats';

describe('the channel table is where a channel is declared', () => {
  it('each channel has its queue, with its concurrency and the delivery retries', () => {
    for (const channel of ALL_CHANNELS) {
      const queue = queueOf(channel);
      expect(QUEUE_NAMES).toContain(queue);
      expect([channel, QUEUES[queue].concurrency, QUEUES[queue].jobOptions.backoff]).toEqual([channel, CHANNELS[channel].concurrency, { type: 'delivery' }]);
    }
    expect(queueOf('generic-webhook')).toBe('deliver-generic-webhook');
    expect(queueOf('email')).toBe('notify-email');
    expect(QUEUE_NAMES).toHaveLength(ALL_CHANNELS.length + 2);
  });

  it('each channel has one processor, consuming its queue, named after it', () => {
    expect(Object.keys(DELIVERY_PROCESSORS).sort()).toEqual([...ALL_CHANNELS].sort());
    for (const channel of ALL_CHANNELS) {
      const processor = DELIVERY_PROCESSORS[channel];
      expect((Reflect.getMetadata(PROCESSOR_METADATA, processor) as { name: string }).name).toBe(queueOf(channel));
    }
    expect(DELIVERY_PROCESSORS['generic-webhook'].name).toBe('GenericWebhookDeliveryProcessor');
    expect(new Set(Object.values(DELIVERY_PROCESSORS)).size).toBe(ALL_CHANNELS.length);
  });

  it("the integration types and a person's channels are the two kinds of the table, in its order", () => {
    expect(INTEGRATION_TYPES).toEqual(['messenger', 'teamchat', 'communitychat', 'generic-webhook']);
    expect(USER_CHANNELS).toEqual(['email', 'topicpush', 'serverpush', 'webhook']);
    expect([...INTEGRATION_CHANNELS, ...PERSON_CHANNELS].sort()).toEqual([...ALL_CHANNELS].sort());
    expect(Object.keys(INTEGRATION_FORMATS).sort()).toEqual([...INTEGRATION_CHANNELS].sort());
    for (const type of INTEGRATION_CHANNELS) expect(INTEGRATION_FORMATS[type].type).toBe(type);
  });

  it('only a person channel gathers bursts, and the webhook does not', () => {
    expect(ALL_CHANNELS.filter((c) => CHANNELS[c].gathersBursts)).toEqual(['email', 'topicpush', 'serverpush']);
  });

  it('the push channels send the first notification of a burst at once; email waits for the window', () => {
    expect(ALL_CHANNELS.filter((c) => CHANNELS[c].sendsFirstAtOnce)).toEqual(['topicpush', 'serverpush']);
    expect(ALL_CHANNELS.filter((c) => CHANNELS[c].sendsFirstAtOnce && !CHANNELS[c].gathersBursts)).toEqual([]);
  });
});
