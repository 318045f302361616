import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsOptional, IsString, IsUUID, Length, Matches, Max, MaxLength, Min } from 'class-validator';
import { emptyAsNull, IsIdString, IsTimestamp, NullableButRequired, OptionalNotNull, OptionalNullable, trim } from '../../../common/validation/dto-helpers';
import { PRIORITIES, Priority } from '../task.record';

const lower = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.toLowerCase() : value);
/** An assignee: `""` means none (null), ids compare in lower case. */
const assignee = ({ value }: { value: unknown }) => (value === '' ? null : lower({ value }));

export class UpdateTaskDto {
  @ApiPropertyOptional()
  @OptionalNotNull()
  @Transform(trim)
  @IsString()
  @Length(1, 500)
  title?: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @OptionalNullable()
  @IsString()
  @MaxLength(100_000)
  description?: string | null;

  @ApiPropertyOptional({ description: "a column slug of the project, or 'planned' / 'archived'" })
  @OptionalNotNull()
  @IsString()
  @Length(1, 100)
  status?: string;

  @ApiPropertyOptional({ enum: PRIORITIES })
  @OptionalNotNull()
  @IsIn(PRIORITIES)
  priority?: Priority;

  @ApiPropertyOptional({ minimum: 0, description: 'place in its column; a status change without it puts the task at the end' })
  @OptionalNotNull()
  @IsInt()
  @Min(0)
  @Max(1_000_000_000)
  position?: number;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'date-time', description: 'null or "" clears it' })
  @Transform(emptyAsNull)
  @OptionalNullable()
  @IsTimestamp()
  startDate?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'date-time', description: 'null or "" clears it' })
  @Transform(emptyAsNull)
  @OptionalNullable()
  @IsTimestamp()
  dueDate?: string | null;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'assignee: a member of the workspace (needs task:assign); null or "" unassigns' })
  @Transform(assignee)
  @OptionalNullable()
  @IsUUID('all')
  userId?: string | null;

  @ApiPropertyOptional({ description: "the task's current project, as clients of the original API send it; another project → 400 (moving has its own route)" })
  @OptionalNotNull()
  @IsString()
  @MaxLength(100)
  projectId?: string;
}

export class CreateTaskDto extends OmitType(UpdateTaskDto, ['title', 'position', 'projectId', 'status'] as const) {
  @ApiProperty()
  @Transform(trim)
  @IsString()
  @Length(1, 500)
  title: string;

  @ApiPropertyOptional({ description: "a column slug of the project, or 'planned' / 'archived'; absent or \"\": the first column" })
  @Transform(({ value }) => (value === '' ? undefined : value))
  @OptionalNotNull()
  @IsString()
  @Length(1, 100)
  status?: string;
}

export class TaskStatusDto {
  @ApiProperty()
  @IsString()
  @Length(1, 100)
  status: string;
}

export class TaskPriorityDto {
  @ApiProperty({ enum: PRIORITIES })
  @IsIn(PRIORITIES)
  priority: Priority;
}

export class TaskTitleDto {
  @ApiProperty()
  @Transform(trim)
  @IsString()
  @Length(1, 500)
  title: string;
}

export class TaskDescriptionDto {
  @ApiProperty({ type: String, nullable: true })
  @NullableButRequired()
  @IsString()
  @MaxLength(100_000)
  description: string | null;
}

export class TaskAssigneeDto {
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'null or "" unassigns' })
  @Transform(assignee)
  @NullableButRequired()
  @IsUUID('all')
  userId: string | null;
}

export class TaskDueDateDto {
  @ApiPropertyOptional({ type: String, nullable: true, format: 'date-time', description: 'null, "" or omitted clears it' })
  @Transform(emptyAsNull)
  @OptionalNullable()
  @IsTimestamp()
  dueDate?: string | null;
}

export class MoveTaskDto {
  @ApiProperty()
  @IsIdString()
  destinationProjectId: string;

  @ApiPropertyOptional({ description: 'a column slug of the destination; default: the same slug there, else its first column' })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  destinationStatus?: string;
}

export class ReorderTasksDto {
  @ApiProperty({ description: 'the column (status slug) whose order this is' })
  @IsString()
  @Length(1, 100)
  status: string;

  @ApiProperty({ type: [String], description: 'tasks of that column in their new order (positions 0, 1, 2, …); tasks not listed keep theirs' })
  @IsArray()
  @ArrayMaxSize(1000)
  @Transform(({ value }: { value: unknown }) => (Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v.toLowerCase() : v)) : value))
  @IsUUID('all', { each: true, message: 'each of taskIds must be a task id' })
  taskIds: string[];
}

export const TASK_SORTS = ['createdAt', 'position', 'number', 'title', 'status', 'priority', 'dueDate', 'startDate'] as const;
export type TaskSort = (typeof TASK_SORTS)[number];

/** `labelId=a&labelId=b` (an array) or `labelId=a` (a string): an array of lower-case ids. */
const idList = ({ value }: { value: unknown }) =>
  value === undefined ? undefined : (Array.isArray(value) ? value : [value]).map((v) => (typeof v === 'string' ? v.toLowerCase() : v));
const UUID_OR_NONE = /^(?:none|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/**
 * The filters of a task list, combined with AND (docs/compatibility.md, "Task lists and their
 * filters"): GET /task/tasks/:projectId and GET /task/mine. Dates are ISO 8601 (a day or a
 * moment); `…After` includes the moment given, `…Before` excludes it, so that `dueAfter=2026-12-01&dueBefore=2026-12-08`
 * is one week. A task without the date passes no date filter on it.
 */
export class TaskFilterQuery {
  @ApiPropertyOptional({ description: "a column slug of the project, or 'planned' / 'archived'; one that is not → 400" })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  status?: string;

  @ApiPropertyOptional({ enum: PRIORITIES })
  @IsOptional()
  @IsIn(PRIORITIES)
  priority?: Priority;

  @ApiPropertyOptional({ description: "the assignee: a user id, or `none` for unassigned tasks (the original API's name)" })
  @IsOptional()
  @Transform(lower)
  @IsString()
  @MaxLength(36)
  @Matches(UUID_OR_NONE, { message: 'assigneeId must be a user id or none' })
  assigneeId?: string;

  @ApiPropertyOptional({ description: 'the assignee, as assigneeId (a user id, or `none`); both given must agree' })
  @IsOptional()
  @Transform(lower)
  @IsString()
  @MaxLength(36)
  @Matches(UUID_OR_NONE, { message: 'userId must be a user id or none' })
  userId?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'due at or after this moment (a day: its start, UTC)' })
  @IsOptional()
  @IsTimestamp()
  dueAfter?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'due before this moment (a day: its start, UTC)' })
  @IsOptional()
  @IsTimestamp()
  dueBefore?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'starting at or after this moment' })
  @IsOptional()
  @IsTimestamp()
  startAfter?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'starting before this moment' })
  @IsOptional()
  @IsTimestamp()
  startBefore?: string;

  @ApiPropertyOptional({ type: [String], description: 'a label of the workspace (repeatable: tasks with any of them); one that is not → 400' })
  @IsOptional()
  @Transform(idList)
  @IsArray()
  @ArrayMaxSize(20)
  @IsUUID('all', { each: true, message: 'each labelId must be a label id' })
  labelId?: string[];

  @ApiPropertyOptional({ description: 'case-insensitive text in title or description' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  q?: string;

  @ApiPropertyOptional({ default: 1, minimum: 1, maximum: 1_000_000_000 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1_000_000_000)
  page?: number;

  @ApiPropertyOptional({ default: 50, minimum: 1, maximum: 100 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @ApiPropertyOptional({ enum: TASK_SORTS, default: 'createdAt' })
  @IsOptional()
  @IsIn(TASK_SORTS)
  sortBy?: TaskSort;

  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'desc' })
  @IsOptional()
  @IsIn(['asc', 'desc'])
  sortOrder?: 'asc' | 'desc';
}

/** GET /task/tasks/:projectId: the filters, a page, an order. */
export class ListTasksQuery extends TaskFilterQuery {}

/** GET /task/mine: the caller's tasks, in one workspace or in all of theirs. */
export class MyTasksQuery extends OmitType(TaskFilterQuery, ['assigneeId', 'userId'] as const) {
  @ApiPropertyOptional({ format: 'uuid', description: 'one workspace of the caller; omitted: every workspace the caller is a member of' })
  @IsOptional()
  @Transform(lower)
  @IsUUID('all')
  workspaceId?: string;
}
