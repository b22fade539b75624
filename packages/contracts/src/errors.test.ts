import { describe, expect, it } from 'vitest';
import { errorCodes, errorStatus, isErrorBody, tokenErrorCodes } from './errors.js';

describe('error vocabulary', () => {
  it('has a 4xx or 5xx status for every code', () => {
    for (const code of errorCodes) {
      expect(errorStatus[code]).toBeGreaterThanOrEqual(400);
      expect(errorStatus[code]).toBeLessThan(600);
    }
  });
  it('answers the two token codes with 401 as spec 001 §8 requires', () => {
    expect(tokenErrorCodes).toEqual(['TokenExpiredError', 'JsonWebTokenError']);
    for (const code of tokenErrorCodes) expect(errorStatus[code]).toBe(401);
  });
  it('recognises error bodies only with a known code', () => {
    expect(isErrorBody({ code: 'NotFound', message: 'x' })).toBe(true);
    expect(isErrorBody({ code: 'Nope', message: 'x' })).toBe(false);
    expect(isErrorBody(null)).toBe(false);
  });
});
