import { TransformFnParams } from 'class-transformer';
import { isISO8601, ValidateBy, ValidationOptions, ValidateIf } from 'class-validator';

/** Trims strings; leaves anything else for the validators to reject. */
export const trim = ({ value }: TransformFnParams) => (typeof value === 'string' ? value.trim() : value);

/**
 * `""` means "none" (null), as clients of the original API send it to unassign or clear a date
 * (docs/compatibility.md); anything else is left for the validators.
 */
export const emptyAsNull = ({ value }: TransformFnParams) => (value === '' ? null : value);

/**
 * The property may be sent as `null` (to clear it); any other value, including a missing one,
 * goes through the validators that follow.
 */
export const NullableButRequired = (options?: ValidationOptions) => ValidateIf((_o, v) => v !== null, options);

/** The property may be omitted or `null`; a present non-null value goes through the validators that follow. */
export const OptionalNullable = (options?: ValidationOptions) => ValidateIf((_o, v) => v !== null && v !== undefined, options);

/**
 * The property may be omitted; when sent it goes through the validators that follow, so `null`
 * is refused (400) for a field whose column cannot be emptied.
 */
export const OptionalNotNull = (options?: ValidationOptions) => ValidateIf((_o, v) => v !== undefined, options);

/**
 * Longest id a body or query field may carry (docs/decisions-local.md, "Limits"): a UUID has 36
 * characters. A longer value is 400 naming the field; a shorter malformed one stays 404
 * `<Thing> not found`.
 */
export const MAX_ID_LENGTH = 100;

/** Longest timestamp accepted: room for nanoseconds and an offset, not for a megabyte of digits. */
export const MAX_TIMESTAMP_LENGTH = 64;

/** ISO 8601 timestamps as the API accepts them: parsable and with an explicit date. */
export const ISO_DATE_OPTIONS = { strict: true, strictSeparator: false } as const;

/**
 * An ISO 8601 timestamp the API accepts (ISO_DATE_OPTIONS) that is also a real date with a plain
 * four-digit year: signed years pass the pattern but JavaScript cannot parse them (or reads
 * `-4714` as 4714 AD), and the database would refuse or misstore them.
 */
export const isTimestamp = (v: unknown): v is string =>
  typeof v === 'string' && v.length <= MAX_TIMESTAMP_LENGTH && /^\d{4}-/.test(v) && isISO8601(v, ISO_DATE_OPTIONS) && !Number.isNaN(Date.parse(v));

export const IsTimestamp = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isTimestamp',
      validator: {
        validate: isTimestamp,
        defaultMessage: (args) => `${args?.property} must be a valid ISO 8601 date string`,
      },
    },
    options,
  );

/**
 * A free-form object whose JSON text is at most `max` characters (docs/decisions-local.md,
 * "Limits"): "<field> must be at most N characters as JSON". Other checks (an object at all) are
 * left to the validators beside it.
 */
export const MaxJsonLength = (max: number, options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'maxJsonLength',
      constraints: [max],
      validator: {
        validate: (v: unknown) => v === null || typeof v !== 'object' || JSON.stringify(v).length <= max,
        defaultMessage: (args) => `${args?.property} must be at most ${max} characters as JSON`,
      },
    },
    options,
  );

/**
 * An id in a body or query field: a string of at most MAX_ID_LENGTH characters, one message per
 * failure ("<field> must be a string" / "<field> must be at most 100 characters"). Whether it
 * names anything is the service's question (404).
 */
export const IsIdString = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isIdString',
      constraints: [MAX_ID_LENGTH],
      validator: {
        validate: (v: unknown) => typeof v === 'string' && v.length <= MAX_ID_LENGTH,
        defaultMessage: (args) => (typeof args?.value === 'string' ? `${args?.property} must be at most ${MAX_ID_LENGTH} characters` : `${args?.property} must be a string`),
      },
    },
    options,
  );
