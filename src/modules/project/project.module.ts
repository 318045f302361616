import { Module, OnModuleInit } from '@nestjs/common';
import { ScopeRegistry } from '../../common/permissions/scope-registry';
import { ColumnModule } from '../column/column.module';
import { ProjectController } from './project.controller';
import { ProjectService } from './project.service';

@Module({
  imports: [ColumnModule],
  controllers: [ProjectController],
  providers: [ProjectService],
  exports: [ProjectService],
})
export class ProjectModule implements OnModuleInit {
  constructor(private readonly registry: ScopeRegistry) {}

  onModuleInit(): void {
    this.registry.register('project', { notFound: 'Project not found', sql: 'SELECT workspace_id FROM project WHERE id = $1' });
  }
}
