import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ScopeRegistry } from '../../common/permissions/scope-registry';
import { TaskModule } from '../task/task.module';
import { LabelController } from './label.controller';
import { Label } from './label.entity';
import { LABEL_SCOPE_SQL, LabelRepository } from './label.repository';
import { LabelService } from './label.service';

@Module({
  imports: [TypeOrmModule.forFeature([Label]), TaskModule],
  controllers: [LabelController],
  providers: [LabelService, LabelRepository],
  exports: [LabelService],
})
export class LabelModule implements OnModuleInit {
  constructor(private readonly registry: ScopeRegistry) {}

  onModuleInit(): void {
    this.registry.register('label', { notFound: 'Label not found', sql: LABEL_SCOPE_SQL });
  }
}
