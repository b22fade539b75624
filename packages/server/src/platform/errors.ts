import { errorStatus, type ErrorBody, type ErrorCode } from '@yyp/contracts';

/** An error the API answers with as-is: status fixed by its code, never a stack trace. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: unknown;

  constructor(code: ErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = errorStatus[code];
    this.details = details;
  }

  toBody(): ErrorBody {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

export const errors = {
  validation: (message: string, details?: unknown) => new AppError('ValidationError', message, details),
  unauthenticated: () => new AppError('Unauthenticated', 'Login required'),
  tokenExpired: () => new AppError('TokenExpiredError', 'Login expired, log in again'),
  badToken: () => new AppError('JsonWebTokenError', 'Invalid token'),
  wrongCredentials: () => new AppError('WrongCredentials', 'Wrong username or password'),
  loginLocked: (retryAfterSeconds: number) =>
    new AppError('LoginLocked', 'Too many failed logins, retry after 30 minutes', { retryAfterSeconds }),
  accountDisabled: () => new AppError('AccountDisabled', 'This account is disabled'),
  passwordExpired: () => new AppError('PasswordExpired', 'Password expired, set a new one'),
  passwordTooSimple: (problem: string) => new AppError('PasswordTooSimple', 'The password is too simple', { problem }),
  forbidden: (action?: string) =>
    new AppError('InsufficientPermissions', 'Insufficient permissions', action ? { action } : undefined),
  notFound: (what = 'Resource') => new AppError('NotFound', `${what} not found`),
  conflict: (message: string) => new AppError('Conflict', message),
};
