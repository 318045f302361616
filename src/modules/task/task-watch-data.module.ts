import { Module } from '@nestjs/common';
import { TaskWatchersRepository } from './task-watchers.repository';

/** A task's watchers, for the API (the watch routes) and the worker (who hears of an event). No controller. */
@Module({ providers: [TaskWatchersRepository], exports: [TaskWatchersRepository] })
export class TaskWatchDataModule {}
