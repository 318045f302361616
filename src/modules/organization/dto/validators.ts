import { ValidateBy, ValidationArguments, ValidationOptions } from 'class-validator';

const missing = (v: unknown) => v === undefined || v === null;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * A required string field with one message per failure: missing or empty → "<field> is required",
 * otherwise "<field> must be a string" / "must be at most N characters" / "must be a valid email address".
 */
export const IsRequiredString = (opts: { max?: number; email?: boolean; pattern?: RegExp; patternMessage?: string } = {}, options?: ValidationOptions) => {
  const max = opts.max ?? 1000;
  const problem = (v: unknown): string | null => {
    if (missing(v) || (typeof v === 'string' && v.trim() === '')) return 'is required';
    if (typeof v !== 'string') return 'must be a string';
    if (v.length > max) return `must be at most ${max} characters`;
    if (opts.email && !EMAIL.test(v)) return 'must be a valid email address';
    if (opts.pattern && !opts.pattern.test(v)) return opts.patternMessage ?? 'has an invalid format';
    return null;
  };
  return ValidateBy(
    {
      name: 'isRequiredString',
      validator: {
        validate: (v: unknown) => problem(v) === null,
        defaultMessage: (args?: ValidationArguments) => `${args?.property} ${problem(args?.value)}`,
      },
    },
    options,
  );
};

/** A role value: a role name, a comma list of names, or an array of names (docs/decisions-local.md, Organization management). */
export const IsRoleInput = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isRoleInput',
      validator: {
        validate: (v: unknown) =>
          (typeof v === 'string' && v.trim().length > 0) || (Array.isArray(v) && v.length > 0 && v.length <= 20 && v.every((r) => typeof r === 'string' && r.trim().length > 0)),
        defaultMessage: (args?: ValidationArguments) =>
          missing(args?.value) || args?.value === '' ? `${args?.property} is required` : `${args?.property} must be a role name or an array of role names`,
      },
    },
    options,
  );

/** A permission value: an object {resource: [action]} or a JSON string of one (docs/decisions-local.md, Organization management). */
export const IsPermissionInput = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isPermissionInput',
      validator: {
        validate: (v: unknown) => (typeof v === 'string' && v.trim().length > 0 && v.length <= 10_000) || (!!v && typeof v === 'object' && !Array.isArray(v)),
        defaultMessage: (args?: ValidationArguments) =>
          missing(args?.value) || args?.value === '' ? `${args?.property} is required` : `${args?.property} must be an object or a JSON string of one`,
      },
    },
    options,
  );

/** A required object: missing → "<field> is required", otherwise "<field> must be an object". */
export const IsRequiredObject = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isRequiredObject',
      validator: {
        validate: (v: unknown) => !!v && typeof v === 'object' && !Array.isArray(v),
        defaultMessage: (args?: ValidationArguments) => (missing(args?.value) ? `${args?.property} is required` : `${args?.property} must be an object`),
      },
    },
    options,
  );
