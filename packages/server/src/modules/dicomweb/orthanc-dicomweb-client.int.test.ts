import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundaryOf, parseMultipart } from '../../dicom/multipart.js';
import { frameBytes } from '../../dicom/json-model.js';
import { generateStudy, type GeneratedStudy } from '../../dicom/testdata/generate.js';
import { startArchiveApp } from '../../test/factories-archive.js';
import type { TestApp } from '../../test/harness.js';
import { startOrthanc, type TestOrthanc } from '../../test/orthanc.js';
import { injectStow } from '../../test/stow.js';

/**
 * Orthanc's DICOMweb plugin as a client of yyp (issue 28 item 8): Orthanc 1.10 knows yyp as a
 * DICOMweb server (DicomWeb.Servers, with the technician's bearer), searches it, reads from it,
 * retrieves a study from it into its own storage and stores a study of its own into it. What
 * arrives on either side is compared with the source files byte for byte.
 */
type Json = Record<string, { vr: string; Value?: unknown[] }>;

let t: TestApp;
let orthanc: TestOrthanc;
let tech: string;
let ct: GeneratedStudy;
let us: GeneratedStudy;

const uidOf = (json: Json, tag: string) => json[tag]?.Value?.[0] as string;
const b64 = (b: Buffer) => b.toString('base64');

/** A call of Orthanc's REST API; its answer as bytes, with the status and content type. */
async function orthancCall(route: string, body: unknown) {
  const res = await fetch(`${orthanc.http}${route}`, { method: 'POST', body: JSON.stringify(body) });
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    bytes: Buffer.from(await res.arrayBuffer()),
  };
}

beforeAll(async () => {
  const world = await startArchiveApp();
  t = world.t;
  tech = world.rad.tech.token;
  ct = generateStudy({ modality: 'CT', series: 2, instancesPerSeries: 2, rows: 16, columns: 20, patientId: 'ODW-CT' });
  us = generateStudy({ modality: 'US', rows: 12, columns: 16, frames: 3, patientId: 'ODW-US' });
  for (const s of [ct, us]) {
    const res = await injectStow(
      t,
      tech,
      s.instances.map((i) => i.bytes),
    );
    expect(res.statusCode).toBe(200);
  }
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = t.app.server.address() as { port: number };
  orthanc = await startOrthanc(
    'ORTHANCDW',
    {},
    {
      dicomWebServers: {
        yyp: { url: `http://127.0.0.1:${port}/dicom-web/`, headers: { Authorization: `Bearer ${tech}` } },
      },
    },
  );
}, 120_000);

afterAll(async () => {
  await orthanc?.stop();
  await t?.close();
});

describe("Orthanc's DICOMweb plugin as a client of yyp", () => {
  it('searches yyp (QIDO-RS through /dicom-web/servers/yyp/qido)', async () => {
    // Orthanc answers what it parsed in its own form: each tag's value as one string.
    type Parsed = Record<string, { Name: string; Value?: string }>;
    const studies = await orthanc.post<Parsed[]>('/dicom-web/servers/yyp/qido', {
      Uri: '/studies',
      Arguments: { PatientID: 'ODW-CT' },
    });
    expect(studies).toHaveLength(1);
    expect(studies[0]).toMatchObject({
      '0020000D': { Name: 'StudyInstanceUID', Value: ct.studyInstanceUid },
      '00100020': { Name: 'PatientID', Value: 'ODW-CT' },
      '00100010': { Name: 'PatientName', Value: 'DOE^JANE' },
      '00080061': { Name: 'ModalitiesInStudy', Value: 'CT' },
    });
    const instances = await orthanc.post<Parsed[]>('/dicom-web/servers/yyp/qido', {
      Uri: `/studies/${ct.studyInstanceUid}/instances`,
    });
    expect(instances.map((i) => i['00080018']?.Value).sort()).toEqual(ct.instances.map((i) => i.sopInstanceUid).sort());
  });

  it('reads metadata and frames (WADO-RS through /dicom-web/servers/yyp/get)', async () => {
    const meta = await orthancCall('/dicom-web/servers/yyp/get', { Uri: `/studies/${us.studyInstanceUid}/metadata` });
    expect(meta.status).toBe(200);
    const json = JSON.parse(meta.bytes.toString('utf8')) as Json[];
    expect(json.map((m) => uidOf(m, '00080018'))).toEqual([us.instances[0]!.sopInstanceUid]);
    const us1 = us.instances[0]!;
    const frames = await orthancCall('/dicom-web/servers/yyp/get', {
      Uri: `/studies/${us.studyInstanceUid}/series/${us1.seriesInstanceUid}/instances/${us1.sopInstanceUid}/frames/2,3`,
    });
    expect(frames.status).toBe(200);
    const boundary = boundaryOf(frames.type);
    expect(boundary).toBeTruthy();
    const parts = parseMultipart(frames.bytes, boundary!);
    expect(parts.map((p) => b64(p.body))).toEqual([2, 3].map((n) => b64(Buffer.from(frameBytes(us1.bytes, n).bytes))));
  });

  it('retrieves a study from yyp into its own storage, every file byte for byte', async () => {
    const answer = await orthanc.post<unknown>('/dicom-web/servers/yyp/retrieve', {
      Resources: [{ Study: ct.studyInstanceUid }],
    });
    expect(answer).toBeTruthy();
    const ids = await orthanc.get<string[]>('/instances');
    expect(ids).toHaveLength(ct.instances.length);
    const files = await Promise.all(
      ids.map(async (id) => Buffer.from(await (await fetch(`${orthanc.http}/instances/${id}/file`)).arrayBuffer())),
    );
    expect(files.map(b64).sort()).toEqual(ct.instances.map((i) => b64(i.bytes)).sort());

    // One series of a study: the multi-frame clip.
    const us1 = us.instances[0]!;
    await orthanc.post<unknown>('/dicom-web/servers/yyp/retrieve', {
      Resources: [{ Study: us.studyInstanceUid, Series: us1.seriesInstanceUid }],
    });
    const lookup = await fetch(`${orthanc.http}/tools/lookup`, { method: 'POST', body: us1.sopInstanceUid });
    const found = (await lookup.json()) as { ID: string; Type: string }[];
    expect(found.map((f) => f.Type)).toEqual(['Instance']);
    const id = found[0]!.ID;
    const file = Buffer.from(await (await fetch(`${orthanc.http}/instances/${id}/file`)).arrayBuffer());
    expect(file.equals(us1.bytes)).toBe(true);
  });

  it('stores a study of its own into yyp (STOW-RS through /dicom-web/servers/yyp/stow)', async () => {
    const mr = generateStudy({ modality: 'MR', instancesPerSeries: 3, rows: 8, columns: 8, patientId: 'ODW-MR' });
    let studyId = '';
    for (const i of mr.instances) {
      studyId = (await orthanc.post<{ ParentStudy: string }>('/instances', i.bytes)).ParentStudy;
    }
    const sent = await orthanc.post<unknown>('/dicom-web/servers/yyp/stow', { Resources: [studyId] });
    expect(sent).toBeTruthy();
    const res = await t.call('GET', `/dicom-web/studies/${mr.studyInstanceUid}`, { token: tech });
    expect(res.statusCode).toBe(200);
    const parts = parseMultipart(res.rawPayload, boundaryOf(res.headers['content-type'] as string)!);
    expect(parts.map((p) => b64(p.body)).sort()).toEqual(mr.instances.map((i) => b64(i.bytes)).sort());
  });
});
