import { SetMetadata } from '@nestjs/common';

export const UNSCOPED_KEY_ONLY = 'tandem:unscoped-key-only';
/**
 * A route whose action is outside the permission table (creating a workspace, joining one): an API
 * key limited by `permissions` cannot do it, since such a key can do no more than its scopes say.
 */
export const UnscopedKeyOnly = () => SetMetadata(UNSCOPED_KEY_ONLY, true);
