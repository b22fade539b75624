import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { stdSerializers } from 'pino';
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
  const pgCode = databaseErrorOf(fe)?.code;
  if (pgCode === '23505') return new AppError('Conflict', 'An item with this name already exists');
  if (pgCode === '23503') return new AppError('ValidationError', 'A referenced item does not exist');
  // A value the database cannot take (class 22, data exception): bad input, never a server fault.
  if (pgCode?.startsWith('22')) {
    return new AppError('ValidationError', 'A value in the request is not valid');
  }
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
  if (appError.status >= 500) request.log.error({ err: loggableError(err) }, 'request failed');
  else if (databaseErrorOf(err)?.code.startsWith('22')) {
    // A value the database refused: a client's fault, but a validation the API may lack.
    request.log.warn({ err: loggableError(err) }, 'request refused by the database');
  } else request.log.info({ code: appError.code }, 'request refused');
  // A throttled or locked-out call says when to come back (429 TooManyRequests, 423 LoginLocked).
  const retryAfter = (appError.details as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
  if (typeof retryAfter === 'number' && retryAfter > 0) void reply.header('retry-after', String(Math.ceil(retryAfter)));
  void reply.status(appError.status).header('cache-control', 'no-store').send(appError.toBody());
}

interface DatabaseErrorLike {
  code: string;
  message: string;
  [field: string]: unknown;
}

/** The PostgreSQL (or PGlite) error in err or its causes (drizzle wraps it as cause). */
export function databaseErrorOf(err: unknown): DatabaseErrorLike | null {
  let e = err as Record<string, unknown> | null | undefined;
  for (let depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) && ('severity' in e || 'routine' in e)) {
      return e as unknown as DatabaseErrorLike;
    }
    e = e.cause as Record<string, unknown> | null | undefined;
  }
  return null;
}

/** Quoted text in a database message ("…" or '…') is where it repeats values: left out. */
function redactQuoted(message: string): string {
  return message
    .replace(/"(?:[^"\\]|\\.)*"?/g, '"…"')
    .replace(/'(?:[^'\\]|\\.)*'?/g, "'…'")
    .slice(0, 300);
}

/**
 * What the log keeps of an error. A database error's message, detail, where-context and the
 * query's parameters can all repeat the values sent (patient names, report text): it is logged by
 * its SQLSTATE, the schema names it involves (table, column, constraint), a message with quoted
 * values left out, and the stack frames (without their message line). Other errors as they are.
 */
export function loggableError(err: unknown): unknown {
  const db = databaseErrorOf(err);
  if (!db) return err;
  const names: Record<string, string> = {};
  for (const field of ['table', 'column', 'constraint', 'dataType', 'routine'] as const) {
    if (typeof db[field] === 'string') names[field] = db[field];
  }
  const stack = err instanceof Error && typeof err.stack === 'string' ? err.stack : '';
  return {
    type: 'DatabaseError',
    code: db.code,
    message: redactQuoted(typeof db.message === 'string' ? db.message : ''),
    ...names,
    stack: stack
      .split('\n')
      .filter((line) => /^\s+at /.test(line))
      .join('\n'),
  };
}

/** pino's `err` serializer with database errors redacted (loggableError): for every logger. */
export function errorSerializer(err: unknown): unknown {
  const safe = loggableError(err);
  return safe === err && err instanceof Error ? stdSerializers.err(err) : safe;
}

export function apiNotFound(request: FastifyRequest, reply: FastifyReply): void {
  void reply
    .status(404)
    .send(new AppError('NotFound', `No API call ${request.method} ${request.url.split('?')[0]}`).toBody());
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(errorHandler);
}

/** Any character PostgreSQL cannot take in text or jsonb: U+0000, or half a surrogate pair. */
const SUSPECT = /[\0\ud800-\udfff]/;
const UNSTORABLE = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** False for text PostgreSQL refuses (U+0000 in text, an unpaired surrogate's escape in jsonb). */
export function isStorableText(s: string): boolean {
  return !SUSPECT.test(s) || !UNSTORABLE.test(s);
}

interface Node {
  value: unknown;
  key: string | number;
  parent: Node | null;
}

function pathOf(node: Node, last: string | number): string {
  const parts: (string | number)[] = [last];
  for (let n: Node | null = node; n; n = n.parent) parts.push(n.key);
  return parts.reverse().join('.');
}

/**
 * Where a parsed input (JSON body, query, path parameters) holds unstorable text, keys included,
 * at any depth: its path ("body.items.2.name"), or null. Iterative, so nesting depth costs no stack.
 */
export function unstorableTextPath(value: unknown, root: string): string | null {
  if (typeof value === 'string') return isStorableText(value) ? null : root;
  const stack: Node[] = [{ value, key: root, parent: null }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const v = node.value;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const item: unknown = v[i];
        if (typeof item === 'string') {
          if (!isStorableText(item)) return pathOf(node, i);
        } else if (item !== null && typeof item === 'object') stack.push({ value: item, key: i, parent: node });
      }
    } else if (v !== null && typeof v === 'object') {
      // Binary bodies (buffers, streams) are not text.
      if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer || typeof (v as { pipe?: unknown }).pipe === 'function') {
        continue;
      }
      for (const [key, item] of Object.entries(v)) {
        if (!isStorableText(key)) return pathOf(node, key);
        if (typeof item === 'string') {
          if (!isStorableText(item)) return pathOf(node, key);
        } else if (item !== null && typeof item === 'object') stack.push({ value: item, key, parent: node });
      }
    }
  }
  return null;
}

function refuseUnstorable(value: unknown, root: string): void {
  const path = unstorableTextPath(value, root);
  if (path === null) return;
  throw new AppError('ValidationError', 'The request is not valid', {
    issues: [{ path, message: 'contains a character that cannot be stored (U+0000 or an unpaired surrogate)' }],
  });
}

/**
 * U+0000 and unpaired surrogates are refused with 400 ValidationError before any handler or
 * authorization runs: path parameters and the query in onRequest (authorization looks rows up
 * by them), the parsed body in preValidation. On the root instance, so every route has it.
 */
export function installInputGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    refuseUnstorable(request.params, 'params');
    refuseUnstorable(request.query, 'query');
  });
  app.addHook('preValidation', async (request) => {
    refuseUnstorable(request.body, 'body');
  });
}
