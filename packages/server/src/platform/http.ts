import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from './errors.js';

/**
 * One global error handler: AppErrors answer as themselves, framework errors are mapped onto the
 * contract's codes, and anything unexpected is logged and answered as UnknownError without a stack.
 */
export function toAppError(err: FastifyError | Error): AppError {
  if (err instanceof AppError) return err;
  const fe = err as FastifyError;
  if (hasZodFastifySchemaValidationErrors(fe)) {
    const issues = fe.validation.map((v) => ({
      path: `${fe.validationContext ?? 'body'}${v.instancePath.replace(/\//g, '.')}`,
      message: v.message ?? 'invalid',
    }));
    return new AppError('ValidationError', 'The request is not valid', { issues });
  }
  switch (fe.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PayloadTooLarge', 'The request body is too large');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('InvalidJson', 'The request body is not valid JSON');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('UnsupportedMediaType', 'Unsupported content type');
  }
  // A unique index refused a concurrent duplicate (PostgreSQL and PGlite; drizzle wraps it as cause).
  const pgCode = (fe as { code?: unknown }).code ?? (fe as { cause?: { code?: unknown } }).cause?.code;
  if (pgCode === '23505') return new AppError('Conflict', 'An item with this name already exists');
  if (pgCode === '23503') return new AppError('ValidationError', 'A referenced item does not exist');
  if (fe instanceof SyntaxError && fe.statusCode === 400) {
    return new AppError('InvalidJson', 'The request body is not valid JSON');
  }
  if (fe.statusCode === 413) return new AppError('PayloadTooLarge', 'The request body is too large');
  if (fe.statusCode === 415) return new AppError('UnsupportedMediaType', 'Unsupported content type');
  if (fe.statusCode === 429) return new AppError('TooManyRequests', 'Too many requests');
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    return new AppError('ValidationError', 'The request is not valid');
  }
  return new AppError('UnknownError', 'Unknown error');
}

export function errorHandler(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const appError = toAppError(err);
  if (appError.status >= 500) request.log.error({ err }, 'request failed');
  else request.log.info({ code: appError.code }, 'request refused');
  // A throttled or locked-out call says when to come back (429 TooManyRequests, 423 LoginLocked).
  const retryAfter = (appError.details as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
  if (typeof retryAfter === 'number' && retryAfter > 0) void reply.header('retry-after', String(Math.ceil(retryAfter)));
  void reply.status(appError.status).header('cache-control', 'no-store').send(appError.toBody());
}

export function apiNotFound(request: FastifyRequest, reply: FastifyReply): void {
  void reply
    .status(404)
    .send(new AppError('NotFound', `No API call ${request.method} ${request.url.split('?')[0]}`).toBody());
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(errorHandler);
}
