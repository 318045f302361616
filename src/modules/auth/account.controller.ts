import { Body, Controller, Get, HttpCode, Inject, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AuthUser, CurrentUser } from '../../common/decorators/current-user.decorator';
import { Public } from '../../common/decorators/public.decorator';
import { ApiAnswer, ApiErrors } from '../../common/http/api-errors';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { RateLimitService } from '../../redis/rate-limit.service';
import { AccountService } from './account.service';
import {
  ChangePasswordDto,
  DeleteUserDto,
  RequestPasswordResetDto,
  ResetPasswordDto,
  RevokeSessionDto,
  SendVerificationEmailDto,
  UpdateUserDto,
  VerifyEmailQuery,
} from './dto/account.dto';
import { StatusAnswer, SuccessAnswer } from '../../common/http/answers.schema';
import { SessionListItemSchema, SignInAnswerSchema, VerifyEmailAnswerSchema } from '../auth/auth.schema';

/** The bearer token the request came with (the session token, for a session caller). */
const bearer = (req: Request) => /^Bearer\s+(\S+)\s*$/i.exec(req.get('authorization') ?? '')?.[1] ?? null;

/** Account upkeep (docs/accounts.md): verification, password reset and change, sessions. */
@ApiTags('auth')
@Controller('auth')
export class AccountController {
  constructor(
    private readonly account: AccountService,
    private readonly rateLimit: RateLimitService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Public()
  @Post('send-verification-email')
  @ApiAnswer('{status: true}, whether or not the email is known', StatusAnswer)
  @HttpCode(200)
  @ApiOperation({
    summary: 'Email a verification link to an unverified account (sent by the worker); the answer never says whether the address is known; rate limited per client address',
  })
  @ApiErrors([400, 'email must be a valid email address', 'callbackURL must be on the origin of CLIENT_URL or PUBLIC_API_URL'], [429, 'Too many requests'])
  async sendVerificationEmail(@Body() dto: SendVerificationEmailDto, @Req() req: Request) {
    await this.rateLimit.hit(`auth:${req.ip}`, this.config.rateLimits.auth);
    return this.account.sendVerificationEmail(dto);
  }

  @Public()
  @Get('verify-email')
  @ApiAnswer('{status: true, user}, or 302 to callbackURL', VerifyEmailAnswerSchema)
  @ApiOperation({ summary: 'The link of the verification email: marks the email verified (the token works once, for 24 h)' })
  @ApiErrors([400, 'Invalid or expired token', 'callbackURL must be on the origin of CLIENT_URL or PUBLIC_API_URL'], [429, 'Too many requests'])
  async verifyEmail(@Query() query: VerifyEmailQuery, @Req() req: Request, @Res() res: Response) {
    // Token guesses count per client address with sign-in (docs/accounts.md, "Tokens").
    await this.rateLimit.hit(`auth:${req.ip}`, this.config.rateLimits.auth);
    const out = await this.account.verifyEmail(query);
    res.setHeader('cache-control', 'no-store');
    if (out.redirectTo) return res.redirect(302, out.redirectTo);
    res.status(200).json({ status: out.status, user: out.user });
  }

  @Public()
  @Post('request-password-reset')
  @ApiAnswer('{status: true}, whether or not the email is known', StatusAnswer)
  @HttpCode(200)
  @ApiOperation({ summary: 'Email a password reset link (sent by the worker); the answer never says whether the address is known; rate limited per client address' })
  @ApiErrors([400, 'email must be a valid email address', 'redirectTo must be on the origin of CLIENT_URL or PUBLIC_API_URL'], [429, 'Too many requests'])
  async requestPasswordReset(@Body() dto: RequestPasswordResetDto, @Req() req: Request) {
    await this.rateLimit.hit(`auth:${req.ip}`, this.config.rateLimits.auth);
    return this.account.requestPasswordReset(dto);
  }

  @Public()
  @Post('reset-password')
  @ApiAnswer('{status: true}', StatusAnswer)
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Set a new password with the reset link's token (works once, for 1 h); every session, API key and linked sign-in identity of the user ends, and the address's failed sign-in lock with them",
  })
  @ApiErrors([400, 'Invalid or expired token', 'newPassword must be at least 8 characters'], [429, 'Too many requests'])
  async resetPassword(@Body() dto: ResetPasswordDto, @Req() req: Request) {
    // Token guesses count per client address with sign-in (docs/accounts.md, "Tokens").
    await this.rateLimit.hit(`auth:${req.ip}`, this.config.rateLimits.auth);
    const { email } = await this.account.resetPassword(dto);
    // The emailed link proved the address: earlier failed sign-ins no longer lock it (docs/accounts.md, "Failed sign-ins").
    await this.rateLimit.clearAccount(email);
    return { status: true as const };
  }

  @ApiBearerAuth()
  @Post('change-password')
  @ApiAnswer('{token, user}', SignInAnswerSchema)
  @HttpCode(200)
  @ApiOperation({
    summary: "Change the caller's password; every other session is revoked unless revokeOtherSessions is false (the calling one stays); counted by the sign-in rate limit",
  })
  @ApiErrors([400, 'Invalid password', 'newPassword must be at least 8 characters'], [403, 'Insufficient API key scope'])
  async changePassword(@CurrentUser() user: AuthUser, @Body() dto: ChangePasswordDto, @Req() req: Request) {
    await this.rateLimit.hit(`auth:${req.ip}`, this.config.rateLimits.auth);
    return this.account.changePassword(user, dto, bearer(req));
  }

  @ApiBearerAuth()
  @Get('list-sessions')
  @ApiAnswer('Session list item[] (newest first)', [SessionListItemSchema])
  @ApiOperation({ summary: "The caller's live sessions, with the client address and user agent of their sign-in" })
  @ApiErrors([403, 'Insufficient API key scope'])
  listSessions(@CurrentUser() user: AuthUser) {
    return this.account.listSessions(user);
  }

  @ApiBearerAuth()
  @Post('revoke-session')
  @ApiAnswer('{status: true}', StatusAnswer)
  @HttpCode(200)
  @ApiOperation({ summary: "Revoke one of the caller's live sessions; its token stops working at once" })
  @ApiErrors([403, 'Insufficient API key scope'], [404, 'Session not found'])
  revokeSession(@CurrentUser() user: AuthUser, @Body() dto: RevokeSessionDto) {
    return this.account.revokeSession(user, dto.id);
  }

  @ApiBearerAuth()
  @Post('revoke-other-sessions')
  @ApiAnswer('{status: true}', StatusAnswer)
  @HttpCode(200)
  @ApiOperation({ summary: 'Revoke every session of the caller but the calling one (all of them when called with an API key)' })
  @ApiErrors([403, 'Insufficient API key scope'])
  revokeOtherSessions(@CurrentUser() user: AuthUser) {
    return this.account.revokeOtherSessions(user);
  }

  @ApiBearerAuth()
  @Post('update-user')
  @ApiAnswer('{status: true}', StatusAnswer)
  @HttpCode(200)
  @ApiOperation({ summary: "Change the caller's name and/or avatar image (null removes the image)" })
  @ApiErrors([400, 'name must be longer than or equal to 1 characters', 'image must be an http(s) URL'], [403, 'Insufficient API key scope'])
  updateUser(@CurrentUser() user: AuthUser, @Body() dto: UpdateUserDto) {
    return this.account.updateUser(user, dto);
  }

  @ApiBearerAuth()
  @Post('delete-user')
  @ApiAnswer('{success: true}', SuccessAnswer)
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Delete the caller's account (password required; counted by the sign-in rate limit): workspaces where they are the only member go too; sessions, API keys and memberships go; tasks stay unassigned, comments stay without an author",
  })
  @ApiErrors([400, 'Invalid password', 'Transfer ownership or delete the workspace first'], [403, 'Insufficient API key scope'])
  async deleteUser(@CurrentUser() user: AuthUser, @Body() dto: DeleteUserDto, @Req() req: Request) {
    await this.rateLimit.hit(`auth:${req.ip}`, this.config.rateLimits.auth);
    return this.account.deleteUser(user, dto);
  }
}
