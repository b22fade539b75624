import { VIEWER_TOKEN_HEADER } from '@yyp/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exams } from '../../db/schema.js';
import type { GeneratedStudy } from '../../dicom/testdata/generate.js';
import { makePrivacyWorld, privacyStudy } from '../../test/factories-privacy.js';
import { startTestApp, type TestApp } from '../../test/harness.js';

/**
 * Issue 20 item 1 in DICOMweb: QIDO-RS, WADO-RS metadata, includefield attributes, retrieval and
 * bulk data follow the one privacy rule (contracts privateFieldsMasked) as the exam list and the
 * viewer do (test/factories-privacy.ts): the hospital keeps privacy off, the teleradiology
 * group turns it on; 审核医生 (expert) and 报告医生 (doctor) hold view_privacy, 远程阅片医生
 * (teledoctor) and 登记员 (registrar) do not.
 */
type Json = Record<string, { vr: string; Value?: unknown[]; BulkDataURI?: string }>;

let t: TestApp;
const tok: Record<string, string> = {};
const studies: Record<'hospital' | 'confidential' | 'tele', GeneratedStudy> = {} as never;

const NAME = '00100010';
const PATIENT_ID = '00100020';
const BIRTH_DATE = '00100030';
const ACCESSION = '00080050';

async function ingest(bucketId: string, patientName: string, patientId: string): Promise<GeneratedStudy> {
  const study = privacyStudy(patientName, patientId, {
    accessionNumber: `ACC-${patientId}`,
    patientBirthDate: '19680312',
  });
  await t.services.archive.ingest(bucketId, study.instances[0]!.bytes, 'web');
  return study;
}

function get(who: string, url: string) {
  return t.app.inject({ method: 'GET', url: `/dicom-web/${url}`, headers: { authorization: `Bearer ${tok[who]}` } });
}

async function json(who: string, url: string): Promise<Json[]> {
  const res = await get(who, url);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Json[];
}

const name = (j: Json) => (j[NAME]?.Value?.[0] as { Alphabetic?: string } | undefined)?.Alphabetic;
const value = (j: Json, tag: string) => j[tag]?.Value?.[0];
const instancePath = (s: GeneratedStudy) => {
  const i = s.instances[0]!;
  return `studies/${s.studyInstanceUid}/series/${i.seriesInstanceUid}/instances/${i.sopInstanceUid}`;
};

/** Every answer a caller reads of a study over DICOMweb that carries patient attributes. */
async function answers(who: string, s: GeneratedStudy): Promise<Json[]> {
  const i = s.instances[0]!;
  return [
    ...(await json(who, `studies?StudyInstanceUID=${s.studyInstanceUid}`)),
    ...(await json(who, `studies?StudyInstanceUID=${s.studyInstanceUid}&includefield=all`)),
    ...(await json(who, `series?StudyInstanceUID=${s.studyInstanceUid}&includefield=PatientName,PatientID`)),
    ...(await json(
      who,
      `studies/${s.studyInstanceUid}/series/${i.seriesInstanceUid}/instances?includefield=00100010&includefield=PatientID,AccessionNumber,PatientBirthDate`,
    )),
    ...(await json(who, `studies/${s.studyInstanceUid}/metadata`)),
    ...(await json(who, `${instancePath(s)}/metadata`)),
  ];
}

function expectMasked(all: Json[], patientId: string, maskedName: string) {
  expect(all).toHaveLength(6);
  for (const j of all) {
    expect(name(j)).toBe(maskedName);
    expect(String(value(j, PATIENT_ID))).not.toContain(patientId.slice(2, -2));
    expect(String(value(j, PATIENT_ID))).toMatch(/\*/);
    expect(value(j, BIRTH_DATE)).toBeUndefined();
    if (ACCESSION in j) expect(String(value(j, ACCESSION))).toMatch(/\*/);
    expect(JSON.stringify(j)).not.toContain(patientId);
    expect(JSON.stringify(j)).not.toContain('19680312');
  }
}

function expectShown(all: Json[], patientId: string, fullName: string) {
  expect(all).toHaveLength(6);
  for (const j of all) {
    expect(name(j)).toBe(fullName);
    expect(value(j, PATIENT_ID)).toBe(patientId);
    // (the series search asks only for the name and the ID)
    if (!('00201209' in j)) expect(value(j, BIRTH_DATE)).toBe('19680312');
    if (ACCESSION in j) expect(value(j, ACCESSION)).toBe(`ACC-${patientId}`);
  }
}

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  const db = t.db.database.db;
  const world = await makePrivacyWorld(t, ['doctor', 'registrar', 'teledoctor', 'expert']);
  const [rad, tele] = [world.hospital.org.bucketId, world.tele.org.bucketId];
  studies.hospital = await ingest(rad, '张^伟', 'DWP-0000001');
  studies.confidential = await ingest(rad, '李^秘', 'DWP-0000002');
  await db.update(exams).set({ isPrivacy: true }).where(eq(exams.storeUid, studies.confidential.studyInstanceUid));
  studies.tele = await ingest(tele, '赵^小磊', 'DWP-0000003');
  Object.assign(tok, world.tok);
});
afterAll(async () => {
  await t.close();
});

describe('privacy on (the teleradiology group)', () => {
  it('masks QIDO-RS, includefield and WADO-RS metadata for a member without view_privacy (远程阅片医生)', async () => {
    expectMasked(await answers('teledoctor', studies.tele), 'DWP-0000003', '赵*磊');
  });

  it('refuses the stored files and the raw private values to it (403), and still serves the frames', async () => {
    const s = studies.tele;
    const i = s.instances[0]!;
    for (const url of [
      `studies/${s.studyInstanceUid}`,
      `studies/${s.studyInstanceUid}/series/${i.seriesInstanceUid}`,
      instancePath(s),
      `${instancePath(s)}/bulkdata/${NAME}`,
      `${instancePath(s)}/bulkdata/${PATIENT_ID.toLowerCase()}`,
      `${instancePath(s)}/bulkdata/${BIRTH_DATE}`,
    ]) {
      const res = await get('teledoctor', url);
      expect(res.statusCode, url).toBe(403);
      expect(res.body).not.toContain('DWP-0000003');
      expect(res.json()).toMatchObject({ details: { action: 'view_privacy' } });
    }
    const frames = await get('teledoctor', `${instancePath(s)}/frames/1`);
    expect(frames.statusCode, frames.body).toBe(200);
    // A study of another organization is still not found, not refused.
    expect((await get('teledoctor', `studies/${studies.hospital.studyInstanceUid}`)).statusCode).toBe(404);
  });

  it('shows everything to a member holding view_privacy (审核医生), files included', async () => {
    expectShown(await answers('expert', studies.tele), 'DWP-0000003', '赵^小磊');
    const file = await get('expert', instancePath(studies.tele));
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.includes(Buffer.from('DWP-0000003'))).toBe(true);
    const bulk = await get('expert', `${instancePath(studies.tele)}/bulkdata/${PATIENT_ID}`);
    expect(bulk.statusCode).toBe(200);
    expect(bulk.rawPayload.includes(Buffer.from('DWP-0000003'))).toBe(true);
  });
});

describe("the viewer's bulk data (its own path, masked as its metadata is)", () => {
  async function viewerBulk(who: string, s: GeneratedStudy, tag: string) {
    const [exam] = await t.db.database.db.select().from(exams).where(eq(exams.storeUid, s.studyInstanceUid));
    const path = await t.call('POST', `viewers/${exam!.id}/path`, { token: tok[who]!, body: { reportId: exam!.id } });
    expect(path.statusCode, path.body).toBe(200);
    return t.call('GET', `viewer/${instancePath(s)}/bulkdata/${tag}`, {
      headers: { [VIEWER_TOKEN_HEADER]: (path.json() as { openpath: string }).openpath },
    });
  }

  it('refuses a masked context the raw patient name and ID, and gives them to one with view_privacy', async () => {
    for (const tag of [NAME, PATIENT_ID]) {
      const refused = await viewerBulk('teledoctor', studies.tele, tag);
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.body).not.toContain('DWP-0000003');
    }
    const shown = await viewerBulk('expert', studies.tele, PATIENT_ID);
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.rawPayload.includes(Buffer.from('DWP-0000003'))).toBe(true);
  });
});

describe('privacy off (the hospital group)', () => {
  it('shows a reader without view_privacy (登记员) the patient, in answers and files', async () => {
    expectShown(await answers('registrar', studies.hospital), 'DWP-0000001', '张^伟');
    expect((await get('registrar', `studies/${studies.hospital.studyInstanceUid}`)).statusCode).toBe(200);
  });

  it('keeps a confidential exam masked without view_privacy, files refused, and shows it with view_privacy', async () => {
    expectMasked(await answers('registrar', studies.confidential), 'DWP-0000002', '李*');
    expect((await get('registrar', `studies/${studies.confidential.studyInstanceUid}`)).statusCode).toBe(403);
    expectShown(await answers('doctor', studies.confidential), 'DWP-0000002', '李^秘');
    expect((await get('doctor', `studies/${studies.confidential.studyInstanceUid}`)).statusCode).toBe(200);
  });

  it('masks the one confidential study of a search and leaves the others as they are', async () => {
    const found = await json('registrar', 'studies?PatientID=DWP-*&includefield=PatientBirthDate');
    const byUid = new Map(found.map((j) => [value(j, '0020000D'), j]));
    expect(name(byUid.get(studies.hospital.studyInstanceUid)!)).toBe('张^伟');
    expect(name(byUid.get(studies.confidential.studyInstanceUid)!)).toBe('李*');
    expect(byUid.has(studies.tele.studyInstanceUid)).toBe(false);
  });
});
