import type { TFunction } from 'i18next';

/** A video's duration for people, e.g. "3 min 5 s"; empty when unknown. */
export function formatDuration(t: TFunction, seconds: number | null): string {
  if (seconds === null) {
    return '';
  }
  return t('learning.duration', { minutes: Math.floor(seconds / 60), seconds: seconds % 60 });
}
