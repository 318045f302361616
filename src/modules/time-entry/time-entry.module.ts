import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ScopeRegistry } from '../../common/permissions/scope-registry';
import { TimeEntryController } from './time-entry.controller';
import { TimeEntry } from './time-entry.entity';
import { TIME_ENTRY_SCOPE_SQL, TimeEntryRepository } from './time-entry.repository';
import { TimeEntryService } from './time-entry.service';

@Module({
  imports: [TypeOrmModule.forFeature([TimeEntry])],
  controllers: [TimeEntryController],
  providers: [TimeEntryService, TimeEntryRepository],
  exports: [TimeEntryService],
})
export class TimeEntryModule implements OnModuleInit {
  constructor(private readonly registry: ScopeRegistry) {}

  onModuleInit(): void {
    this.registry.register('time-entry', { notFound: 'Time entry not found', sql: TIME_ENTRY_SCOPE_SQL });
  }
}
