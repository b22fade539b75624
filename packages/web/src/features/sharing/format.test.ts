import { describe, expect, it } from 'vitest';
import { absoluteUrl, formatStudyDate, webQuery } from './format';

describe('shared report formatting', () => {
  it('writes DICOM dates with dashes', () => {
    expect(formatStudyDate('20261122')).toBe('2026-11-22');
    expect(formatStudyDate('')).toBe('');
    expect(formatStudyDate('2026')).toBe('2026');
  });
  it('makes a page path absolute', () => {
    expect(absoluteUrl('/reports/s?link=abc', 'https://pacs.example')).toBe('https://pacs.example/reports/s?link=abc');
  });
  it('passes the /web fields on exactly as sent, and nothing else', () => {
    const params = new URLSearchParams('groupId=g&patientId=P%201&serviceRequestId=&expires=9&x=1&signature=ab');
    expect(webQuery(params)).toEqual({
      groupId: 'g',
      patientId: 'P 1',
      serviceRequestId: '',
      expires: '9',
      signature: 'ab',
    });
  });
});
