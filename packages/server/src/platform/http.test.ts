import { describe, expect, it } from 'vitest';
import type { FastifyError } from 'fastify';
import { AppError } from './errors.js';
import { errorSerializer, loggableError, toAppError } from './http.js';

function fe(props: Partial<FastifyError>): FastifyError {
  return Object.assign(new Error(props.message ?? 'x'), props) as FastifyError;
}

describe('toAppError maps every failure onto the contract vocabulary', () => {
  it('keeps AppErrors', () => {
    const e = new AppError('NotFound', 'gone');
    expect(toAppError(e)).toBe(e);
  });
  it('maps body limits, bad JSON and media types', () => {
    expect(toAppError(fe({ code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 })).code).toBe('PayloadTooLarge');
    expect(toAppError(fe({ code: 'FST_ERR_CTP_INVALID_JSON_BODY', statusCode: 400 })).code).toBe('InvalidJson');
    expect(toAppError(fe({ code: 'FST_ERR_CTP_EMPTY_JSON_BODY', statusCode: 400 })).code).toBe('InvalidJson');
    expect(toAppError(fe({ code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', statusCode: 415 })).code).toBe(
      'UnsupportedMediaType',
    );
  });
  it('hides unexpected errors behind UnknownError without their message', () => {
    const mapped = toAppError(new TypeError('cannot read properties of undefined (secret detail)'));
    expect(mapped.code).toBe('UnknownError');
    expect(mapped.status).toBe(500);
    expect(JSON.stringify(mapped.toBody())).not.toContain('secret detail');
  });
});

describe('database errors', () => {
  /** As drizzle throws them: the query and its parameters in the message, PostgreSQL's error as cause. */
  function drizzleError(code: string, message: string, detail: string): Error {
    const cause = Object.assign(new Error(message), {
      code,
      severity: 'ERROR',
      detail,
      table: 'patients',
      column: 'name',
    });
    return Object.assign(new Error(`Failed query: insert into patients (name) values ($1)\nparams: 王小东`), {
      query: 'insert into patients (name) values ($1)',
      params: ['王小东'],
      cause,
    });
  }

  it('answer 400 ValidationError for a data exception (SQLSTATE class 22), the value being the fault', () => {
    expect(toAppError(drizzleError('22021', 'invalid byte sequence for encoding "UTF8": 0x00', '')).code).toBe(
      'ValidationError',
    );
    expect(toAppError(drizzleError('22P05', 'unsupported Unicode escape sequence', '')).code).toBe('ValidationError');
    expect(toAppError(drizzleError('57014', 'canceling statement due to statement timeout', '')).code).toBe(
      'UnknownError',
    );
  });

  it('are logged by SQLSTATE and schema names, never with the values', () => {
    const err = drizzleError(
      '23505',
      'duplicate key value violates unique constraint "x_王小东"',
      'Key (name)=(王小东) exists',
    );
    const logged = JSON.stringify(errorSerializer(err));
    expect(logged).not.toContain('王小东');
    expect(logged).not.toContain('params');
    expect(JSON.parse(logged)).toMatchObject({
      type: 'DatabaseError',
      code: '23505',
      table: 'patients',
      column: 'name',
    });
    expect(loggableError(err)).toHaveProperty('stack', expect.stringMatching(/^\s+at /));
    // Other errors keep pino's usual form.
    expect(errorSerializer(new TypeError('boom'))).toMatchObject({ type: 'TypeError', message: 'boom' });
  });
});
