import { ValidateBy, ValidationArguments, ValidationOptions } from 'class-validator';

/**
 * How long before a due date a reminder goes out (docs/notifications.md, "Due dates"), for a
 * person's preferences and a generic webhook alike: a day unless chosen, at most 30 days.
 */
export const DEFAULT_REMINDER_LEAD_MINUTES = 1440;
export const MAX_REMINDER_LEAD_MINUTES = 43200;

/** A lead time: an integer number of minutes from 0 to MAX_REMINDER_LEAD_MINUTES. */
export const IsLeadTime = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isLeadTime',
      validator: {
        validate: (v: unknown) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= MAX_REMINDER_LEAD_MINUTES,
        defaultMessage: (args?: ValidationArguments) => `${args?.property} must be an integer from 0 to ${MAX_REMINDER_LEAD_MINUTES}`,
      },
    },
    options,
  );
