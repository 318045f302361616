import { SetMetadata } from '@nestjs/common';

export const ERROR_KEY_METADATA = 'tandem:error-body-key';
/** Routes whose error body uses another key than `message` (the hostedgit PATCH answers `{error}`). */
export const ErrorBodyKey = (key: 'message' | 'error') => SetMetadata(ERROR_KEY_METADATA, key);
