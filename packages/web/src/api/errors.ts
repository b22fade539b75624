import { tokenErrorCodes, type ErrorCode } from '@yyp/contracts';

/** Failures detected by the client itself, never sent by the server. */
export const clientErrorCodes = ['RequestTimeout', 'NetworkError'] as const;
export type ClientErrorCode = (typeof clientErrorCodes)[number];
export type ApiErrorCode = ErrorCode | ClientErrorCode;

/** Every failed call rejects with this: the contract's error code, HTTP status and details. */
export class ApiError extends Error {
  readonly code: ApiErrorCode;
  readonly status: number;
  readonly details: unknown;

  constructor(code: ApiErrorCode, status: number, message?: string, details?: unknown) {
    super(message ?? code);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
    this.details = details;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** 401 with TokenExpiredError/JsonWebTokenError: the session layer already reacted to it. */
export function isTokenError(error: unknown): boolean {
  return isApiError(error) && error.status === 401 && tokenErrorCodes.includes(error.code as ErrorCode);
}

export function hasCode(error: unknown, code: ApiErrorCode): error is ApiError {
  return isApiError(error) && error.code === code;
}
