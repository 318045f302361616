import { Module } from '@nestjs/common';
import { AssetModule } from '../asset/asset.module';
import { LabelModule } from '../label/label.module';
import { ProjectModule } from '../project/project.module';
import { TaskModule } from '../task/task.module';
import { TaskBulkController } from './task-bulk.controller';
import { TaskBulkService } from './task-bulk.service';
import { TaskTransferService } from './task-transfer.service';

/**
 * Export, import and bulk update of tasks (docs/compatibility.md). No table of its own: tasks
 * through TaskService and the task write path, labels through LabelService, projects through
 * ProjectService, the tasks' files (listed in an export) through AssetService.
 */
@Module({
  imports: [TaskModule, LabelModule, ProjectModule, AssetModule],
  controllers: [TaskBulkController],
  providers: [TaskTransferService, TaskBulkService],
})
export class TaskBulkModule {}
