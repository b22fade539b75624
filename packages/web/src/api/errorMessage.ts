import {
  LOGIN_LOCKOUT_MINUTES,
  PASSWORD_MAX,
  PASSWORD_MIN,
  STRONG_PASSWORD_MIN,
  type PasswordProblem,
} from '@yyp/contracts';
import type { TFunction } from 'i18next';
import { isApiError } from './errors';

const passwordProblems = [
  'passwordTooSimple',
  'passwordTooShort',
  'passwordTooLong',
] as const satisfies readonly PasswordProblem[];

function detailOf(details: unknown, key: string): unknown {
  return typeof details === 'object' && details !== null ? (details as Record<string, unknown>)[key] : undefined;
}

/** Minutes until a locked login may retry, from details.retryAfterSeconds (default: the 30 of spec §9). */
export function lockoutMinutes(details: unknown): number {
  const seconds = detailOf(details, 'retryAfterSeconds');
  if (typeof seconds === 'number' && seconds > 0) {
    return Math.max(1, Math.ceil(seconds / 60));
  }
  return LOGIN_LOCKOUT_MINUTES;
}

export interface ErrorMessageContext {
  /** domain.requireStrongPwd, for the minimum length named in a PasswordTooSimple message. */
  strongPassword?: boolean;
}

/** Maps any failure to a translated sentence: the error code decides, never the server's text. */
export function errorMessage(t: TFunction, error: unknown, context: ErrorMessageContext = {}): string {
  if (!isApiError(error)) {
    return t('errors.UnknownError');
  }
  switch (error.code) {
    case 'LoginLocked':
      return t('errors.LoginLocked', { minutes: lockoutMinutes(error.details) });
    case 'PasswordTooSimple': {
      const problem = detailOf(error.details, 'problem');
      const known = passwordProblems.find((p) => p === problem);
      if (known) {
        const min = context.strongPassword ? STRONG_PASSWORD_MIN : PASSWORD_MIN;
        return t(`validation.${known}`, { min, max: PASSWORD_MAX });
      }
      return t('errors.PasswordTooSimple');
    }
    case 'VerificationCodeIncorrect': {
      const left = detailOf(error.details, 'triesLeft');
      return typeof left === 'number' ? t('mobile.triesLeft', { count: left }) : t('errors.VerificationCodeIncorrect');
    }
    case 'ReportLocked': {
      const lockedBy = detailOf(error.details, 'lockedBy');
      const name = detailOf(lockedBy, 'name');
      return t('errors.ReportLocked', { name: typeof name === 'string' ? name : '' });
    }
    default: {
      // A code this build has no sentence for (or a bare status from a proxy) still says something
      // true: a refusal is a refusal, a missing thing is missing.
      const fallback = t(`errors.${fallbackCode(error.status)}`);
      return error.code === 'UnknownError' ? fallback : t(`errors.${error.code}`, { defaultValue: fallback });
    }
  }
}

function fallbackCode(status: number): 'InsufficientPermissions' | 'NotFound' | 'UnknownError' {
  if (status === 403) {
    return 'InsufficientPermissions';
  }
  return status === 404 ? 'NotFound' : 'UnknownError';
}
