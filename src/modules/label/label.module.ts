import { Module, OnModuleInit } from '@nestjs/common';
import { ScopeRegistry } from '../../common/permissions/scope-registry';
import { TaskModule } from '../task/task.module';
import { LabelController } from './label.controller';
import { LabelService } from './label.service';

@Module({
  imports: [TaskModule],
  controllers: [LabelController],
  providers: [LabelService],
  exports: [LabelService],
})
export class LabelModule implements OnModuleInit {
  constructor(private readonly registry: ScopeRegistry) {}

  onModuleInit(): void {
    this.registry.register('label', { notFound: 'Label not found', sql: 'SELECT workspace_id FROM label WHERE id = $1' });
  }
}
