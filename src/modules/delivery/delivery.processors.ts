import { Processor, WorkerHost } from '@nestjs/bullmq';
import { OnApplicationBootstrap, OnModuleDestroy, Type } from '@nestjs/common';
import { Job } from 'bullmq';
import { WorkerSettings } from '../../queue/worker-settings';
import { ALL_CHANNELS, Channel, DeliveryJobData, queueOf } from './channels';
import { DeliveryJobResult, DeliveryRunner } from './delivery.runner';
import { closeWorker, deliveryProcessorOptions } from './worker-options';

/**
 * The base of the channel processors: one queue per channel, so a slow or failing channel (a chat
 * API down, an SMTP server refusing, a push server answering 503) does not hold up the others, and
 * one way of delivering (DeliveryRunner). Jobs `deliver` (the fan-out's) and `redeliver` (an
 * admin's, added by the API through the outbox after it set the delivery back to pending) are
 * handled the same way.
 */
abstract class ChannelProcessor extends WorkerHost implements OnApplicationBootstrap, OnModuleDestroy {
  protected abstract readonly channel: Channel;

  constructor(
    private readonly runner: DeliveryRunner,
    private readonly settings: WorkerSettings,
  ) {
    super();
  }

  /** Starts consuming with the configured concurrency (QUEUE_CONCURRENCY). */
  onApplicationBootstrap(): void {
    this.settings.start(this, queueOf(this.channel));
  }

  process(job: Job<DeliveryJobData>, token?: string): Promise<DeliveryJobResult> {
    return this.runner.run(job, this.channel, token);
  }

  /** On shutdown (SIGTERM), lets the attempts in hand finish and record themselves before the database closes. */
  async onModuleDestroy(): Promise<void> {
    await closeWorker(this);
  }
}

/** `generic-webhook` → `GenericWebhook`: the processor classes are named after their channels (in Nest's logs and the tests). */
const pascal = (channel: string) => channel.replace(/(^|-)([a-z])/g, (_m, _dash, c: string) => c.toUpperCase());

function processorFor(channel: Channel): Type<ChannelProcessor> {
  @Processor(queueOf(channel), deliveryProcessorOptions())
  class P extends ChannelProcessor {
    protected readonly channel = channel;
    constructor(runner: DeliveryRunner, settings: WorkerSettings) {
      super(runner, settings);
    }
  }
  Object.defineProperty(P, 'name', { value: `${pascal(channel)}DeliveryProcessor` });
  return P;
}

/** One processor per channel of the channel table (channels.ts), by channel. */
export const DELIVERY_PROCESSORS = Object.fromEntries(ALL_CHANNELS.map((c) => [c, processorFor(c)])) as Record<Channel, Type<ChannelProcessor>>;
