import { describe, expect, it } from 'vitest';
import { WEB_REPORT_QUERY_FIELDS, WEB_REPORT_SIGNED_FIELDS, webReportQuerySchema } from './report-sharing.js';

describe('the /web query', () => {
  it('is the signed fields and the signature, every key of its schema', () => {
    expect(WEB_REPORT_QUERY_FIELDS).toEqual([...WEB_REPORT_SIGNED_FIELDS, 'signature']);
    expect([...WEB_REPORT_QUERY_FIELDS].sort()).toEqual(Object.keys(webReportQuerySchema.shape).sort());
  });
});
