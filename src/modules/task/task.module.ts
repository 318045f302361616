import { Module, OnModuleInit } from '@nestjs/common';
import { ScopeRegistry } from '../../common/permissions/scope-registry';
import { ActivityModule } from '../activity/activity.module';
import { ColumnModule } from '../column/column.module';
import { ProjectModule } from '../project/project.module';
import { TaskController } from './task.controller';
import { TaskService } from './task.service';

@Module({
  imports: [ProjectModule, ColumnModule, ActivityModule],
  controllers: [TaskController],
  providers: [TaskService],
  exports: [TaskService],
})
export class TaskModule implements OnModuleInit {
  constructor(private readonly registry: ScopeRegistry) {}

  onModuleInit(): void {
    this.registry.register('task', { notFound: 'Task not found', sql: 'SELECT workspace_id FROM task WHERE id = $1' });
  }
}
