import { BadRequestException, ValidationError, ValidationPipe } from '@nestjs/common';

function flatten(errors: ValidationError[], parent = ''): string[] {
  const out: string[] = [];
  for (const e of errors) {
    const path = parent ? `${parent}.${e.property}` : e.property;
    if (e.constraints) {
      for (const msg of Object.values(e.constraints)) {
        // class-validator writes the bare property name; show the full path for nested fields.
        out.push(parent && msg.startsWith(e.property) ? `${parent}.${msg}` : msg);
      }
    }
    if (e.children?.length) out.push(...flatten(e.children, path));
  }
  return out;
}

/** The message of a failed validation: every constraint's message, joined (as the pipeline answers it). */
export const validationMessage = (errors: ValidationError[]): string => flatten(errors).join(', ') || 'Invalid request';

/** The production validation pipeline (docs/decisions-local.md, "Errors and conventions"): unknown fields are rejected, messages joined. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    stopAtFirstError: false,
    exceptionFactory: (errors) => new BadRequestException(validationMessage(errors)),
  });
}
