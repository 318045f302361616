import { createParamDecorator, ExecutionContext } from '@nestjs/common';

export interface ApiKeyPrincipal {
  id: string;
  /** null = the key may do everything its user may do. */
  permissions: Record<string, string[]> | null;
  /** null = the key never expires. */
  expiresAt: Date | null;
}

/** Who is calling: set by the authentication guard. */
export interface AuthUser {
  id: string;
  name: string;
  email: string;
  isInstanceAdmin: boolean;
  /** Present for session (JWT) callers. */
  sessionId?: string;
  activeOrganizationId?: string | null;
  /** Present for API-key callers. */
  apiKey?: ApiKeyPrincipal;
}

export const CurrentUser = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthUser => {
  return ctx.switchToHttp().getRequest().user;
});
