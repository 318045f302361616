import { ValidateBy, ValidationArguments, ValidationOptions } from 'class-validator';
import { IsRequiredString } from '../organization/dto/validators';
import { BRANCH_PATTERN_MESSAGE, isValidBranchPattern } from './git-rules';

/** A repository owner or name as both hosts allow them: letters, digits, `-`, `_`, `.` (not `.` or `..` alone). */
const REPOSITORY_PART = /^(?!\.{1,2}$)[A-Za-z0-9_.-]+$/;

export const IsRepositoryPart = (options?: ValidationOptions) =>
  IsRequiredString({ max: 100, pattern: REPOSITORY_PART, patternMessage: 'must contain only letters, digits, "-", "_" and "."' }, options);

/** A branch pattern (git-rules.ts): `{number}` once, `{slug}` at most once. */
export const IsBranchPattern = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isBranchPattern',
      validator: {
        validate: (v: unknown) => isValidBranchPattern(v),
        defaultMessage: (args?: ValidationArguments) => (typeof args?.value === 'string' ? BRANCH_PATTERN_MESSAGE : `${args?.property} must be a string`),
      },
    },
    options,
  );
