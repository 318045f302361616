import { BadRequestException } from '@nestjs/common';
import { durationSeconds } from './time-span';

describe('durationSeconds', () => {
  const start = new Date('2025-01-01T10:00:00.000Z');
  it('counts whole seconds between start and end', () => {
    expect(durationSeconds(start, new Date('2025-01-01T11:30:15.000Z'))).toBe(5415);
  });
  it('rounds a fraction of a second down', () => {
    expect(durationSeconds(start, new Date('2025-01-01T10:00:01.999Z'))).toBe(1);
  });
  it('is 0 for an instant and for a running timer', () => {
    expect(durationSeconds(start, new Date(start))).toBe(0);
    expect(durationSeconds(start, null)).toBe(0);
  });
  it('refuses a start after the end with the contract message', () => {
    expect(() => durationSeconds(start, new Date('2025-01-01T09:59:59.999Z'))).toThrow(new BadRequestException('Start time cannot be after end time'));
  });
});
