import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';

export const ERROR_KEY_METADATA = 'tandem:error-body-key';
/**
 * Routes whose error body uses another key than `message` (the hostedgit PATCH and the inbound
 * git-host webhooks answer `{error}`); the OpenAPI document shows their errors with that key.
 */
export const ErrorBodyKey = (key: 'message' | 'error') => applyDecorators(SetMetadata(ERROR_KEY_METADATA, key), ApiExtension('x-error-key', key));
