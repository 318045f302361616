import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';

/** What `GET /config` answers (docs/compatibility.md, "GET /config"). */
export interface ClientConfigRecord {
  disableRegistration: boolean;
  requireEmailVerification: boolean;
  hasSmtp: boolean;
  hasCustomOAuth: boolean;
  /** Every signed-in user may create workspaces here. */
  disableWorkspaceCreation: false;
  /** There is no demo mode. */
  isDemoMode: false;
  version: string;
}

/** The service's version: `version` of the package.json beside `src`/`dist` (also in the Docker image). */
function packageVersion(): string {
  try {
    return String(JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')).version);
  } catch {
    return 'unknown';
  }
}

/**
 * The settings a client needs before anyone signs in (whether to offer sign-up, OAuth, password
 * reset by email), from the service's own configuration. Nothing secret: flags and the version.
 */
@Injectable()
export class ClientConfigService {
  private readonly record: ClientConfigRecord;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.record = Object.freeze({
      disableRegistration: config.disableRegistration,
      requireEmailVerification: config.requireEmailVerification,
      hasSmtp: Boolean(config.smtp.host),
      hasCustomOAuth: Boolean(config.customOAuth.issuer && config.customOAuth.clientId && config.customOAuth.clientSecret),
      disableWorkspaceCreation: false,
      isDemoMode: false,
      version: packageVersion(),
    });
  }

  get(): ClientConfigRecord {
    return this.record;
  }
}
