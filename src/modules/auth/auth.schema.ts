import { ApiExtraModels, ApiProperty, ApiSchema } from '@nestjs/swagger';
import { StatusAnswer } from '../../common/http/answers.schema';
import { FlagProp, IdProp, NullableRefProp, PermissionMapProp, TextProp, TimeProp } from '../../common/http/schema-props';

/** The OpenAPI schema of the User record (UserRecord; docs/records.md, "User"). */
@ApiSchema({ name: 'User' })
export class UserRecordSchema {
  @IdProp() id: string;
  @TextProp() name: string;
  @TextProp({ description: 'normalised (NFKC, lower case)' }) email: string;
  @FlagProp() emailVerified: boolean;
  @TextProp({ nullable: true, description: 'an http(s) URL' }) image: string | null;
  @TimeProp() createdAt: string;
  @TimeProp() updatedAt: string;
}

/** Sign-in answer (sign-up, sign-in, OAuth callback) and change-password answer: `{token, user}`. */
@ApiSchema({ name: 'SignInAnswer' })
export class SignInAnswerSchema {
  @TextProp({ nullable: true, description: 'the bearer token; null after sign-up with REQUIRE_EMAIL_VERIFICATION, and for change-password with an API key' })
  token: string | null;

  @ApiProperty({ type: UserRecordSchema }) user: UserRecordSchema;
}

/** A session as get-session answers it (toSessionRecord). */
@ApiSchema({ name: 'Session' })
export class SessionRecordSchema {
  @IdProp() id: string;
  @IdProp() userId: string;
  @TimeProp() expiresAt: string;
  @IdProp({ nullable: true }) activeOrganizationId: string | null;
}

/** Session answer (`GET /auth/get-session`). */
@ApiSchema({ name: 'SessionAnswer' })
@ApiExtraModels(SessionRecordSchema)
export class SessionAnswerSchema {
  @NullableRefProp(SessionRecordSchema, { description: 'null when the caller is an API key' }) session: SessionRecordSchema | null;
  @ApiProperty({ type: UserRecordSchema }) user: UserRecordSchema;
}

/** Session list item (`GET /auth/list-sessions`; toSessionListItem). */
@ApiSchema({ name: 'SessionListItem' })
export class SessionListItemSchema {
  @IdProp() id: string;
  @TimeProp() createdAt: string;
  @TimeProp() expiresAt: string;
  @TextProp({ nullable: true }) ipAddress: string | null;
  @TextProp({ nullable: true }) userAgent: string | null;
  @FlagProp({ description: 'the session of the request' }) current: boolean;
}

/** API key (toApiKeyRecord): never the key's hash. */
@ApiSchema({ name: 'ApiKey' })
export class ApiKeyRecordSchema {
  @IdProp() id: string;
  @TextProp({ nullable: true }) name: string | null;
  @TextProp({ description: "the key's first 10 characters" }) start: string;
  @PermissionMapProp({ nullable: true, description: '`{resource: [actions]}`; null: no limit' }) permissions: Record<string, string[]> | null;
  @IdProp({ nullable: true }) parentKeyId: string | null;
  @TimeProp() createdAt: string;
  @TimeProp({ nullable: true }) expiresAt: string | null;
}

/** The answer of `POST /auth/api-key/create`: the API key with `key`, the secret, shown only here. */
@ApiSchema({ name: 'CreatedApiKey' })
export class CreatedApiKeySchema extends ApiKeyRecordSchema {
  @TextProp() key: string;
}

/** verify-email's answer `{status: true, user}`. */
@ApiSchema({ name: 'VerifyEmailAnswer' })
export class VerifyEmailAnswerSchema extends StatusAnswer {
  @ApiProperty({ type: UserRecordSchema }) user: UserRecordSchema;
}
