/**
 * Why the server skipped a file: the reason codes of its DICOM parser (DicomError.reason) and of
 * its zip reader for archives.
 * Anything else it may send is shown as "unknown".
 */
export const SKIP_REASONS = [
  'notDicom',
  'malformed',
  'truncated',
  'missingUid',
  'invalidUid',
  'badDimensions',
  'tooDeep',
  'conflict',
  // entries of a zipped study (server dicom/archive.ts)
  'archiveDamaged',
  'archiveTooLarge',
  'tooLarge',
  'zipBomb',
  'nestedArchive',
  'encrypted',
  // the organization's plan refused it (server modules/archive/plan.ts)
  'BucketFull',
  'SubscriptionExpired',
] as const;

export type SkipReason = (typeof SKIP_REASONS)[number] | 'unknown';

export function skipReason(code: string | undefined): SkipReason {
  return SKIP_REASONS.find((reason) => reason === code) ?? 'unknown';
}
