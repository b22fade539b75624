import { describe, expect, it } from 'vitest';
import { formatStudyDate } from './dates';

describe('shared report formatting', () => {
  it('writes DICOM dates with dashes', () => {
    expect(formatStudyDate('20261122')).toBe('2026-11-22');
    expect(formatStudyDate('')).toBe('');
    expect(formatStudyDate('2026')).toBe('2026');
  });
});
