import { Module, OnModuleInit } from '@nestjs/common';
import { ScopeRegistry } from '../../common/permissions/scope-registry';
import { ColumnController } from './column.controller';
import { ColumnService } from './column.service';

@Module({
  controllers: [ColumnController],
  providers: [ColumnService],
  exports: [ColumnService],
})
export class ColumnModule implements OnModuleInit {
  constructor(private readonly registry: ScopeRegistry) {}

  onModuleInit(): void {
    this.registry.register('column', {
      notFound: 'Column not found',
      sql: 'SELECT p.workspace_id FROM board_column c JOIN project p ON p.id = c.project_id WHERE c.id = $1',
    });
  }
}
