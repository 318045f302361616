import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { ApiPublic } from '../http/api-errors';

export const IS_PUBLIC = 'tandem:public';
/** The route answers without credentials (and the OpenAPI document says so). */
export const Public = () => applyDecorators(SetMetadata(IS_PUBLIC, true), ApiPublic());

export const SIGNED_OUT_NULL = 'tandem:signed-out-null';
/**
 * The route answers JSON `null` to a caller that is signed out: one that sends no credential at
 * all, or only a browser session cookie whose session has ended (the cookie is then cleared). A
 * bearer token or API key that is not valid is still 401. For `GET /auth/get-session`, so that a
 * signed-out visit to the web app makes no failing request (docs/decisions-local.md, "get-session signed out").
 */
export const AnswersNullSignedOut = () => applyDecorators(SetMetadata(SIGNED_OUT_NULL, true), ApiExtension('x-signed-out', 'null'));

export const SIGNED_OUT_ALLOWED = 'tandem:signed-out-allowed';
/**
 * The route also answers a signed-out caller (treated as @AnswersNullSignedOut treats one, but
 * reaching the handler with no user): the handler decides, as `GET /asset/:id` does for a public
 * project's files. A credential that is sent must still be valid.
 */
export const AllowsSignedOut = () => applyDecorators(SetMetadata(SIGNED_OUT_ALLOWED, true), ApiExtension('x-signed-out', 'allowed'));
