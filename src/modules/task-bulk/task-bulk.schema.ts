import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { FlagProp, IdProp, IntProp, TextProp, TimeProp } from '../../common/http/schema-props';
import { PRIORITIES } from '../task/task.record';
import { TaskRecordSchema } from '../task/task.schema';

@ApiSchema({ name: 'ExportedLabel' })
export class ExportedLabelSchema {
  @TextProp() name: string;
  @TextProp() color: string;
}

/** A file of an exported task (ExportedAsset). */
@ApiSchema({ name: 'ExportedAsset' })
export class ExportedAssetSchema {
  @IdProp() id: string;
  @TextProp() filename: string;
  @TextProp() contentType: string;
  @IntProp() size: number;
  @ApiProperty({ enum: ['description', 'comment', 'attachment'] }) surface: string;
  @TextProp({ description: '/api/asset/:id' }) url: string;
  @TimeProp() createdAt: string;
}

/** A task of the export (ExportedTask). */
@ApiSchema({ name: 'ExportedTask' })
export class ExportedTaskSchema {
  @TextProp() title: string;
  @TextProp({ nullable: true }) description: string | null;
  @TextProp() status: string;
  @ApiProperty({ enum: [...PRIORITIES] }) priority: string;
  @TimeProp({ nullable: true }) dueDate: string | null;
  @TimeProp({ nullable: true }) startDate: string | null;
  @IdProp({ nullable: true }) userId: string | null;
  @ApiProperty({ type: [ExportedLabelSchema], nullable: true, description: 'null for an API key without the label:read scope' }) labels: ExportedLabelSchema[] | null;
  @ApiProperty({ type: [ExportedAssetSchema], description: 'newest first; not imported' }) assets: ExportedAssetSchema[];
}

@ApiSchema({ name: 'ExportedProject' })
export class ExportedProjectSchema {
  @TextProp() name: string;
  @TextProp() slug: string;
  @TextProp({ nullable: true }) description: string | null;
  @TimeProp() exportedAt: string;
}

/** Task export (`GET /task/export/:projectId`; ExportAnswer). */
@ApiSchema({ name: 'TaskExport' })
/** Which page of the project's tasks an export is. */
@ApiSchema({ name: 'ExportPagination' })
export class ExportPaginationSchema {
  @IntProp() page: number;
  @IntProp({ description: 'tasks per page: what one import takes' }) pageSize: number;
  @IntProp({ description: "the project's tasks in all" }) total: number;
  @FlagProp({ description: 'a next page (?page=) holds more' }) hasMore: boolean;
}

export class TaskExportSchema {
  @ApiProperty({ type: ExportedProjectSchema }) project: ExportedProjectSchema;
  @ApiProperty({ type: [ExportedTaskSchema] }) tasks: ExportedTaskSchema[];
  @ApiProperty({ type: ExportPaginationSchema }) pagination: ExportPaginationSchema;
}

/** One task's result of an import (ImportResult). */
@ApiSchema({ name: 'ImportTaskResult' })
export class ImportTaskResultSchema {
  @FlagProp() success: boolean;
  @ApiProperty({ type: TaskRecordSchema, required: false }) task?: TaskRecordSchema;
  @ApiProperty({ type: [String], required: false }) warnings?: string[];
  @TextProp({ required: false }) error?: string;
}

@ApiSchema({ name: 'ImportProject' })
export class ImportProjectSchema {
  @IdProp() id: string;
  @TextProp() name: string;
  @TextProp() slug: string;
}

@ApiSchema({ name: 'ImportResults' })
export class ImportResultsSchema {
  @IntProp() total: number;
  @IntProp() successful: number;
  @IntProp() failed: number;
  @ApiProperty({ type: [ImportTaskResultSchema] }) tasks: ImportTaskResultSchema[];
}

/** Import answer (`POST /task/import/:projectId`; ImportAnswer). */
@ApiSchema({ name: 'ImportAnswer' })
export class ImportAnswerSchema {
  @TimeProp() importedAt: string;
  @ApiProperty({ type: ImportProjectSchema }) project: ImportProjectSchema;
  @ApiProperty({ type: ImportResultsSchema }) results: ImportResultsSchema;
}

/** Bulk answer (`PATCH /task/bulk`). */
@ApiSchema({ name: 'BulkAnswer' })
export class BulkAnswerSchema {
  @ApiProperty({ type: Boolean, enum: [true] }) success: true;
  @IntProp() updatedCount: number;
}
