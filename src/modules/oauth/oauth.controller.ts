import { Body, Controller, Get, Headers, HttpCode, Inject, Post, Query, Redirect, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { AuthUser, CurrentUser } from '../../common/decorators/current-user.decorator';
import { Public } from '../../common/decorators/public.decorator';
import { RateLimitService } from '../../redis/rate-limit.service';
import { UnlinkAccountDto } from './dto/unlink-account.dto';
import { sessionCookieFor } from '../auth/auth.service';
import { OAuthService } from './oauth.service';
import { ApiAnswer } from '../../common/http/api-errors';
import { SuccessAnswer } from '../../common/http/answers.schema';
import { SignInAnswerSchema } from '../auth/auth.schema';
import { IdTokenAnswerSchema, LinkedAccountSchema } from '../oauth/oauth.schema';

@ApiTags('oauth')
@Controller()
export class OAuthController {
  constructor(
    private readonly oauth: OAuthService,
    private readonly rateLimit: RateLimitService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Public()
  @Get('auth/oauth2/authorize/custom')
  @ApiAnswer('302 to the provider')
  @Redirect()
  @ApiOperation({
    summary: 'Redirect (302) to the custom OpenID provider; with a session token, links the provider account to that user',
    description: 'Sets an HttpOnly cookie that ties the flow to this browser; the callback is refused without it.',
  })
  @ApiQuery({ name: 'callbackURL', required: false, description: 'Where to send the browser with #token=… (origin of CLIENT_URL or PUBLIC_API_URL)' })
  async authorize(@Query('callbackURL') callbackURL: unknown, @Headers('authorization') authorization: unknown, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    await this.rateLimit.hit(`auth:${req.ip}`, this.config.rateLimits.auth);
    const { url, setCookie } = await this.oauth.authorize(callbackURL, authorization);
    res.append('set-cookie', setCookie);
    res.setHeader('cache-control', 'no-store');
    return { url, statusCode: 302 };
  }

  @Public()
  @Get('auth/oauth2/callback/custom')
  @ApiAnswer('Sign-in answer, or 302 to callbackURL#token=…', SignInAnswerSchema)
  @ApiOperation({ summary: "The provider's redirect: answers {token, user}, or 302 to callbackURL#token=…" })
  async callback(@Query() query: Record<string, unknown>, @Req() req: Request, @Res() res: Response) {
    // The flow's browser cookie has done its job whatever the outcome.
    if (typeof query.state === 'string' && query.state.length <= 128) res.append('set-cookie', this.oauth.bindingCookie(query.state, null));
    const out = await this.oauth.callback(query, { ip: req.ip ?? null, userAgent: req.get('user-agent') ?? null }, req.get('cookie'));
    res.setHeader('set-auth-token', out.token);
    // The new session is the browser's too (SECURITY.md, "Browser sessions").
    res.append('set-cookie', sessionCookieFor(this.config, out.token));
    res.setHeader('cache-control', 'no-store');
    if (out.redirectTo) return res.redirect(302, out.redirectTo);
    res.status(200).json({ token: out.token, user: out.user });
  }

  @ApiBearerAuth()
  @Get('auth/list-accounts')
  @ApiAnswer('Linked account[]', [LinkedAccountSchema])
  @ApiOperation({ summary: "The caller's linked provider accounts (no tokens)" })
  listAccounts(@CurrentUser() user: AuthUser) {
    return this.oauth.listAccounts(user);
  }

  @ApiBearerAuth()
  @Post('auth/unlink-account')
  @ApiAnswer('{success: true}', SuccessAnswer)
  @HttpCode(200)
  @ApiOperation({ summary: "Unlinks the caller's account at a provider; refused when it is the only way to sign in" })
  unlinkAccount(@CurrentUser() user: AuthUser, @Body() dto: UnlinkAccountDto) {
    return this.oauth.unlinkAccount(user, dto.providerId);
  }

  @ApiBearerAuth()
  @Get('oauth/id-token')
  @ApiAnswer('{idToken: string | null}', IdTokenAnswerSchema)
  @ApiOperation({ summary: "The id token of the caller's custom OAuth account (refreshed when expired), or null" })
  idToken(@CurrentUser() user: AuthUser) {
    return this.oauth.idToken(user);
  }
}
