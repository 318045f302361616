import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ScopeRegistry } from '../../common/permissions/scope-registry';
import { UserDataModule } from '../auth/user-data.module';
import { TaskModule } from '../task/task.module';
import { TaskRelationController } from './task-relation.controller';
import { TaskRelation } from './task-relation.entity';
import { TASK_RELATION_SCOPE_SQL, TaskRelationRepository } from './task-relation.repository';
import { TaskRelationService } from './task-relation.service';

/** Task relations (docs/compatibility.md): tasks through TaskService, assignee names through UserRepository. */
@Module({
  imports: [TypeOrmModule.forFeature([TaskRelation]), TaskModule, UserDataModule],
  controllers: [TaskRelationController],
  providers: [TaskRelationService, TaskRelationRepository],
})
export class TaskRelationModule implements OnModuleInit {
  constructor(private readonly registry: ScopeRegistry) {}

  onModuleInit(): void {
    this.registry.register('task-relation', { notFound: 'Task relation not found', sql: TASK_RELATION_SCOPE_SQL });
  }
}
