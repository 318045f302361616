import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';

/** Turns a validation/HTTP exception's payload into the one sentence the client sees. */
export function messageOf(exception: HttpException): string {
  const body = exception.getResponse();
  if (typeof body === 'string') return body;
  const m = (body as any)?.message ?? (body as any)?.error;
  if (Array.isArray(m)) return m.map(String).join(', ');
  if (typeof m === 'string' && m) return m;
  return exception.message || 'Error';
}

/**
 * The one error path (docs/decisions-local.md, "Errors and conventions"): every error body is exactly {message}
 * (routes marked with @ErrorBodyKey('error') answer {error} instead); 5xx never leak internals
 * and are logged with the request id.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  /** For a request that has no logger of its own (the request logger did not run). */
  private readonly logger = new Logger(AllExceptionsFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const ctx = host.switchToHttp();
    const res = ctx.getResponse<Response>();
    const req = ctx.getRequest<Request & { log?: any; id?: string; errorBodyKey?: string }>();
    let status: number;
    let message: string;
    if (exception instanceof HttpException) {
      status = exception.getStatus();
      message = status >= 500 && status !== 503 ? 'Internal server error' : messageOf(exception);
      if (status === HttpStatus.TOO_MANY_REQUESTS) {
        const retry = (exception.getResponse() as any)?.retryAfter;
        if (retry) res.setHeader('Retry-After', String(retry));
      }
    } else {
      status = 500;
      message = 'Internal server error';
    }
    if (status >= 500) {
      const log = req.log;
      if (log) log.error({ err: exception, reqId: req.id }, 'request failed');
      else this.logger.error(`[${req.id ?? '-'}] request failed`, (exception as Error)?.stack ?? String(exception));
    }
    if (res.headersSent) return;
    const key = req.errorBodyKey ?? 'message';
    res.status(status).json({ [key]: message });
  }
}
