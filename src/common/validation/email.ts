import { TransformFnParams } from 'class-transformer';

/**
 * The one form an email address is stored and compared in (docs/decisions-local.md, "Emails"):
 * Unicode NFKC first, so compatibility look-alikes such as full-width `ａｄａ＠ｅｘａｍｐｌｅ．ｃｏｍ`
 * become the plain address they imitate, then lower case, then trimmed.
 */
export function normalizeEmail(email: string): string {
  return email.normalize('NFKC').toLowerCase().normalize('NFKC').trim();
}

/** class-transformer form: normalises strings, leaves anything else for the validators to reject. */
export const toNormalizedEmail = ({ value }: TransformFnParams) => (typeof value === 'string' ? normalizeEmail(value) : value);
