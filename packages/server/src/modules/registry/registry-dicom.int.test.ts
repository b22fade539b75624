import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ExamPage, Registration } from '@yyp/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exams, scheduledExams } from '../../db/schema.js';
import { DatasetBuilder, tag } from '../../dicom/dataset-writer.js';
import { MPPS_SOP_CLASS, MPPS_TAG } from '../../dicom/mpps.js';
import { mppsInProgress } from '../../dicom/testdata/mpps.js';
import { generateStudy, writeStudy } from '../../dicom/testdata/generate.js';
import { dumpValue, findscuWorklist, worklistQueryFile } from '../../dicom/testdata/findscu.js';
import { TestScu } from '../../dicom/testdata/scu.js';
import { COMMAND } from '../../dicom/dimse-command.js';
import { startTestDimse } from '../../test/dimse.js';
import { dayFromNow, makeDesk, makeDevice, makeProcedure, register, type Desk } from '../../test/factories-registry.js';
import { startTestApp, type TestApp } from '../../test/harness.js';

/**
 * The schedule reaches the modalities (issue 22): DCMTK's findscu -W asks the worklist as the CT,
 * the project's test SCU sends its MPPS, storescu stores the study, and the registry's scheduled
 * exam moves Scheduled → Arrived → Performed and lands on the stored exam.
 */
const run = promisify(execFile);
const MPPS_CONTEXT = { id: 1, abstractSyntax: MPPS_SOP_CLASS, transferSyntaxes: ['1.2.840.10008.1.2'] }; // Implicit VR LE

let t: TestApp;
let desk: Desk;
let other: Desk;
let dimse: { close(): void; port: number };
let dir: string;
let ct: Registration;
let utf8: Registration;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  desk = await makeDesk(t, { name: '放射科' });
  other = await makeDesk(t);
  await makeDevice(t, desk.org.bucketId, { aeTitle: 'CT_ROOM1', modality: 'CT', charset: 'GB18030' });
  await makeDevice(t, desk.org.bucketId, { aeTitle: 'MR_ROOM1', modality: 'MR' });
  await makeDevice(t, desk.org.bucketId, { aeTitle: 'US_ROOM1', modality: 'US' });
  await makeDevice(t, other.org.bucketId, { aeTitle: 'OTHER_CT', modality: 'CT' });
  const procedure = await makeProcedure(t, desk.org.bucketId, {
    modality: 'CT',
    name: '胸部CT平扫',
    aeTitle: 'CT_ROOM1',
  });
  ct = await register(
    t,
    desk.registrar.token,
    desk.org.bucketId,
    [{ procedureId: procedure, scheduledTime: '08:30' }],
    {
      patient: { name: '王^小东', gender: 'M', birthDate: '19810615' },
    },
  );
  // No station: any MR of the organization may take it; its worklist answers in UTF-8.
  utf8 = await register(
    t,
    desk.registrar.token,
    desk.org.bucketId,
    [{ modality: 'MR', scheduledDate: dayFromNow(t, 3) }],
    {
      patient: { name: 'Müller^Jörg', gender: 'M' },
    },
  );
  await register(t, other.registrar.token, other.org.bucketId, [{ modality: 'CT' }], {
    patient: { name: '别^人', gender: 'F' },
  });
  dimse = await startTestDimse(t, { host: '127.0.0.1' });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-registry-dicom-'));
});
afterAll(async () => {
  dimse.close();
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A worklist query file (dump2dcm) asking the usual return keys, for a date (YYYYMMDD or a range). */
async function queryFile(name: string, date: string, patientName = ''): Promise<string> {
  const dump = [
    '(0008,0005) CS [ISO_IR 192]',
    `(0010,0010) PN [${patientName}]`,
    '(0010,0020) LO []',
    '(0010,0030) DA []',
    '(0008,0050) SH []',
    '(0020,000d) UI []',
    '(0032,1060) LO []',
    '(0040,1001) SH []',
    '(0040,0100) SQ',
    '(fffe,e000) -',
    '(0008,0060) CS []',
    '(0040,0001) AE []',
    `(0040,0002) DA [${date}]`,
    '(0040,0003) TM []',
    '(0040,0009) SH []',
    '(0040,0020) CS []',
    '(fffe,e00d) -',
    '(fffe,e0dd) -',
  ];
  return worklistQueryFile(dir, name, dump, 'ISO_IR 192');
}

/** findscu -W as `aet` (see dicom/testdata/findscu.ts). */
const worklist = (aet: string, query: string) => findscuWorklist(dir, dimse.port, aet, query);
const valueOf = dumpValue;
const da = (iso: string) => iso.replace(/-/g, '');
const scheduled = async (id: string) =>
  (await t.db.database.db.select().from(scheduledExams).where(eq(scheduledExams.id, id)))[0]!;

describe('Modality Worklist (findscu -W)', () => {
  it("answers the CT its own scheduled exam of that day, in the device's GB18030", async () => {
    const tomorrow = da(dayFromNow(t, 1));
    const rsp = await worklist('CT_ROOM1', await queryFile('ct', tomorrow));
    expect(rsp).toHaveLength(1);
    const { dump, charset } = rsp[0]!;
    const exam = ct.exams[0]!;
    expect(charset).toBe('GB18030');
    expect(valueOf(dump, '0010,0010')).toBe('王^小东');
    expect(valueOf(dump, '0010,0020')).toBe(ct.patient.patientId);
    expect(valueOf(dump, '0010,0030')).toBe('19810615');
    expect(valueOf(dump, '0008,0050')).toBe(exam.accessionNumber);
    expect(valueOf(dump, '0020,000d')).toBe(exam.studyInstanceUid);
    expect(valueOf(dump, '0032,1060')).toBe('胸部CT平扫');
    expect(valueOf(dump, '0040,1001')).toBe(exam.accessionNumber);
    expect(valueOf(dump, '0008,0060')).toBe('CT');
    expect(valueOf(dump, '0040,0001')).toBe('CT_ROOM1');
    expect(valueOf(dump, '0040,0002')).toBe(tomorrow);
    expect(valueOf(dump, '0040,0003')).toBe('083000');
    expect(valueOf(dump, '0040,0009')).toBe(`S${exam.accessionNumber}`);
    expect(valueOf(dump, '0040,0020')).toBe('SCHEDULED');
    // Another day, another device of the organization, another organization's device: nothing.
    expect(await worklist('CT_ROOM1', await queryFile('ct-today', da(dayFromNow(t))))).toEqual([]);
    expect(await worklist('US_ROOM1', await queryFile('us', tomorrow))).toEqual([]);
    expect(await worklist('OTHER_CT', await queryFile('other', tomorrow))).toHaveLength(1);
    expect(valueOf((await worklist('OTHER_CT', await queryFile('other2', tomorrow)))[0]!.dump, '0010,0010')).toBe(
      '别^人',
    );
  });

  it('gives an exam without a station to the devices of its modality, over a date range, in UTF-8', async () => {
    const range = `${da(dayFromNow(t))}-${da(dayFromNow(t, 7))}`;
    const rsp = await worklist('MR_ROOM1', await queryFile('mr', range));
    expect(rsp).toHaveLength(1);
    expect(rsp[0]!.charset).toBe('ISO_IR 192');
    expect(valueOf(rsp[0]!.dump, '0010,0010')).toBe('Müller^Jörg');
    // A device of another modality is not given it.
    expect(await worklist('US_ROOM1', await queryFile('us-range', range))).toEqual([]);
    expect(valueOf(rsp[0]!.dump, '0008,0050')).toBe(utf8.exams[0]!.accessionNumber);
    expect(await worklist('MR_ROOM1', await queryFile('mr-name', range, 'WANG*'))).toEqual([]);
    expect(await worklist('MR_ROOM1', await queryFile('mr-wild', range, 'mü*'))).toHaveLength(1);
  });
});

describe('MPPS and the stored study', () => {
  it('moves the scheduled exam to Arrived, then Performed, and the stored study lands on it for the doctor', async () => {
    const exam = ct.exams[0]!;
    const pps = '1.2.826.0.1.3680043.10.1187.9.501';
    const scu = await TestScu.associate(dimse.port, { callingAe: 'CT_ROOM1', contexts: [MPPS_CONTEXT] });
    const create = {
      commandField: COMMAND.nCreateRq,
      affectedSopClassUid: MPPS_SOP_CLASS,
      affectedSopInstanceUid: pps,
    };
    const set = { commandField: COMMAND.nSetRq, requestedSopClassUid: MPPS_SOP_CLASS, requestedSopInstanceUid: pps };
    const attributes = mppsInProgress({
      charset: 'GB18030',
      patientName: '王^小东',
      patientId: ct.patient.patientId,
      station: 'CT_ROOM1',
      steps: [{ studyInstanceUid: exam.studyInstanceUid, accessionNumber: exam.accessionNumber }],
    }).toBuffer(false);
    scu.send(1, create, attributes);
    expect((await scu.responsesUntilFinal())[0]!.status).toBe(0x0000);
    expect(await scheduled(exam.id)).toMatchObject({ status: 'Arrived', mppsUid: pps, mppsStatus: 'IN PROGRESS' });
    // The same instance again, an unknown one, a step yyp did not schedule: refused.
    scu.send(1, create, attributes);
    expect((await scu.responsesUntilFinal())[0]!.status).toBe(0x0111);
    const completed = new DatasetBuilder().text(MPPS_TAG.status, 'CS', 'COMPLETED').toBuffer(false);
    scu.send(1, { ...set, requestedSopInstanceUid: '1.2.3.404' }, completed);
    expect((await scu.responsesUntilFinal())[0]!.status).toBe(0x0112);
    const unscheduled = mppsInProgress({ steps: [{ accessionNumber: 'NOT-OURS' }] }).toBuffer(false);
    scu.send(1, { ...create, affectedSopInstanceUid: '1.2.3.405' }, unscheduled);
    expect((await scu.responsesUntilFinal())[0]!.status).toBe(0x0110);

    scu.send(1, set, completed);
    expect((await scu.responsesUntilFinal())[0]!.status).toBe(0x0000);
    expect(await scheduled(exam.id)).toMatchObject({ status: 'Performed', mppsStatus: 'COMPLETED' });
    // Completed: no more changes.
    scu.send(
      1,
      set,
      new DatasetBuilder()
        .text(MPPS_TAG.status, 'CS', 'DISCONTINUED')
        .text(tag(0x0040, 0x0254), 'LO', 'x')
        .toBuffer(false),
    );
    expect((await scu.responsesUntilFinal())[0]!.status).toBe(0x0110);
    await scu.release();

    // The modality stores the study with the worklist's Study Instance UID and accession number.
    const study = generateStudy({
      modality: 'CT',
      instancesPerSeries: 2,
      rows: 16,
      columns: 16,
      patientName: '王^小东',
      charset: 'GB18030',
      patientId: ct.patient.patientId,
      accessionNumber: exam.accessionNumber,
      studyInstanceUid: exam.studyInstanceUid,
    });
    const files = await writeStudy(path.join(dir, 'study'), study);
    await run('storescu', ['-aet', 'CT_ROOM1', '-aec', 'YYP', '127.0.0.1', String(dimse.port), ...files]);
    await t.services.registryDicom.whenIdle();
    const row = await scheduled(exam.id);
    expect(row.examId).toBeTruthy();
    expect(row.status).toBe('Performed');
    const [stored] = await t.db.database.db.select().from(exams).where(eq(exams.id, row.examId!));
    expect(stored).toMatchObject({ patientSource: 'O', outpatientId: 'MZ-1', storeUid: exam.studyInstanceUid });
    // The doctor of the organization sees it on /studies.
    const page = (await t.as(desk.doctor.token).post('exams/page-query', {})).json() as ExamPage;
    expect(page.exams.map((e) => e.id)).toContain(row.examId);
  });

  it('performs a scheduled exam whose study arrives without MPPS (matched by accession number)', async () => {
    const reg = await register(t, desk.registrar.token, desk.org.bucketId, [{ modality: 'CT' }]);
    const exam = reg.exams[0]!;
    const study = generateStudy({
      modality: 'CT',
      instancesPerSeries: 1,
      rows: 16,
      columns: 16,
      accessionNumber: exam.accessionNumber,
    });
    const files = await writeStudy(path.join(dir, 'by-accession'), study);
    await run('storescu', ['-aet', 'CT_ROOM1', '-aec', 'YYP', '127.0.0.1', String(dimse.port), ...files]);
    await t.services.registryDicom.whenIdle();
    expect(await scheduled(exam.id)).toMatchObject({ status: 'Performed' });
    expect((await scheduled(exam.id)).examId).toBeTruthy();
    // Another organization's study with the same accession number does not land here.
    const elsewhere = await register(t, other.registrar.token, other.org.bucketId, [{ modality: 'CT' }]);
    const theirs = generateStudy({
      modality: 'CT',
      instancesPerSeries: 1,
      rows: 16,
      columns: 16,
      accessionNumber: elsewhere.exams[0]!.accessionNumber,
    });
    await run('storescu', [
      '-aet',
      'CT_ROOM1',
      '-aec',
      'YYP',
      '127.0.0.1',
      String(dimse.port),
      ...(await writeStudy(path.join(dir, 'theirs'), theirs)),
    ]);
    await t.services.registryDicom.whenIdle();
    expect(await scheduled(elsewhere.exams[0]!.id)).toMatchObject({ status: 'Scheduled', examId: null });
  });

  it('takes the MPPS COMPLETED of a study stored first: Performed stays, the step is recorded completed', async () => {
    const reg = await register(t, desk.registrar.token, desk.org.bucketId, [{ modality: 'CT' }]);
    const exam = reg.exams[0]!;
    const pps = '1.2.826.0.1.3680043.10.1187.9.502';
    const scu = await TestScu.associate(dimse.port, { callingAe: 'CT_ROOM1', contexts: [MPPS_CONTEXT] });
    const started = mppsInProgress({
      patientId: reg.patient.patientId,
      station: 'CT_ROOM1',
      steps: [{ studyInstanceUid: exam.studyInstanceUid, accessionNumber: exam.accessionNumber }],
    }).toBuffer(false);
    scu.send(
      1,
      { commandField: COMMAND.nCreateRq, affectedSopClassUid: MPPS_SOP_CLASS, affectedSopInstanceUid: pps },
      started,
    );
    expect((await scu.responsesUntilFinal())[0]!.status).toBe(0x0000);
    // The images come before the completion.
    const study = generateStudy({
      modality: 'CT',
      instancesPerSeries: 1,
      rows: 16,
      columns: 16,
      accessionNumber: exam.accessionNumber,
      studyInstanceUid: exam.studyInstanceUid,
    });
    const files = await writeStudy(path.join(dir, 'images-first'), study);
    await run('storescu', ['-aet', 'CT_ROOM1', '-aec', 'YYP', '127.0.0.1', String(dimse.port), ...files]);
    await t.services.registryDicom.whenIdle();
    const stored = await scheduled(exam.id);
    expect(stored).toMatchObject({ status: 'Performed', mppsStatus: 'IN PROGRESS' });
    scu.send(
      1,
      { commandField: COMMAND.nSetRq, requestedSopClassUid: MPPS_SOP_CLASS, requestedSopInstanceUid: pps },
      new DatasetBuilder().text(MPPS_TAG.status, 'CS', 'COMPLETED').toBuffer(false),
    );
    expect((await scu.responsesUntilFinal())[0]!.status).toBe(0x0000);
    await scu.release();
    expect(await scheduled(exam.id)).toMatchObject({
      status: 'Performed',
      mppsStatus: 'COMPLETED',
      examId: stored.examId,
      performedAt: stored.performedAt,
    });
  });
});
