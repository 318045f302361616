import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OutboxListener } from './outbox-listener';
import { Outbox } from './outbox.entity';
import { OutboxRelay } from './outbox.relay';
import { OutboxRepository } from './outbox.repository';
import { OutboxService } from './outbox.service';
import { WorkerQueuesModule } from './queue.module';

/** The writing side of the outbox, for both roles: features enqueue jobs in their transactions. */
@Module({
  imports: [TypeOrmModule.forFeature([Outbox])],
  providers: [OutboxRepository, OutboxService],
  exports: [OutboxService, OutboxRepository],
})
export class OutboxModule {}

/** Worker role only: the relay that publishes committed outbox rows to their queues. */
@Module({
  imports: [OutboxModule, WorkerQueuesModule],
  providers: [OutboxRelay, OutboxListener],
})
export class OutboxRelayModule {}
