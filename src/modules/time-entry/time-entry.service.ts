import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { AuthUser } from '../../common/decorators/current-user.decorator';
import { isForeignKeyViolation } from '../../database/sql';
import { CreateTimeEntryDto, UpdateTimeEntryDto } from './dto/time-entry.dto';
import { durationSeconds } from './time-span';
import { TimeEntryRecord, toTimeEntryRecord } from './time-entry.record';
import { TimeEntryRepository } from './time-entry.repository';

const NOT_FOUND = 'Time entry not found';

const toDate = (s: string | null | undefined) => (s ? new Date(s) : null);

@Injectable()
export class TimeEntryService {
  constructor(private readonly entries: TimeEntryRepository) {}

  /** The caller is the author. The guard has found the task in the workspace. */
  async create(workspaceId: string, user: AuthUser, dto: CreateTimeEntryDto): Promise<TimeEntryRecord> {
    const startTime = new Date(dto.startTime);
    const endTime = toDate(dto.endTime);
    try {
      const row = await this.entries.insert(workspaceId, dto.taskId.toLowerCase(), user.id, {
        description: dto.description ?? null,
        startTime,
        endTime,
        duration: durationSeconds(startTime, endTime),
      });
      return toTimeEntryRecord(row);
    } catch (err) {
      // The task was deleted after the permission check.
      if (isForeignKeyViolation(err)) throw new NotFoundException('Task not found');
      throw err;
    }
  }

  /** The task's entries by start time. */
  async listTask(workspaceId: string, taskId: string): Promise<TimeEntryRecord[]> {
    return (await this.entries.listForTask(workspaceId, taskId)).map(toTimeEntryRecord);
  }

  async get(workspaceId: string, id: string): Promise<TimeEntryRecord> {
    const row = await this.entries.findInWorkspace(workspaceId, id);
    if (!row) throw new NotFoundException(NOT_FOUND);
    return toTimeEntryRecord(row);
  }

  /**
   * Omitted fields stay; `endTime: null` sets the timer running again; the duration follows the
   * times. One statement applies the change when the entry exists and the result is valid; only when it
   * changed nothing is the entry read again, to answer 404 or the 400 that says what is wrong.
   */
  async update(workspaceId: string, id: string, dto: UpdateTimeEntryDto, actorId: string | null = null): Promise<TimeEntryRecord> {
    const fields = {
      startTime: dto.startTime !== undefined ? new Date(dto.startTime) : undefined,
      endTime: dto.endTime !== undefined ? toDate(dto.endTime) : undefined,
      description: dto.description,
    };
    // A second round only when a concurrent change made the difference between the two reads.
    for (let round = 0; round < 2; round++) {
      const row = await this.entries.updateIfValid(workspaceId, id, fields, actorId);
      if (row) return toTimeEntryRecord(row);
      const cur = await this.entries.findInWorkspace(workspaceId, id);
      if (!cur) throw new NotFoundException(NOT_FOUND);
      durationSeconds(fields.startTime ?? cur.start_time, fields.endTime !== undefined ? fields.endTime : cur.end_time);
    }
    throw new ConflictException('The time entry changed meanwhile; try again');
  }

  async remove(workspaceId: string, id: string, actorId: string | null = null): Promise<TimeEntryRecord> {
    const row = await this.entries.delete(workspaceId, id, actorId);
    if (!row) throw new NotFoundException(NOT_FOUND);
    return toTimeEntryRecord(row);
  }
}
