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

/** Longest role value: a comma list of up to 20 role names of at most 50 characters. */
const MAX_ROLE_INPUT = 1000;
const MAX_ROLES = 20;
const MAX_ROLE_NAME = 50;

/** What is wrong with a role value, or null (docs/decisions-local.md, "Limits"). */
function roleInputProblem(v: unknown): string | null {
  if (missing(v) || v === '') return 'is required';
  if (typeof v === 'string') {
    if (v.trim() === '') return 'must be a role name or an array of role names';
    return v.length > MAX_ROLE_INPUT ? `must be at most ${MAX_ROLE_INPUT} characters` : null;
  }
  if (!Array.isArray(v) || v.length === 0 || !v.every((r) => typeof r === 'string' && r.trim().length > 0)) return 'must be a role name or an array of role names';
  if (v.length > MAX_ROLES) return `must hold at most ${MAX_ROLES} roles`;
  return v.some((r: string) => r.length > MAX_ROLE_NAME) ? `must hold role names of at most ${MAX_ROLE_NAME} characters` : null;
}

/** A role value: a role name, a comma list of names, or an array of names (docs/decisions-local.md, Organization management). */
export const IsRoleInput = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isRoleInput',
      validator: {
        validate: (v: unknown) => roleInputProblem(v) === null,
        defaultMessage: (args?: ValidationArguments) => `${args?.property} ${roleInputProblem(args?.value)}`,
      },
    },
    options,
  );

const MAX_PERMISSION_INPUT = 10_000;

/** What is wrong with a permission value, or null. */
function permissionInputProblem(v: unknown): string | null {
  if (missing(v) || v === '') return 'is required';
  const text = typeof v === 'string' ? v : !!v && typeof v === 'object' && !Array.isArray(v) ? JSON.stringify(v) : null;
  if (text === null || text.trim() === '') return 'must be an object or a JSON string of one';
  return text.length > MAX_PERMISSION_INPUT ? `must be at most ${MAX_PERMISSION_INPUT} characters as JSON` : null;
}

/** A permission value: an object {resource: [action]} or a JSON string of one, at most 10,000 characters as JSON (docs/decisions-local.md, Organization management). */
export const IsPermissionInput = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isPermissionInput',
      validator: {
        validate: (v: unknown) => permissionInputProblem(v) === null,
        defaultMessage: (args?: ValidationArguments) => `${args?.property} ${permissionInputProblem(args?.value)}`,
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
