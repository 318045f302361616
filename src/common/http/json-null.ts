import { CallHandler, ExecutionContext, Injectable, NestInterceptor, UseInterceptors } from '@nestjs/common';
import type { Response } from 'express';
import { map, Observable } from 'rxjs';

/**
 * Nest answers a handler's `null` with an empty body; a route whose answer may be "nothing"
 * (e.g. a project's integration that does not exist) must answer the JSON text `null` instead.
 */
@Injectable()
export class JsonNullInterceptor implements NestInterceptor {
  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      map((value) => {
        if (value !== null) return value;
        ctx.switchToHttp().getResponse<Response>().type('application/json');
        return 'null';
      }),
    );
  }
}

/** The route answers JSON `null` (HTTP 200) when its handler returns null. */
export const AnswersJsonNull = () => UseInterceptors(JsonNullInterceptor);
