import crypto from 'node:crypto';
import { webReportCanonical, webReportQuerySchema } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sharedState } from './shared-report.js';
import { signatureMatches, signWebReport } from './web-integration.service.js';

describe('what a link shows', () => {
  it('is the shared version while it is the approved one', () => {
    expect(sharedState({ status: 'corrected', version: 4 }, 4)).toBe('current');
    expect(sharedState({ status: 'printed', version: 4 }, 4)).toBe('current');
  });
  it('is nothing while the report is recalled or being corrected', () => {
    for (const status of ['cancelled', 'partial', 'final', 'hold', 'advised', 'preliminary', 'locked', 'none']) {
      expect(sharedState({ status, version: 5 }, 4)).toBe('withdrawn');
    }
  });
  it('is the current approved version, marked updated, once approved again', () => {
    expect(sharedState({ status: 'corrected', version: 7 }, 4)).toBe('updated');
    // /web has no shared version: whatever is approved now.
    expect(sharedState({ status: 'corrected', version: 7 }, null)).toBe('current');
  });
});

describe('the /web signature', () => {
  const query = webReportQuerySchema.parse({
    groupId: 'g1',
    patientId: 'P1',
    serviceRequestId: 'A1',
    expires: '1800000000',
    timestamp: '1799999000',
    openImage: '1',
    signature: '',
  });
  it('signs one line per field in the documented order, absent ones empty', () => {
    expect(webReportCanonical(query)).toBe(
      'groupId=g1\npatientId=P1\nserviceRequestId=A1\nexpires=1800000000\ntimestamp=1799999000\nopenImage=1\nshowExtra=',
    );
    const expected = crypto.createHmac('sha256', 'k').update(webReportCanonical(query)).digest('hex');
    expect(signWebReport('k', query)).toBe(expected);
  });
  it('accepts the right signature in either case and nothing else', () => {
    const signature = signWebReport('k', query);
    expect(signatureMatches('k', { ...query, signature })).toBe(true);
    expect(signatureMatches('k', { ...query, signature: signature.toUpperCase() })).toBe(true);
    expect(signatureMatches('other', { ...query, signature })).toBe(false);
    expect(signatureMatches('k', { ...query, patientId: 'P2', signature })).toBe(false);
    expect(signatureMatches('k', { ...query, signature: signature.slice(0, 62) })).toBe(false);
    expect(signatureMatches('k', { ...query, signature: 'zz'.repeat(32) })).toBe(false);
  });
});
