import { describe, expect, it } from 'vitest';
import { i18n } from '../i18n';
import { errorMessage, lockoutMinutes } from './errorMessage';
import { ApiError } from './errors';

const t = i18n.getFixedT('en');

describe('errorMessage', () => {
  it('maps a code to its translated sentence', () => {
    expect(errorMessage(t, new ApiError('WrongCredentials', 401))).toBe('Wrong username or password.');
    expect(errorMessage(i18n.getFixedT('chs'), new ApiError('WrongCredentials', 401))).toBe('用户名或密码错误');
  });

  it('names the lockout minutes, 30 by default', () => {
    expect(errorMessage(t, new ApiError('LoginLocked', 423))).toBe(
      'Too many failed logins. Please retry after 30 minutes.',
    );
    expect(errorMessage(t, new ApiError('LoginLocked', 423, '', { retryAfterSeconds: 61 }))).toContain('2 minutes');
    expect(lockoutMinutes({ retryAfterSeconds: 1800 })).toBe(30);
    expect(lockoutMinutes({ retryAfterSeconds: 'soon' })).toBe(30);
  });

  it('names the tries left after a wrong verification code', () => {
    expect(errorMessage(t, new ApiError('VerificationCodeIncorrect', 400, '', { triesLeft: 3 }))).toBe(
      'The code is incorrect: 3 tries left.',
    );
    expect(errorMessage(t, new ApiError('VerificationCodeIncorrect', 400))).toBe('The verification code is incorrect.');
  });

  it('explains which password rule failed when the server says so', () => {
    const tooShort = new ApiError('PasswordTooSimple', 400, '', { problem: 'passwordTooShort' });
    expect(errorMessage(t, tooShort)).toBe('The password must have at least 6 characters.');
    expect(errorMessage(t, tooShort, { strongPassword: true })).toBe('The password must have at least 8 characters.');
    expect(errorMessage(t, new ApiError('PasswordTooSimple', 400))).toBe('The password is too simple.');
  });

  it('says a refusal or a missing thing when the code has no sentence of its own', () => {
    const unknownCode = (status: number) => new ApiError('SomethingNew' as never, status);
    expect(errorMessage(t, unknownCode(403))).toBe('You do not have permission to do this.');
    expect(errorMessage(t, new ApiError('UnknownError', 403, 'HTTP 403'))).toBe(
      'You do not have permission to do this.',
    );
    expect(errorMessage(t, unknownCode(404))).toBe('The requested item was not found.');
    expect(errorMessage(t, unknownCode(500))).toBe('Unknown error. Please retry the operation.');
    expect(errorMessage(t, new ApiError('UnknownError', 502, 'HTTP 502'))).toBe(
      'Unknown error. Please retry the operation.',
    );
  });

  it('falls back to unknown error for anything that is not an ApiError', () => {
    expect(errorMessage(t, new Error('boom'))).toBe('Unknown error. Please retry the operation.');
  });
});
