import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ScopeRegistry } from '../../common/permissions/scope-registry';
import { ColumnModule } from '../column/column.module';
import { ProjectController } from './project.controller';
import { Project } from './project.entity';
import { PROJECT_SCOPE_SQL, ProjectRepository } from './project.repository';
import { ProjectService } from './project.service';

@Module({
  imports: [TypeOrmModule.forFeature([Project]), ColumnModule],
  controllers: [ProjectController],
  providers: [ProjectService, ProjectRepository],
  exports: [ProjectService],
})
export class ProjectModule implements OnModuleInit {
  constructor(private readonly registry: ScopeRegistry) {}

  onModuleInit(): void {
    this.registry.register('project', { notFound: 'Project not found', sql: PROJECT_SCOPE_SQL });
  }
}
