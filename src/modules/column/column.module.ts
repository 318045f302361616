import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ScopeRegistry } from '../../common/permissions/scope-registry';
import { TaskModule } from '../task/task.module';
import { ColumnController } from './column.controller';
import { BoardColumn } from './column.entity';
import { COLUMN_SCOPE_SQL, ColumnRepository } from './column.repository';
import { ColumnService } from './column.service';

@Module({
  imports: [TypeOrmModule.forFeature([BoardColumn]), TaskModule],
  controllers: [ColumnController],
  providers: [ColumnService, ColumnRepository],
  exports: [ColumnService],
})
export class ColumnModule implements OnModuleInit {
  constructor(private readonly registry: ScopeRegistry) {}

  onModuleInit(): void {
    this.registry.register('column', { notFound: 'Column not found', sql: COLUMN_SCOPE_SQL });
  }
}
