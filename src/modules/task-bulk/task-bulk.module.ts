import { Module } from '@nestjs/common';
import { LabelModule } from '../label/label.module';
import { ProjectModule } from '../project/project.module';
import { TaskModule } from '../task/task.module';
import { TaskBulkController } from './task-bulk.controller';
import { TaskBulkService } from './task-bulk.service';
import { TaskTransferService } from './task-transfer.service';

/**
 * Export, import and bulk update of tasks (docs/compatibility.md). No table of its own: tasks
 * through TaskService and the task write path, labels through LabelService, projects through
 * ProjectService.
 */
@Module({
  imports: [TaskModule, LabelModule, ProjectModule],
  controllers: [TaskBulkController],
  providers: [TaskTransferService, TaskBulkService],
})
export class TaskBulkModule {}
