import type { AppConfig } from '../config/app-config';
import { databaseName } from '../database/migrate';

/**
 * The start-up log at the default level (README, "Run it"): one line per server in use with its
 * origin (src/startup/local-services.ts), one for migrations, one warning per unsafe setting in
 * force, one "Tandem started" line. Nest's own boot lines (modules, routes) are at debug
 * (src/common/http/logging.ts).
 */

/** The migrations line: how many were applied by this start (or "schema up to date"), and whether the database was created. */
export function migrationsLine(databaseUrl: string, migrations: { databaseCreated: boolean; applied: string[] }): string {
  const { databaseCreated, applied } = migrations;
  const created = databaseCreated ? `database ${databaseName(databaseUrl)} created; ` : '';
  const done = applied.length ? `${applied.length} migration${applied.length === 1 ? '' : 's'} applied (last: ${applied[applied.length - 1]})` : 'schema up to date';
  return `Migrations: ${created}${done}`;
}

/**
 * Settings in force that weaken a defence, one warning each. The generated development secrets
 * are warned of by main (src/config/dev-secrets.ts). Not warned of: defaults that are choices
 * rather than weakened defences (open registration, REQUIRE_EMAIL_VERIFICATION=false).
 */
export function unsafeSettings(config: AppConfig): string[] {
  const warnings: string[] = [];
  if (config.allowPrivateDestinations) {
    warnings.push('ALLOW_PRIVATE_DESTINATIONS=true: webhooks, chat and push deliveries may reach private and loopback addresses (development and tests only)');
  }
  if (config.corsOrigins === '*') warnings.push('CORS_ORIGINS=*: any web origin may call the API from a browser (without credentials)');
  const limits: [string, number, string][] = [
    ['RATE_LIMIT_AUTH', config.rateLimits.auth, 'sign-up and sign-in requests are not rate-limited'],
    ['RATE_LIMIT_INVITES', config.rateLimits.invites, 'invitations are not rate-limited'],
    ['RATE_LIMIT_API', config.rateLimits.api, 'API requests are not rate-limited'],
    ['RATE_LIMIT_SIGN_IN_FAILURES', config.rateLimits.signInFailures, 'failed password sign-ins never lock an address'],
  ];
  for (const [name, value, effect] of limits) if (value === 0) warnings.push(`${name}=0: ${effect}`);
  return warnings;
}

/** The last start-up line, e.g. `Tandem started (api,worker) on port 3000: http://0.0.0.0:3000/api`. */
export function startedLine(roles: readonly string[], listening: string | undefined): string {
  if (!listening) return `Tandem started (${roles.join(',')})`;
  return `Tandem started (${roles.join(',')}) on port ${new URL(listening).port || '80'}: ${listening}/api`;
}
