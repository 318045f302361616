import { CardDetailsRepository } from './card-details.repository';
import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ScopeRegistry } from '../../common/permissions/scope-registry';
import { TaskChangesRepository } from './task-changes.repository';
import { TaskWatchDataModule } from './task-watch-data.module';
import { TaskWatchController } from './task-watch.controller';
import { TaskController } from './task.controller';
import { Task, TaskText } from './task.entity';
import { TASK_SCOPE_SQL, TaskRepository } from './task.repository';
import { TaskService } from './task.service';

/**
 * Tasks and the task write path. Other modules reach tasks through TaskService, and record a
 * change of a task (a comment) through TaskChangesRepository, never through the tables.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Task, TaskText]), TaskWatchDataModule],
  controllers: [TaskController, TaskWatchController],
  providers: [TaskService, TaskRepository, TaskChangesRepository, CardDetailsRepository],
  exports: [TaskService, TaskChangesRepository],
})
export class TaskModule implements OnModuleInit {
  constructor(private readonly registry: ScopeRegistry) {}

  onModuleInit(): void {
    this.registry.register('task', { notFound: 'Task not found', sql: TASK_SCOPE_SQL });
  }
}
