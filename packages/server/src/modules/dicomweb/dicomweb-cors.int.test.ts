import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeStaffed } from '../../test/factories-archive.js';
import { makeExam } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';

/** CORS of /dicom-web for a viewer served from another origin (issue 28 item 11). */
const OHIF = 'https://ohif.hospital.example';
let t: TestApp;
let token: string;
let studyUid: string;

beforeAll(async () => {
  t = await startTestApp({ seed: false, app: { dicomWebCorsOrigins: [OHIF] } });
  const { org, doctor } = await makeStaffed(t, ['doctor']);
  token = doctor.token;
  studyUid = (await makeExam(t, org.bucketId, { modality: 'CT', instancesPerSeries: 1, rows: 16, columns: 16 })).study
    .studyInstanceUid;
});
afterAll(async () => {
  await t.close();
});

const preflight = (origin: string, path = '/dicom-web/studies') =>
  t.app.inject({
    method: 'OPTIONS',
    url: path,
    headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
  });

describe('DICOMweb across origins', () => {
  it('answers the preflight of a configured origin with what it may send, and no other origin', async () => {
    const ok = await preflight(OHIF, `/dicom-web/studies/${studyUid}/series`);
    expect(ok.statusCode).toBe(204);
    expect(ok.headers['access-control-allow-origin']).toBe(OHIF);
    expect(String(ok.headers['access-control-allow-headers'])).toMatch(/Authorization/);
    expect(String(ok.headers['access-control-allow-methods'])).toMatch(/GET/);
    const other = await preflight('https://evil.example');
    expect(other.statusCode).toBe(204);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    expect(other.headers['access-control-allow-headers']).toBeUndefined();
  });

  it('names the origin on answers and errors, exposes the Warning header, and still needs the token', async () => {
    const found = await t.app.inject({
      method: 'GET',
      url: '/dicom-web/studies?limit=1&fuzzymatching=true',
      headers: { origin: OHIF, authorization: `Bearer ${token}`, accept: 'application/dicom+json' },
    });
    expect(found.statusCode).toBe(200);
    expect(found.headers['access-control-allow-origin']).toBe(OHIF);
    expect(String(found.headers['access-control-expose-headers'])).toMatch(/Warning/);
    expect(String(found.headers.vary)).toMatch(/Origin/);
    const anonymous = await t.app.inject({ method: 'GET', url: '/dicom-web/studies', headers: { origin: OHIF } });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['access-control-allow-origin']).toBe(OHIF);
    const elsewhere = await t.app.inject({
      method: 'GET',
      url: '/dicom-web/studies',
      headers: { origin: 'https://evil.example', authorization: `Bearer ${token}` },
    });
    expect(elsewhere.statusCode).toBe(200);
    expect(elsewhere.headers['access-control-allow-origin']).toBeUndefined();
  });
});
