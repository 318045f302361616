import { Processor, WorkerHost } from '@nestjs/bullmq';
import { OnModuleDestroy } from '@nestjs/common';
import { Job } from 'bullmq';
import { QueueName } from '../../../queue/queues';
import { ChannelFormat, COMMUNITYCHAT, GENERIC_WEBHOOK, MESSENGER, TEAMCHAT } from './channel-formats';
import { DeliveryJobData } from './channels';
import { DeliveryJobResult, DeliveryRunner } from './delivery.runner';
import { closeWorker, workerOptions } from './worker-options';

/**
 * The base of the four channel processors: one queue per channel, so a slow or failing channel
 * does not hold up the others, and one way of delivering (DeliveryRunner). Jobs `deliver` (the
 * fan-out's) and `redeliver` (an admin's, added by the API through the outbox after it set the
 * delivery back to pending) are handled the same way.
 */
export abstract class DeliveryProcessor extends WorkerHost implements OnModuleDestroy {
  protected constructor(
    private readonly runner: DeliveryRunner,
    private readonly channel: ChannelFormat,
  ) {
    super();
  }

  process(job: Job<DeliveryJobData>): Promise<DeliveryJobResult> {
    return this.runner.run(job, this.channel);
  }

  /** On shutdown (SIGTERM), lets the attempts in hand finish and record themselves before the database closes. */
  async onModuleDestroy(): Promise<void> {
    await closeWorker(this);
  }
}

@Processor(QueueName.DeliverMessenger, workerOptions(QueueName.DeliverMessenger))
export class MessengerDeliveryProcessor extends DeliveryProcessor {
  constructor(runner: DeliveryRunner) {
    super(runner, MESSENGER);
  }
}

@Processor(QueueName.DeliverTeamchat, workerOptions(QueueName.DeliverTeamchat))
export class TeamchatDeliveryProcessor extends DeliveryProcessor {
  constructor(runner: DeliveryRunner) {
    super(runner, TEAMCHAT);
  }
}

@Processor(QueueName.DeliverCommunitychat, workerOptions(QueueName.DeliverCommunitychat))
export class CommunitychatDeliveryProcessor extends DeliveryProcessor {
  constructor(runner: DeliveryRunner) {
    super(runner, COMMUNITYCHAT);
  }
}

@Processor(QueueName.DeliverGenericWebhook, workerOptions(QueueName.DeliverGenericWebhook))
export class GenericWebhookDeliveryProcessor extends DeliveryProcessor {
  constructor(runner: DeliveryRunner) {
    super(runner, GENERIC_WEBHOOK);
  }
}
