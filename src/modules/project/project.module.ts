import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ScopeRegistry } from '../../common/permissions/scope-registry';
import { ColumnModule } from '../column/column.module';
import { TaskModule } from '../task/task.module';
import { ProjectController } from './project.controller';
import { Project } from './project.entity';
import { PROJECT_SCOPE_SQL, ProjectRepository } from './project.repository';
import { ProjectService } from './project.service';
import { PublicProjectController } from './public-project.controller';
import { PublicProjectService } from './public-project.service';

@Module({
  imports: [TypeOrmModule.forFeature([Project]), ColumnModule, TaskModule],
  controllers: [ProjectController, PublicProjectController],
  providers: [ProjectService, ProjectRepository, PublicProjectService],
  exports: [ProjectService],
})
export class ProjectModule implements OnModuleInit {
  constructor(private readonly registry: ScopeRegistry) {}

  onModuleInit(): void {
    this.registry.register('project', { notFound: 'Project not found', sql: PROJECT_SCOPE_SQL });
  }
}
