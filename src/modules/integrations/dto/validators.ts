import { ValidateBy, ValidationArguments, ValidationOptions } from 'class-validator';
import { IsRequiredString } from '../../organization/dto/validators';
import { EVENT_FLAGS } from '../../task/task-event';

/** What a messenger bot token looks like: `<8–10 digits>:<35 characters>`. */
export const BOT_TOKEN = /^\d{8,10}:[A-Za-z0-9_-]{35}$/;
export const BOT_TOKEN_MESSAGE = 'Enter a valid bot token';

/** An absolute http(s) URL (the destination guard then checks where it leads). */
const WEB_URL = /^https?:\/\/[^\s/?#]+[^\s]*$/i;

/** A required http(s) URL of at most 2048 characters: "<field> is required" / "must be an http(s) URL" / "must be at most 2048 characters". */
export const IsWebhookUrl = (options?: ValidationOptions) => IsRequiredString({ max: 2048, pattern: WEB_URL, patternMessage: 'must be an http(s) URL' }, options);

/** What is wrong with an `events` value: not an object, a member that is not an event kind, a member that is not a boolean. */
function eventsProblems(v: unknown, property: string): string[] {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return [`${property} must be an object`];
  const out: string[] = [];
  for (const [k, member] of Object.entries(v)) {
    if (!(EVENT_FLAGS as readonly string[]).includes(k)) out.push(`property ${property}.${k} should not exist`);
    else if (typeof member !== 'boolean') out.push(`${property}.${k} must be a boolean value`);
  }
  return out;
}

/**
 * `events` (docs/integrations.md, "Events selection"): an object whose members are event kinds
 * with boolean values; one message per problem, naming the member by its path.
 */
export const IsEvents = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isEvents',
      validator: {
        validate: (v: unknown, args?: ValidationArguments) => eventsProblems(v, args?.property ?? 'events').length === 0,
        defaultMessage: (args?: ValidationArguments) => eventsProblems(args?.value, args?.property ?? 'events').join(', '),
      },
    },
    options,
  );

/** An integer in [min, max], with one message per failure: "<field> must be an integer" / "must be at least min" / "must be at most max". */
export const IsIntInRange = (min: number, max: number, options?: ValidationOptions) => {
  const problem = (v: unknown): string | null => {
    if (typeof v !== 'number' || !Number.isInteger(v)) return 'must be an integer';
    if (v < min) return `must be at least ${min}`;
    if (v > max) return `must be at most ${max}`;
    return null;
  };
  return ValidateBy(
    {
      name: 'isIntInRange',
      constraints: [min, max],
      validator: {
        validate: (v: unknown) => problem(v) === null,
        defaultMessage: (args?: ValidationArguments) => `${args?.property} ${problem(args?.value)}`,
      },
    },
    options,
  );
};

/** A string of at most `max` characters, with one message per failure: "<field> must be a string" / "must be at most max characters". */
export const IsText = (max: number, options?: ValidationOptions) => {
  const problem = (v: unknown): string | null => (typeof v !== 'string' ? 'must be a string' : v.length > max ? `must be at most ${max} characters` : null);
  return ValidateBy(
    {
      name: 'isText',
      constraints: [max],
      validator: {
        validate: (v: unknown) => problem(v) === null,
        defaultMessage: (args?: ValidationArguments) => `${args?.property} ${problem(args?.value)}`,
      },
    },
    options,
  );
};
