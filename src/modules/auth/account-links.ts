import { AppConfig } from '../../config/app-config';
import { resolveCallbackUrl } from '../oauth/oauth-urls';

/** Lifetime of an email verification token. */
export const VERIFY_EMAIL_TTL_MS = 24 * 3600 * 1000;
/** Lifetime of a password reset token. */
export const RESET_PASSWORD_TTL_MS = 3600 * 1000;

/** The 400 message of a callbackURL / redirectTo outside the allowed origins. */
export const originRule = (field: string) => `${field} must be on the origin of CLIENT_URL or PUBLIC_API_URL`;

/**
 * Where an account email's link may send the browser: an absolute URL or a path on CLIENT_URL,
 * on the origin of CLIENT_URL or PUBLIC_API_URL (the rule of the OAuth callbackURL,
 * docs/decisions-local.md); null when it is anywhere else.
 */
export function allowedRedirect(value: string, config: Pick<AppConfig, 'clientUrl' | 'publicApiUrl'>): string | null {
  return resolveCallbackUrl(value, config.clientUrl, [new URL(config.clientUrl).origin, new URL(config.publicApiUrl).origin]);
}

/** `${PUBLIC_API_URL}/api/auth/verify-email?token=…` (plus `&callbackURL=…` when given). */
export function verifyEmailLink(config: Pick<AppConfig, 'publicApiUrl'>, token: string, callbackURL: string | null): string {
  const u = new URL(`${config.publicApiUrl}/api/auth/verify-email`);
  u.searchParams.set('token', token);
  if (callbackURL) u.searchParams.set('callbackURL', callbackURL);
  return u.toString();
}

/** `<redirectTo or ${CLIENT_URL}/reset-password>?token=…` (a query the page already had is kept). */
export function resetPasswordLink(config: Pick<AppConfig, 'clientUrl'>, token: string, redirectTo: string | null): string {
  const u = new URL(redirectTo ?? `${config.clientUrl}/reset-password`);
  u.searchParams.set('token', token);
  return u.toString();
}
