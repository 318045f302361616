import { getQueueToken } from '@nestjs/bullmq';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { Queue } from 'bullmq';
import { ALL_CHANNELS, Channel, queueOf } from './channels';

/** The queue of each delivery channel (registered by WorkerQueuesModule), found by the channel table. */
@Injectable()
export class DeliveryQueues implements OnModuleInit {
  private readonly queues = new Map<Channel, Queue>();

  constructor(private readonly moduleRef: ModuleRef) {}

  onModuleInit(): void {
    for (const channel of ALL_CHANNELS) this.queues.set(channel, this.moduleRef.get<Queue>(getQueueToken(queueOf(channel)), { strict: false }));
  }

  of(channel: Channel): Queue {
    const queue = this.queues.get(channel);
    if (!queue) throw new Error(`No queue for delivery channel "${channel}"`);
    return queue;
  }
}
