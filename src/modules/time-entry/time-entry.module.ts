import { Module, OnModuleInit } from '@nestjs/common';
import { ScopeRegistry } from '../../common/permissions/scope-registry';
import { TimeEntryController } from './time-entry.controller';
import { TimeEntryService } from './time-entry.service';

@Module({
  controllers: [TimeEntryController],
  providers: [TimeEntryService],
  exports: [TimeEntryService],
})
export class TimeEntryModule implements OnModuleInit {
  constructor(private readonly registry: ScopeRegistry) {}

  onModuleInit(): void {
    this.registry.register('time-entry', {
      notFound: 'Time entry not found',
      sql: 'SELECT t.workspace_id FROM time_entry e JOIN task t ON t.id = e.task_id WHERE e.id = $1',
    });
  }
}
