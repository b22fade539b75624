import { describe, expect, it } from 'vitest';
import { acceptable, DICOM_OFFERS, JSON_OFFERS, OCTET_OFFERS, offersFor } from './accept.js';

describe('acceptable', () => {
  it('takes no Accept, */*, a matching type or a wildcard', () => {
    expect(acceptable(undefined, JSON_OFFERS)).toBe(true);
    expect(acceptable('*/*', DICOM_OFFERS)).toBe(true);
    expect(acceptable('application/dicom+json', JSON_OFFERS)).toBe(true);
    expect(acceptable('application/json, text/plain', JSON_OFFERS)).toBe(true);
    expect(acceptable('application/*', JSON_OFFERS)).toBe(true);
    expect(acceptable('multipart/related; type="application/dicom"; transfer-syntax=*', DICOM_OFFERS)).toBe(true);
    expect(acceptable('multipart/related', DICOM_OFFERS)).toBe(true);
    // What the viewer's image loader sends for frames.
    expect(acceptable('multipart/related; type=application/octet-stream; transfer-syntax=*', OCTET_OFFERS)).toBe(true);
  });

  it('refuses types it cannot produce, and q=0', () => {
    expect(acceptable('multipart/related; type="application/dicom+xml"', JSON_OFFERS)).toBe(false);
    expect(acceptable('application/json', DICOM_OFFERS)).toBe(false);
    expect(acceptable('multipart/related; type="image/jpeg"', OCTET_OFFERS)).toBe(false);
    expect(acceptable('image/png', OCTET_OFFERS)).toBe(false);
    expect(acceptable('application/dicom+json;q=0', JSON_OFFERS)).toBe(false);
  });
});

describe('offersFor', () => {
  it('names the answer type of each DICOMweb route', () => {
    expect(offersFor('GET', '/dicom-web/studies')).toBe(JSON_OFFERS);
    expect(offersFor('GET', '/dicom-web/studies/:study/series')).toBe(JSON_OFFERS);
    expect(offersFor('GET', '/dicom-web/studies/:study/series/:series/instances')).toBe(JSON_OFFERS);
    expect(offersFor('GET', '/dicom-web/studies/:study/metadata')).toBe(JSON_OFFERS);
    expect(offersFor('POST', '/dicom-web/studies')).toBe(JSON_OFFERS);
    expect(offersFor('GET', '/dicom-web/studies/:study')).toBe(DICOM_OFFERS);
    // A series retrieve (its path ends in the :series parameter) answers instances, not JSON.
    expect(offersFor('GET', '/dicom-web/studies/:study/series/:series')).toBe(DICOM_OFFERS);
    expect(offersFor('GET', '/dicom-web/studies/:study/series/:series/instances/:instance')).toBe(DICOM_OFFERS);
    expect(offersFor('GET', '/dicom-web/studies/:study/series/:series/instances/:instance/frames/:frames')).toBe(
      OCTET_OFFERS,
    );
    expect(offersFor('GET', '/dicom-web/studies/:study/series/:series/instances/:instance/bulkdata/:tag')).toBe(
      OCTET_OFFERS,
    );
  });
});
