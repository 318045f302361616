import { Body, Controller, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { AuthUser, CurrentUser } from '../../common/decorators/current-user.decorator';
import { ApiKeyScopeCheckedByHandler } from '../../common/decorators/api-key-scope.decorator';
import { AnswersNullSignedOut, Public } from '../../common/decorators/public.decorator';
import { AnswersJsonNull } from '../../common/http/json-null';
import { RateLimitService } from '../../redis/rate-limit.service';
import { AuthService, secureCookies, sessionCookieFor } from './auth.service';
import { clearedSessionCookie } from '../../common/http/cookies';
import { CreateApiKeyDto, DeleteApiKeyDto, SignInDto, SignUpDto } from './dto/auth.dto';
import { ApiAnswer, ApiErrors } from '../../common/http/api-errors';
import { SuccessAnswer } from '../../common/http/answers.schema';
import { ApiKeyRecordSchema, CreatedApiKeySchema, SessionAnswerSchema, SignInAnswerSchema } from '../auth/auth.schema';

const client = (req: Request) => ({ ip: req.ip ?? null, userAgent: req.get('user-agent') ?? null });

@ApiTags('auth')
@Controller('auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly rateLimit: RateLimitService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Public()
  @Post('sign-up/email')
  @ApiAnswer('Sign-in answer', SignInAnswerSchema)
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create an account; answers a bearer token (null with REQUIRE_EMAIL_VERIFICATION: verify, then sign in); emails a verification link when SMTP is configured',
  })
  @ApiErrors(
    [400, 'callbackURL must be on the origin of CLIENT_URL or PUBLIC_API_URL'],
    [403, 'Registration is disabled'],
    [409, 'User already exists'],
    [429, 'Too many requests'],
  )
  async signUp(@Body() dto: SignUpDto, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    await this.rateLimit.hit(`auth:${req.ip}`, this.config.rateLimits.auth);
    const out = await this.auth.signUp(dto, client(req));
    if (out.token) {
      res.setHeader('set-auth-token', out.token);
      res.append('set-cookie', sessionCookieFor(this.config, out.token));
    }
    return out;
  }

  @Public()
  @Post('sign-in/email')
  @ApiAnswer('Sign-in answer', SignInAnswerSchema)
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Sign in with email and password; answers a bearer token (403 Email not verified with REQUIRE_EMAIL_VERIFICATION); rate limited per client address, and per email address after repeated failures',
  })
  @ApiErrors([401, 'Invalid email or password'], [403, 'Email not verified'], [429, 'Too many requests'])
  async signIn(@Body() dto: SignInDto, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    await this.rateLimit.hit(`auth:${req.ip}`, this.config.rateLimits.auth);
    // Failed sign-ins of one email address lock it for a while (docs/decisions-local.md, "Rate limits").
    const out = await this.rateLimit.accountAttempt(dto.email, this.config.rateLimits.signInFailures, () => this.auth.signIn(dto, client(req)));
    res.setHeader('set-auth-token', out.token);
    res.append('set-cookie', sessionCookieFor(this.config, out.token));
    return out;
  }

  @ApiBearerAuth()
  @Post('sign-out')
  @ApiAnswer('{success: true}', SuccessAnswer)
  @HttpCode(200)
  async signOut(@CurrentUser() user: AuthUser, @Res({ passthrough: true }) res: Response) {
    const out = await this.auth.signOut(user);
    res.append('set-cookie', clearedSessionCookie(secureCookies(this.config)));
    return out;
  }

  @ApiBearerAuth()
  @Get('get-session')
  @AnswersNullSignedOut()
  @AnswersJsonNull()
  @ApiAnswer('Session answer, or null when signed out (no credential, or a session cookie whose session ended)', SessionAnswerSchema, { nullable: true })
  getSession(@CurrentUser() user: AuthUser | null) {
    return user ? this.auth.getSession(user) : null;
  }

  @ApiBearerAuth()
  @Post('api-key/create')
  @ApiAnswer('API key, with `key` (shown only here)', CreatedApiKeySchema)
  @ApiKeyScopeCheckedByHandler()
  @HttpCode(200)
  createApiKey(@CurrentUser() user: AuthUser, @Body() dto: CreateApiKeyDto) {
    return this.auth.createApiKey(user, dto);
  }

  @ApiBearerAuth()
  @Get('api-key/list')
  @ApiAnswer('API key[] (newest first, without `key`)', [ApiKeyRecordSchema])
  listApiKeys(@CurrentUser() user: AuthUser) {
    return this.auth.listApiKeys(user);
  }

  @ApiBearerAuth()
  @Post('api-key/delete')
  @ApiAnswer('{success: true}', SuccessAnswer)
  @ApiKeyScopeCheckedByHandler()
  @HttpCode(200)
  deleteApiKey(@CurrentUser() user: AuthUser, @Body() dto: DeleteApiKeyDto) {
    return this.auth.deleteApiKey(user, dto.keyId);
  }
}
