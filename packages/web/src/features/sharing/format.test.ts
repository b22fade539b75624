import { describe, expect, it } from 'vitest';
import { absoluteUrl, webQuery } from './format';

describe('shared report formatting', () => {
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
