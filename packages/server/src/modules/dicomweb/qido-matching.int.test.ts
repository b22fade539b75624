import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buckets } from '../../db/schema.js';
import { generateStudy, SOP_CLASS, type GeneratedStudy } from '../../dicom/testdata/generate.js';
import { startArchiveApp } from '../../test/factories-archive.js';
import type { TestApp } from '../../test/harness.js';
import { injectStow } from '../../test/stow.js';
import { parseSearchQuery } from './qido-query.js';
import { instancesQuery, seriesQuery, studiesQuery } from './qido.store.js';

/**
 * Issue 20 item 10: every QIDO-RS matching key is applied at every level, or the search is
 * refused (400 with a Warning) — never answered with a broader result; item 11: person names
 * answered by component group.
 */
let t: TestApp;
let doctor: string;
let a: GeneratedStudy;
let b: GeneratedStudy;

type Json = Record<string, { vr: string; Value?: unknown[] }>[];

function get(url: string) {
  return t.app.inject({ method: 'GET', url: `/dicom-web/${url}`, headers: { authorization: `Bearer ${doctor}` } });
}

/** The values of one attribute over a search's results ([] for 204). */
async function values(url: string, tag: string): Promise<unknown[]> {
  const res = await get(url);
  expect([200, 204], `${url}: ${res.body}`).toContain(res.statusCode);
  return res.statusCode === 204 ? [] : (res.json() as Json).map((r) => r[tag]?.Value?.[0]);
}

const sorted = (xs: unknown[]) => [...xs].map(String).sort();

beforeAll(async () => {
  const { t: app, rad } = await startArchiveApp();
  t = app;
  const tech = rad.tech.token;
  doctor = rad.doctor.token;
  a = generateStudy({
    modality: 'CT',
    series: 2,
    instancesPerSeries: 2,
    rows: 16,
    columns: 16,
    charset: 'ISO_IR 192',
    patientName: 'Zhang^Wei=张^伟=',
    patientId: 'QM-A',
    studyDate: '20250301',
    studyTime: '083000',
    accessionNumber: 'ACC-QM-A',
    referringPhysicianName: 'LI^HUA',
  });
  b = generateStudy({
    modality: 'MR',
    instancesPerSeries: 3,
    rows: 16,
    columns: 16,
    patientName: 'Wang^Fang',
    patientId: 'QM-B',
    studyDate: '20250315',
    studyTime: '161500.25',
    accessionNumber: 'ACC-QM-B',
    referringPhysicianName: 'ZHAO^MIN',
  });
  for (const s of [a, b]) {
    const res = await injectStow(
      t,
      tech,
      s.instances.map((i) => i.bytes),
    );
    expect(res.statusCode).toBe(200);
  }
});
afterAll(async () => {
  await t.close();
});

const seriesOf = (s: GeneratedStudy) => sorted([...new Set(s.instances.map((i) => i.seriesInstanceUid))]);
const sopsOf = (s: GeneratedStudy) => sorted(s.instances.map((i) => i.sopInstanceUid));

describe('QIDO-RS: study-level keys at every level', () => {
  it('/series and /instances answer only the patient or the date asked for', async () => {
    expect(sorted(await values('series?PatientID=QM-A', '0020000E'))).toEqual(seriesOf(a));
    expect(sorted(await values('series?00100020=QM-B', '0020000E'))).toEqual(seriesOf(b));
    expect(sorted(await values('instances?PatientID=QM-B', '00080018'))).toEqual(sopsOf(b));
    expect(sorted(await values('series?StudyDate=20250301', '0020000E'))).toEqual(seriesOf(a));
    expect(sorted(await values('instances?StudyDate=20250310-20250320', '00080018'))).toEqual(sopsOf(b));
    expect(await values('series?PatientID=NOBODY', '0020000E')).toEqual([]);
    // Within a study's path, a study key of another patient matches nothing.
    expect(await values(`studies/${a.studyInstanceUid}/series?PatientID=QM-B`, '0020000E')).toEqual([]);
  });

  it('StudyTime, AccessionNumber, ReferringPhysicianName, ModalitiesInStudy, StudyInstanceUID lists', async () => {
    const study = (q: string) => values(`studies?${q}`, '00100020');
    expect(await study('StudyTime=0800-0900&PatientID=QM-*')).toEqual(['QM-A']);
    expect(await study('StudyTime=1615-&PatientID=QM-*')).toEqual(['QM-B']);
    expect(await study('StudyTime=161500&PatientID=QM-*')).toEqual(['QM-B']); // the fraction does not count
    expect(await study('AccessionNumber=ACC-QM-B')).toEqual(['QM-B']);
    expect(await study('ReferringPhysicianName=li*')).toEqual(['QM-A']);
    expect(await study('ModalitiesInStudy=MR&PatientID=QM-*')).toEqual(['QM-B']);
    expect(sorted(await study(`StudyInstanceUID=${a.studyInstanceUid},${b.studyInstanceUid}`))).toEqual([
      'QM-A',
      'QM-B',
    ]);
    expect(sorted(await values(`instances?PatientID=QM-*&ModalitiesInStudy=CT`, '00080018'))).toEqual(sopsOf(a));
  });
});

describe('QIDO-RS: series and instance keys', () => {
  it('Modality, SeriesNumber, SeriesInstanceUID, SOPClassUID, SOPInstanceUID, InstanceNumber', async () => {
    expect(sorted(await values('series?Modality=MR&PatientID=QM-*', '0020000E'))).toEqual(seriesOf(b));
    expect(await values(`studies/${a.studyInstanceUid}/series?SeriesNumber=2`, '00200011')).toEqual([2]);
    const one = a.instances[3]!;
    expect(await values(`instances?SeriesInstanceUID=${one.seriesInstanceUid}`, '00080018')).toHaveLength(2);
    expect(sorted(await values(`instances?SOPClassUID=${SOP_CLASS.MR}&PatientID=QM-*`, '00080018'))).toEqual(sopsOf(b));
    expect(await values(`instances?SOPInstanceUID=${one.sopInstanceUid}`, '00080018')).toEqual([one.sopInstanceUid]);
    expect(
      await values(
        `studies/${b.studyInstanceUid}/series/${b.instances[0]!.seriesInstanceUid}/instances?InstanceNumber=3`,
        '00200013',
      ),
    ).toEqual([3]);
    expect(sorted(await values(`instances?InstanceNumber=1&PatientID=QM-A`, '00080018'))).toEqual(
      sorted(a.instances.filter((i) => i.instanceNumber === 1).map((i) => i.sopInstanceUid)),
    );
  });
});

describe('QIDO-RS: person names', () => {
  it('match in any group, without regard to case, with * and ?', async () => {
    const names = (q: string) => values(`studies?${q}`, '00100020');
    expect(await names(`PatientName=${encodeURIComponent('张*')}`)).toEqual(['QM-A']);
    expect(await names('PatientName=zhang*')).toEqual(['QM-A']);
    expect(await names(`PatientName=${encodeURIComponent('Zhang^Wei')}`)).toEqual(['QM-A']);
    expect(await names(`PatientName=${encodeURIComponent('W?ng^Fang')}`)).toEqual(['QM-B']);
    expect(await names('PatientName=Wang')).toEqual([]); // single value matching is whole
  });

  it('are answered split into Alphabetic and Ideographic groups (PS3.18 F.2.2)', async () => {
    const [study] = (await get('studies?PatientID=QM-A')).json() as Json;
    expect(study!['00100010']).toEqual({ vr: 'PN', Value: [{ Alphabetic: 'Zhang^Wei', Ideographic: '张^伟' }] });
    expect(study!['00080090']).toEqual({ vr: 'PN', Value: [{ Alphabetic: 'LI^HUA' }] });
  });
});

describe('QIDO-RS: what it cannot apply is refused', () => {
  it('answers 400 with a Warning header, never a broader result', async () => {
    for (const url of [
      'series?PatientWeight=70',
      'instances?Foo=bar',
      'studies?SOPInstanceUID=1.2.3',
      'studies?Modality=CT',
      'series?PerformedProcedureStepStartDate=20250301',
      'series?StudyDate=yesterday',
      'instances?InstanceNumber=first',
      'studies?PatientID=QM-A&PatientID=QM-B',
      `studies/${a.studyInstanceUid}/series?SeriesInstanceUID=1.2.*`,
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.headers.warning, url).toMatch(/^299 yyp ".+"$/);
      expect(res.json(), url).toMatchObject({ code: 'ValidationError' });
    }
  });

  it('answers fuzzymatching=true literally, saying so in a Warning', async () => {
    const res = await get('studies?PatientID=QM-A&fuzzymatching=true');
    expect(res.statusCode).toBe(200);
    expect(res.headers.warning).toContain('fuzzymatching parameter is not supported');
    expect((res.json() as Json).map((s) => s['00100020']!.Value![0])).toEqual(['QM-A']);
  });
});

describe('QIDO-RS statements are index-backed for the common keys', () => {
  /** The plan of a statement with sequential scans discouraged: which indexes can serve it. */
  async function plan(query: { getSQL(): ReturnType<typeof sql> }): Promise<string> {
    const db = t.db.database.db;
    return db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const result = await tx.execute(sql`explain ${query.getSQL()}`);
      return (result as unknown as { rows: Record<string, string>[] }).rows.map((r) => Object.values(r)[0]).join('\n');
    });
  }

  it('PatientID, AccessionNumber, StudyDate, StudyInstanceUID, SeriesInstanceUID, SOPInstanceUID', async () => {
    const db = t.db.database.db;
    const scope = (await db.select({ id: buckets.id }).from(buckets)).map((r) => r.id);
    // An archive of some size (5,000 studies of 1,000 patients over ten years, no images), so
    // that the planner weighs an index against reading the table as it would in a hospital.
    await db.execute(sql`
      insert into exams (id, bucket_id, store_uid, patient_key_id, patient_name, patient_id, patient_gender,
        patient_dob, accession_number, study_date, study_time, study_desc, study_id, modality, body_part,
        institution, referring_physician, specific_character_set, source)
      select 'filler-' || n, ${scope[0]!}, '1.2.999.' || n, p.patient_key_id, 'FILLER^' || (n % 1000),
        'FILL-' || (n % 1000), 'O', '', 'FACC-' || n, to_char(date '2016-01-01' + (n % 3650), 'YYYYMMDD'),
        '120000', '', '', 'CT', '', '', '', '', 'stow'
      from generate_series(1, 5000) n, (select patient_key_id from exams limit 1) p`);
    await db.execute(sql`analyze exams`);
    const q = (level: 'study' | 'series' | 'instance', query: Record<string, string>) => parseSearchQuery(level, query);
    /** The key's condition bounds an index scan (an Index Cond), rather than filtering rows read. */
    const bounds = async (query: { getSQL(): ReturnType<typeof sql> }, condition: string) => {
      const lines = (await plan(query)).split('\n').filter((l) => l.includes('Index Cond'));
      expect(
        lines.some((l) => l.includes(condition)),
        `${condition} in\n${lines.join('\n')}`,
      ).toBe(true);
    };
    await bounds(studiesQuery(db, scope, q('study', { PatientID: 'QM-A' })), "patient_id = 'QM-A'");
    await bounds(studiesQuery(db, scope, q('study', { AccessionNumber: 'ACC-QM-A' })), "accession_number = 'ACC-QM-A'");
    await bounds(studiesQuery(db, scope, q('study', { StudyDate: '20250301-20250331' })), "study_date >= '20250301'");
    await bounds(studiesQuery(db, scope, q('study', { StudyInstanceUID: a.studyInstanceUid })), 'store_uid =');
    await bounds(seriesQuery(db, scope, q('series', { PatientID: 'QM-A' })), "patient_id = 'QM-A'");
    await bounds(seriesQuery(db, scope, q('series', { SeriesInstanceUID: '1.2.3' })), "series_uid = '1.2.3'");
    await bounds(instancesQuery(db, scope, q('instance', { SOPInstanceUID: '1.2.3' })), "sop_instance_uid = '1.2.3'");
    await bounds(instancesQuery(db, scope, q('instance', { PatientID: 'QM-B' })), "patient_id = 'QM-B'");
  });
});
