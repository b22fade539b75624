import { criticalValueLevelKey } from '@yyp/contracts';
import type { TFunction } from 'i18next';
import { isApiError } from '../../api/errors';

/** A moment as local "YYYY-MM-DD HH:mm". */
export function formatWhen(iso: string | null): string {
  if (!iso) {
    return '';
  }
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * A section the caller may not see (403) or that has nothing behind it (404) is simply left out;
 * any other failure is shown with a retry.
 */
export function isHiddenError(error: unknown): boolean {
  return isApiError(error) && (error.status === 403 || error.status === 404);
}

/** A critical value's level in the interface language; a word stored before levels were keys as it is. */
export function criticalLevelLabel(t: TFunction, level: string): string {
  const key = criticalValueLevelKey(level);
  return key ? t(`reportSafety.critical.levels.${key}`) : level;
}
