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

/** ISO 8601 timestamps as the API accepts them: parsable and with an explicit date. */
export const ISO_DATE_OPTIONS = { strict: true, strictSeparator: false } as const;

/**
 * An ISO 8601 timestamp the API accepts (ISO_DATE_OPTIONS) that is also a real date with a plain
 * four-digit year: signed years pass the pattern but JavaScript cannot parse them (or reads
 * `-4714` as 4714 AD), and the database would refuse or misstore them.
 */
export const isTimestamp = (v: unknown): v is string => typeof v === 'string' && /^\d{4}-/.test(v) && isISO8601(v, ISO_DATE_OPTIONS) && !Number.isNaN(Date.parse(v));

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
