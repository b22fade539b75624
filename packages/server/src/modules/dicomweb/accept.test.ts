import { describe, expect, it } from 'vitest';
import {
  acceptable,
  bulkDataAcceptable,
  DICOM_OFFERS,
  FRAME_OFFERS,
  frameAnswer,
  instanceSyntax,
  JSON_OFFERS,
  OCTET_OFFERS,
  offersFor,
  wantedParts,
} from './accept.js';

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
      FRAME_OFFERS,
    );
    expect(offersFor('GET', '/dicom-web/studies/:study/series/:series/instances/:instance/bulkdata/:tag')).toBe(
      OCTET_OFFERS,
    );
  });
});

const JLS = '1.2.840.10008.1.2.4.80';
const EXPLICIT = '1.2.840.10008.1.2.1';
const J2K = '1.2.840.10008.1.2.4.90';

describe('wantedParts', () => {
  it('reads the multipart ranges best first, their part type and transfer syntax', () => {
    expect(wantedParts(undefined)).toEqual([{}]);
    expect(wantedParts('*/*')).toEqual([{}]);
    expect(
      wantedParts(
        'multipart/related; type="image/jls"; q=0.5, multipart/related; type=application/octet-stream; transfer-syntax=*',
      ),
    ).toEqual([{ partType: 'application/octet-stream', transferSyntax: '*' }, { partType: 'image/jls' }]);
    expect(wantedParts('application/dicom+json, multipart/related; type="image/jp2"; q=0')).toEqual([]);
  });
});

describe('instanceSyntax', () => {
  const produces = (ts: string) => ts === EXPLICIT || ts === JLS;
  it('answers as stored without a transfer-syntax or with *, else the first it produces', () => {
    expect(instanceSyntax(wantedParts(undefined), produces)).toBe('*');
    expect(instanceSyntax(wantedParts('multipart/related; type="application/dicom"'), produces)).toBe('*');
    expect(
      instanceSyntax(
        wantedParts(
          `multipart/related; type="application/dicom"; transfer-syntax=1.2.3, multipart/related; type="application/dicom"; transfer-syntax=${JLS}; q=0.9`,
        ),
        produces,
      ),
    ).toBe(JLS);
    expect(
      instanceSyntax(wantedParts('multipart/related; type="application/dicom"; transfer-syntax=1.2.3'), produces),
    ).toBeUndefined();
    expect(instanceSyntax(wantedParts('multipart/related; type="application/dicom+xml"'), produces)).toBeUndefined();
  });
});

describe('frameAnswer', () => {
  const produces = (ts: string) => ts === EXPLICIT || ts === J2K;
  it('labels frames as stored with their real media type', () => {
    expect(frameAnswer(JLS, wantedParts(undefined), produces)).toEqual({ transferSyntax: JLS, mediaType: 'image/jls' });
    expect(frameAnswer(EXPLICIT, wantedParts('*/*'), produces)).toEqual({
      transferSyntax: EXPLICIT,
      mediaType: 'application/octet-stream',
    });
  });

  it('keeps octet-stream as stored without a syntax or with *, and decodes when one is named', () => {
    const viewer = wantedParts('multipart/related; type=application/octet-stream; transfer-syntax=*');
    expect(frameAnswer(JLS, viewer, produces)).toEqual({ transferSyntax: JLS, mediaType: 'application/octet-stream' });
    const native = wantedParts(`multipart/related; type="application/octet-stream"; transfer-syntax=${EXPLICIT}`);
    expect(frameAnswer(JLS, native, produces)).toEqual({
      transferSyntax: EXPLICIT,
      mediaType: 'application/octet-stream',
    });
    // A compressed syntax is never an octet-stream (PS3.18 Table 8.7.3-2).
    const wrong = wantedParts(`multipart/related; type="application/octet-stream"; transfer-syntax=${J2K}`);
    expect(frameAnswer(JLS, wrong, produces)).toBeUndefined();
  });

  it('answers an image type in the stored syntax when it is one of its, else its first producible one', () => {
    expect(frameAnswer(JLS, wantedParts('multipart/related; type="image/jls"'), produces)?.transferSyntax).toBe(JLS);
    expect(frameAnswer(EXPLICIT, wantedParts('multipart/related; type="image/jp2"'), produces)).toEqual({
      transferSyntax: J2K,
      mediaType: 'image/jp2',
    });
    // image/jls is not produced here (produces says no), nor a syntax of another type.
    expect(frameAnswer(EXPLICIT, wantedParts('multipart/related; type="image/jls"'), produces)).toBeUndefined();
    expect(
      frameAnswer(EXPLICIT, wantedParts(`multipart/related; type="image/jls"; transfer-syntax=${J2K}`), produces),
    ).toBeUndefined();
    // The next range is tried when one cannot be met.
    expect(
      frameAnswer(
        EXPLICIT,
        wantedParts('multipart/related; type="image/jls", multipart/related; type="image/jp2"'),
        produces,
      ),
    ).toEqual({ transferSyntax: J2K, mediaType: 'image/jp2' });
  });
});

describe('bulkDataAcceptable', () => {
  it('takes no transfer syntax, * or explicit VR little endian, and nothing compressed', () => {
    expect(bulkDataAcceptable(wantedParts(undefined))).toBe(true);
    expect(bulkDataAcceptable(wantedParts('multipart/related; type="application/octet-stream"'))).toBe(true);
    expect(
      bulkDataAcceptable(wantedParts(`multipart/related; type=application/octet-stream; transfer-syntax=${EXPLICIT}`)),
    ).toBe(true);
    expect(
      bulkDataAcceptable(wantedParts(`multipart/related; type=application/octet-stream; transfer-syntax=${JLS}`)),
    ).toBe(false);
  });
});
