import { BadRequestException } from '@nestjs/common';

export const MAX_DURATION_SECONDS = 2_147_483_647;

/**
 * Duration of a time entry in whole seconds (docs/records.md, "Time entry"): end − start, rounded down;
 * 0 while the timer runs (no end). Refuses a start after the end.
 */
export function durationSeconds(start: Date, end: Date | null): number {
  if (end && start.getTime() > end.getTime()) throw new BadRequestException('Start time cannot be after end time');
  const seconds = end ? Math.floor((end.getTime() - start.getTime()) / 1000) : 0;
  // The duration column is a 32-bit integer (about 68 years).
  if (seconds > MAX_DURATION_SECONDS) throw new BadRequestException('Time entry cannot be longer than 68 years');
  return seconds;
}
