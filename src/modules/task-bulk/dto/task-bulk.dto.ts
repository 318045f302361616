import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import { isUuid } from '../../../common/pipes/id.pipe';
import { emptyAsNull, isTimestamp, IsTimestamp, OptionalNullable, trim } from '../../../common/validation/dto-helpers';
import { LABEL_COLOR, LABEL_COLOR_MESSAGE } from '../../label/label-colors';
import { PRIORITIES } from '../../task/task.record';

export const MAX_IMPORT = 1000;
export const MAX_BULK = 500;

/** A label of an imported task, as the export writes it. */
export class ImportLabelDto {
  @ApiProperty()
  @Transform(trim)
  @IsString()
  @Length(1, 100)
  name: string;

  @ApiProperty({ example: '#EF4444', description: '#RRGGBB or a palette name' })
  @IsString()
  @Matches(LABEL_COLOR, { message: LABEL_COLOR_MESSAGE })
  color: string;
}

/**
 * One task of an import. Validated task by task (docs/compatibility.md, "Export and import"):
 * a task that fails is reported in the results and the others are imported.
 */
export class ImportTaskDto {
  @ApiProperty()
  @Transform(trim)
  @IsString()
  @Length(1, 500)
  title: string;

  @ApiProperty({ description: 'a status of the project; unknown → its first column (with a warning); "" → the first column' })
  @IsString()
  @MaxLength(100)
  status: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @OptionalNullable()
  @IsString()
  @MaxLength(100_000)
  description?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'unknown → no-priority (with a warning)' })
  @OptionalNullable()
  @IsString()
  @MaxLength(100)
  priority?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'date-time' })
  @Transform(emptyAsNull)
  @OptionalNullable()
  @IsTimestamp()
  startDate?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'date-time' })
  @Transform(emptyAsNull)
  @OptionalNullable()
  @IsTimestamp()
  dueDate?: string | null;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'assignee; not a member of the workspace, or no task:assign → imported unassigned (with a warning)',
  })
  @Transform(({ value }) => (value === '' ? null : typeof value === 'string' ? value.toLowerCase() : value))
  @OptionalNullable()
  @IsUUID('all')
  userId?: string | null;

  @ApiPropertyOptional({ type: [ImportLabelDto], nullable: true, description: 'labels as the export writes them; each is put on the task' })
  @OptionalNullable()
  @IsArray()
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  @Type(() => ImportLabelDto)
  labels?: ImportLabelDto[] | null;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    nullable: true,
    description: "the export's list of the task's files: accepted and ignored (files are not imported)",
  })
  @OptionalNullable()
  @IsArray()
  @ArrayMaxSize(1000)
  assets?: unknown[] | null;
}

export class ImportTasksDto {
  @ApiProperty({ type: [ImportTaskDto], description: `at most ${MAX_IMPORT}; each task is checked on its own` })
  @IsArray()
  @ArrayMaxSize(MAX_IMPORT)
  @IsObject({ each: true, message: 'each task must be an object' })
  tasks: Record<string, unknown>[];
}

export const BULK_OPERATIONS = ['updateStatus', 'updatePriority', 'updateAssignee', 'updateDueDate', 'addLabel', 'removeLabel', 'moveToProject', 'delete'] as const;
export type BulkOperation = (typeof BULK_OPERATIONS)[number];

/** What `value` must be for each operation, and the message when it is not. */
const VALUE_RULES: Record<BulkOperation, { ok: (v: unknown) => boolean; message: string }> = {
  updateStatus: { ok: (v) => typeof v === 'string' && v.length >= 1 && v.length <= 100, message: 'value must be a status (1-100 characters)' },
  updatePriority: { ok: (v) => (PRIORITIES as readonly unknown[]).includes(v), message: `value must be one of the following values: ${PRIORITIES.join(', ')}` },
  updateAssignee: { ok: (v) => v === null || v === '' || isUuid(v), message: 'value must be a user id, "" or null' },
  updateDueDate: { ok: (v) => v === null || v === '' || isTimestamp(v), message: 'value must be a valid ISO 8601 date string or null' },
  addLabel: { ok: (v) => typeof v === 'string' && v.length <= 100, message: 'value must be a label id' },
  removeLabel: { ok: (v) => typeof v === 'string' && v.trim().length >= 1 && v.length <= 100, message: 'value must be a label name' },
  moveToProject: { ok: (v) => isUuid(v), message: 'value must be a project id' },
  delete: { ok: () => true, message: '' },
};

/** The value rule of the request's operation; undefined for an operation that is not one (`__proto__` included). */
const valueRule = (dto: object | undefined) => {
  const operation = (dto as { operation?: unknown } | undefined)?.operation;
  return typeof operation === 'string' && Object.hasOwn(VALUE_RULES, operation) ? VALUE_RULES[operation as BulkOperation] : undefined;
};

export class BulkUpdateDto {
  @ApiProperty({ type: [String], minItems: 1, maxItems: MAX_BULK, description: 'tasks of one workspace' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BULK)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  taskIds: string[];

  @ApiProperty({ enum: BULK_OPERATIONS })
  @IsIn(BULK_OPERATIONS)
  operation: BulkOperation;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description:
      'updateStatus: a status; updatePriority: a priority; updateAssignee: a member\'s user id, "" or null (unassign); updateDueDate: a date or null (clear); addLabel: a catalogue label id; removeLabel: a label name; moveToProject: a project of the same workspace; delete: none',
  })
  @Allow()
  @ValidateBy({
    name: 'bulkValue',
    validator: {
      // An unknown operation is refused by its own check; its value is not judged.
      validate: (v, args) => {
        const rule = valueRule(args?.object);
        return !rule || rule.ok(v);
      },
      defaultMessage: (args) => valueRule(args?.object)?.message ?? 'value is not valid',
    },
  })
  value?: unknown;
}

/** `GET /task/export/:projectId?page=`: which page of MAX_IMPORT tasks (1, the first, by default). */
export class ExportQuery {
  @ApiPropertyOptional({ default: 1, minimum: 1, description: `pages of ${MAX_IMPORT} tasks, in board order` })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  page?: number;
}
