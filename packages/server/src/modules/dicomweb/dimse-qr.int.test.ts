import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs } from '../../db/schema.js';
import { TAG, commandUs } from '../../dicom/dimse-command.js';
import { DatasetBuilder, EXPLICIT_VR_LE, IMPLICIT_VR_LE } from '../../dicom/dataset-writer.js';
import { rewriteLittleEndian } from '../../dicom/transcode.js';
import { part10Dataset } from '../../dicom/part10.js';
import { QR_SOP_CLASS } from '../../dicom/qr.js';
import { generateStudy, type GeneratedStudy } from '../../dicom/testdata/generate.js';
import { dumpValue, findscu, retrieve, startStorescp, valuesOf } from '../../dicom/testdata/qrscu.js';
import { TestScu } from '../../dicom/testdata/scu.js';
import { startTestDimse } from '../../test/dimse.js';
import { makeModality, makeOrganization } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';

let t: TestApp;
let dimse: { close(): void; port: number };
let dir: string;
let orgA: string;
let orgB: string;
let storescp: Awaited<ReturnType<typeof startStorescp>>;
/** The workstation of organization A (registered with host and port: a C-MOVE destination) and B's. */
const WS = 'WS_A';
const WS_B = 'WS_B';
let yesterdayCt: GeneratedStudy;
let olderMr: GeneratedStudy;
let otherPatient: GeneratedStudy;
let orgBStudy: GeneratedStudy;

async function store(bucketId: string, study: GeneratedStudy) {
  for (const i of study.instances) await t.services.archive.ingest(bucketId, i.bytes, 'dimse');
}

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-qr-'));
  ({ bucketId: orgA } = await makeOrganization(t));
  ({ bucketId: orgB } = await makeOrganization(t));
  storescp = await startStorescp(path.join(dir, 'received'), WS);
  await makeModality(t, orgA, { aeTitle: WS, host: '127.0.0.1', port: storescp.port });
  await makeModality(t, orgA, { aeTitle: 'NOWHERE', host: '127.0.0.1', port: 1 });
  await makeModality(t, orgB, { aeTitle: WS_B, host: '127.0.0.1' });
  const base = { rows: 32, columns: 32 } as const;
  yesterdayCt = generateStudy({
    ...base,
    modality: 'CT',
    series: 2,
    instancesPerSeries: 3,
    patientName: 'ZHANG^WEI',
    patientId: 'P-QR-1',
    studyDate: '20261128',
    accessionNumber: 'ACC-QR-1',
  });
  olderMr = generateStudy({
    ...base,
    modality: 'MR',
    instancesPerSeries: 2,
    patientName: 'ZHANG^WEI',
    patientId: 'P-QR-1',
    studyDate: '20260101',
  });
  otherPatient = generateStudy({
    ...base,
    modality: 'CT',
    instancesPerSeries: 1,
    patientName: 'LI^NA',
    patientId: 'P-QR-2',
    studyDate: '20261128',
  });
  orgBStudy = generateStudy({
    ...base,
    modality: 'CT',
    instancesPerSeries: 2,
    patientName: 'ZHANG^WEI',
    patientId: 'P-QR-1',
    studyDate: '20261128',
  });
  await store(orgA, yesterdayCt);
  await store(orgA, olderMr);
  await store(orgA, otherPatient);
  await store(orgB, orgBStudy);
  dimse = await startTestDimse(t);
});
afterAll(async () => {
  dimse.close();
  storescp.stop();
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A C-FIND, C-MOVE or C-GET request from TestScu on one Q/R context, answering its responses' statuses and commands. */
async function exchange(
  aet: string,
  sopClass: string,
  identifier: DatasetBuilder,
  command: 'find' | 'move',
  moveTo?: string,
) {
  const scu = await TestScu.associate(dimse.port, {
    callingAe: aet,
    contexts: [{ id: 1, abstractSyntax: sopClass, transferSyntaxes: [EXPLICIT_VR_LE] }],
  });
  scu.send(
    1,
    {
      commandField: command === 'find' ? 0x0020 : 0x0021,
      affectedSopClassUid: sopClass,
      priority: 0,
      ...(moveTo !== undefined ? { moveDestination: moveTo } : {}),
    },
    identifier.toBuffer(true),
  );
  const responses = await scu.responsesUntilFinal(15_000);
  await scu.release();
  return responses;
}

const studyLevel = (keys: (ds: DatasetBuilder) => DatasetBuilder) =>
  keys(new DatasetBuilder('').text(0x00080052, 'CS', 'STUDY'));

describe('Query/Retrieve C-FIND (findscu as the workstation)', () => {
  it("finds yesterday's CT of a patient by name and date, in the calling AE's organization only", async () => {
    const answers = await findscu(dir, dimse.port, WS, '-S', [
      'QueryRetrieveLevel=STUDY',
      'PatientName=ZHANG*',
      'StudyDate=20261128',
      'StudyInstanceUID',
      'ModalitiesInStudy',
      'NumberOfStudyRelatedInstances',
      'AccessionNumber',
      'PatientID',
      'RetrieveAETitle',
      'InstitutionName',
    ]);
    expect(answers).toHaveLength(1);
    const [a] = answers;
    expect(dumpValue(a!, '0020,000d')).toBe(yesterdayCt.studyInstanceUid);
    expect(dumpValue(a!, '0008,0061')).toBe('CT');
    expect(dumpValue(a!, '0020,1208')).toBe('6');
    expect(dumpValue(a!, '0008,0050')).toBe('ACC-QR-1');
    expect(dumpValue(a!, '0010,0020')).toBe('P-QR-1');
    expect(dumpValue(a!, '0008,0054')).toBe('YYP');
    // A key yyp does not keep is answered empty, present.
    expect(a).toMatch(/\(0008,0080\) LO (\(no value available\)|\[\])/);
  });

  it('matches person names with case by default, and date ranges and wildcards', async () => {
    expect(await findscu(dir, dimse.port, WS, '-S', ['QueryRetrieveLevel=STUDY', 'PatientName=zhang*'])).toHaveLength(
      0,
    );
    const all = await findscu(dir, dimse.port, WS, '-S', [
      'QueryRetrieveLevel=STUDY',
      'PatientName=ZHANG^WEI',
      'StudyDate=20260101-20261231',
      'StudyInstanceUID',
    ]);
    expect(valuesOf(all, '0020,000d').sort()).toEqual([yesterdayCt.studyInstanceUid, olderMr.studyInstanceUid].sort());
    const byId = await findscu(dir, dimse.port, WS, '-S', [
      'QueryRetrieveLevel=STUDY',
      'PatientID=P-QR-?',
      'StudyInstanceUID',
    ]);
    expect(byId).toHaveLength(3);
    const list = await findscu(dir, dimse.port, WS, '-S', [
      'QueryRetrieveLevel=STUDY',
      `StudyInstanceUID=${olderMr.studyInstanceUid}\\${otherPatient.studyInstanceUid}`,
    ]);
    expect(list).toHaveLength(2);
  });

  it('answers the patient level of the Patient Root model with its counts', async () => {
    const answers = await findscu(dir, dimse.port, WS, '-P', [
      'QueryRetrieveLevel=PATIENT',
      'PatientID=P-QR-1',
      'PatientName',
      'NumberOfPatientRelatedStudies',
      'NumberOfPatientRelatedInstances',
    ]);
    expect(answers).toHaveLength(1);
    expect(dumpValue(answers[0]!, '0010,0010')).toBe('ZHANG^WEI');
    expect(dumpValue(answers[0]!, '0020,1200')).toBe('2');
    expect(dumpValue(answers[0]!, '0020,1204')).toBe('8');
  });

  it('answers series and image levels within a study and a series', async () => {
    const series = await findscu(dir, dimse.port, WS, '-S', [
      'QueryRetrieveLevel=SERIES',
      `StudyInstanceUID=${yesterdayCt.studyInstanceUid}`,
      'SeriesInstanceUID',
      'Modality',
      'NumberOfSeriesRelatedInstances',
    ]);
    expect(series).toHaveLength(2);
    expect(valuesOf(series, '0008,0060')).toEqual(['CT', 'CT']);
    expect(valuesOf(series, '0020,1209')).toEqual(['3', '3']);
    const first = yesterdayCt.instances[0]!;
    const images = await findscu(dir, dimse.port, WS, '-P', [
      'QueryRetrieveLevel=IMAGE',
      'PatientID=P-QR-1',
      `StudyInstanceUID=${yesterdayCt.studyInstanceUid}`,
      `SeriesInstanceUID=${first.seriesInstanceUid}`,
      'SOPInstanceUID',
      'SOPClassUID',
      'Rows',
    ]);
    const expected = yesterdayCt.instances.filter((i) => i.seriesInstanceUid === first.seriesInstanceUid);
    expect(valuesOf(images, '0008,0018').sort()).toEqual(expected.map((i) => i.sopInstanceUid).sort());
    expect(images[0]).toMatch(/\(0028,0010\) US 32/);
  });

  it("finds nothing of another organization's AE and refuses malformed identifiers with 0xA900", async () => {
    const other = await findscu(dir, dimse.port, WS_B, '-S', [
      'QueryRetrieveLevel=STUDY',
      'PatientID=P-QR-1',
      'StudyInstanceUID',
    ]);
    expect(valuesOf(other, '0020,000d')).toEqual([orgBStudy.studyInstanceUid]);
    const badDate = await exchange(
      WS,
      QR_SOP_CLASS.studyRootFind,
      studyLevel((ds) => ds.text(0x00080020, 'DA', '2026XX01')),
      'find',
    );
    expect(badDate.map((r) => r.status)).toEqual([0xa900]);
    const lowerKey = await exchange(
      WS,
      QR_SOP_CLASS.studyRootFind,
      studyLevel((ds) => ds.text(0x00080060, 'CS', 'CT')),
      'find',
    );
    expect(lowerKey.map((r) => r.status)).toEqual([0xa900]);
    const patientInStudyRoot = await exchange(
      WS,
      QR_SOP_CLASS.studyRootFind,
      new DatasetBuilder('').text(0x00080052, 'CS', 'PATIENT'),
      'find',
    );
    expect(patientInStudyRoot.map((r) => r.status)).toEqual([0xa900]);
  });

  it('audits every query with the calling AE and the exams it disclosed', async () => {
    const rows = await t.db.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'dimse.find'), eq(auditLogs.bucketId, orgA)));
    expect(rows.length).toBeGreaterThanOrEqual(5);
    expect(rows.every((r) => r.actorUsername === WS && r.ip === '127.0.0.1')).toBe(true);
    const named = rows.find((r) => (r.details as { results: number }).results === 1 && r.targetId);
    expect(named).toBeDefined();
  });
});

describe('Query/Retrieve C-MOVE and C-GET', () => {
  it('moves a study to the registered workstation (storescp), byte for byte as stored, and audits it', async () => {
    const before = storescp.files().length;
    const moved = await retrieve('movescu', dimse.port, WS, [
      '-S',
      '-aem',
      WS,
      '-k',
      'QueryRetrieveLevel=STUDY',
      '-k',
      `StudyInstanceUID=${yesterdayCt.studyInstanceUid}`,
    ]);
    expect(moved.ok, moved.log).toBe(true);
    expect(moved.log).toMatch(/Final Move Response \(Success\)/);
    const files = storescp.files();
    expect(files.length - before).toBe(6);
    const received = new Map(
      files.map((f) => {
        const ds = part10Dataset(fs.readFileSync(path.join(dir, 'received', f)));
        return [ds.sopInstanceUid, ds.dataset] as const;
      }),
    );
    for (const i of yesterdayCt.instances) {
      expect(received.get(i.sopInstanceUid)?.equals(part10Dataset(i.bytes).dataset)).toBe(true);
    }
    const [row] = await t.db.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'dimse.retrieve'), eq(auditLogs.bucketId, orgA)));
    expect(row?.details).toMatchObject({ operation: 'move', destination: WS, completed: 6, failed: 0 });
  });

  it('refuses an unknown destination (0xA801) and reports failures when the destination cannot be reached (0xA702)', async () => {
    const ident = () => studyLevel((ds) => ds.text(0x0020000d, 'UI', otherPatient.studyInstanceUid));
    const unknown = await exchange(WS, QR_SOP_CLASS.studyRootMove, ident(), 'move', 'STRANGER');
    expect(unknown.map((r) => r.status)).toEqual([0xa801]);
    // Another organization's device is no destination either.
    const foreign = await exchange(WS, QR_SOP_CLASS.studyRootMove, ident(), 'move', WS_B);
    expect(foreign.map((r) => r.status)).toEqual([0xa801]);
    const unreachable = await exchange(WS, QR_SOP_CLASS.studyRootMove, ident(), 'move', 'NOWHERE');
    expect(unreachable.map((r) => r.status)).toEqual([0xa702]);
    expect(commandUs(unreachable[0]!.command, TAG.failed)).toBe(1);
  });

  it("retrieves nothing of another organization's study", async () => {
    const before = storescp.files().length;
    const responses = await exchange(
      WS,
      QR_SOP_CLASS.studyRootMove,
      studyLevel((ds) => ds.text(0x0020000d, 'UI', orgBStudy.studyInstanceUid)),
      'move',
      WS,
    );
    expect(responses.map((r) => r.status)).toEqual([0x0000]);
    expect(commandUs(responses[0]!.command, TAG.completed)).toBe(0);
    expect(storescp.files().length).toBe(before);
  });

  it('sends an instance stored in implicit VR in the explicit syntax a peer chose (C-MOVE and C-GET), the same data set', async () => {
    const implicit = generateStudy({
      modality: 'CT',
      instancesPerSeries: 2,
      rows: 32,
      columns: 32,
      transferSyntax: IMPLICIT_VR_LE,
    });
    for (const i of implicit.instances) await t.services.archive.ingest(orgA, i.bytes, 'dimse');
    const expected = new Map(implicit.instances.map((i) => [i.sopInstanceUid, part10Dataset(i.bytes).dataset]));
    const before = new Set(storescp.files());
    const moved = await retrieve('movescu', dimse.port, WS, [
      '-S',
      '-aem',
      WS,
      '-k',
      'QueryRetrieveLevel=STUDY',
      '-k',
      `StudyInstanceUID=${implicit.studyInstanceUid}`,
    ]);
    expect(moved.ok, moved.log).toBe(true);
    const out = path.join(dir, 'get-implicit');
    fs.mkdirSync(out);
    const got = await retrieve('getscu', dimse.port, WS, [
      '-S',
      '-od',
      out,
      '-k',
      'QueryRetrieveLevel=STUDY',
      '-k',
      `StudyInstanceUID=${implicit.studyInstanceUid}`,
    ]);
    expect(got.ok, got.log).toBe(true);
    const received = [
      ...storescp
        .files()
        .filter((f) => !before.has(f))
        .map((f) => path.join(dir, 'received', f)),
      ...fs.readdirSync(out).map((f) => path.join(out, f)),
    ];
    expect(received).toHaveLength(4);
    for (const file of received) {
      const ds = part10Dataset(fs.readFileSync(file));
      // Both peers chose explicit VR: what they hold is the stored data set, rewritten without loss.
      expect(ds.transferSyntaxUid).toBe(EXPLICIT_VR_LE);
      expect(
        rewriteLittleEndian(ds.dataset, EXPLICIT_VR_LE, IMPLICIT_VR_LE).equals(expected.get(ds.sopInstanceUid)!),
      ).toBe(true);
    }
  });

  it('gets a series on the same association (getscu)', async () => {
    const out = path.join(dir, 'get');
    fs.mkdirSync(out);
    const series = yesterdayCt.instances[3]!.seriesInstanceUid;
    const got = await retrieve('getscu', dimse.port, WS, [
      '-S',
      '-od',
      out,
      '-k',
      'QueryRetrieveLevel=SERIES',
      '-k',
      `StudyInstanceUID=${yesterdayCt.studyInstanceUid}`,
      '-k',
      `SeriesInstanceUID=${series}`,
    ]);
    expect(got.ok, got.log).toBe(true);
    const files = fs.readdirSync(out);
    expect(files).toHaveLength(3);
    const uids = files.map((f) => part10Dataset(fs.readFileSync(path.join(out, f))).sopInstanceUid).sort();
    expect(uids).toEqual(
      yesterdayCt.instances
        .filter((i) => i.seriesInstanceUid === series)
        .map((i) => i.sopInstanceUid)
        .sort(),
    );
  });
});
