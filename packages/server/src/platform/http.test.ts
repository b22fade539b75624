import { describe, expect, it } from 'vitest';
import type { FastifyError } from 'fastify';
import { AppError } from './errors.js';
import { toAppError } from './http.js';

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
