import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatasetBuilder, EXPLICIT_VR_LE, IMPLICIT_VR_LE, tag } from './dataset-writer.js';
import { type DimseCaller, startDimse } from './dimse.js';
import { MPPS_SOP_CLASS, MPPS_TAG, type MppsEvent, type MppsResult } from './mpps.js';
import { MWL_FIND_SOP_CLASS, MWL_TAG, type WorklistItem, type WorklistQuery, matchesWorklistQuery } from './mwl.js';
import { dumpValue, findscuWorklist, worklistQueryFile } from './testdata/findscu.js';
import { mppsInProgress } from './testdata/mpps.js';
import { TestScu } from './testdata/scu.js';
import { COMMAND, TAG, commandUid } from './dimse-command.js';

/*
 * The Modality Worklist and MPPS SCP with test handlers (no database): DCMTK's findscu as the
 * modality asking its worklist, the project's test SCU as the MPPS sender.
 */

/** Calling AE → organization; anything else is refused. */
const CALLERS: Record<string, string> = { CT_ROOM_1: 'org-gb', US_ROOM_2: 'org-utf8', MR_ROOM_9: 'org-gb' };

const item = (over: Partial<WorklistItem>, step: Partial<WorklistItem['step']>): WorklistItem => ({
  charset: 'GB18030',
  patientName: '',
  patientId: '',
  patientBirthDate: '',
  patientSex: '',
  accessionNumber: '',
  referringPhysicianName: '',
  studyInstanceUid: '',
  requestedProcedureId: '',
  requestedProcedureDescription: '',
  ...over,
  step: {
    modality: 'CT',
    scheduledStationAeTitle: 'CT_ROOM_1',
    startDate: '20261127',
    startTime: '090000',
    description: '',
    id: '',
    status: 'SCHEDULED',
    performingPhysicianName: '',
    ...step,
  },
});

/** The scheduled steps of each organization. */
const SCHEDULE: Record<string, WorklistItem[]> = {
  'org-gb': [
    item(
      {
        patientName: '张三^',
        patientId: 'P1',
        accessionNumber: 'A1001',
        studyInstanceUid: '1.2.826.0.1.3680043.10.1187.9.1',
        requestedProcedureDescription: '胸部CT平扫',
        patientSex: 'M',
        patientBirthDate: '19800101',
      },
      { id: 'SPS1', startTime: '083000', description: '胸部' },
    ),
    item({ patientName: '李四^', patientId: 'P2', accessionNumber: 'A1002' }, { id: 'SPS2', startDate: '20261128' }),
    item({ patientName: '王五^', patientId: 'P3', accessionNumber: 'A1003' }, { id: 'SPS3', startDate: '20261130' }),
  ],
  'org-utf8': [
    item(
      { charset: 'ISO_IR 192', patientName: 'Müller^Jörg=赵六', patientId: 'U1', accessionNumber: 'U2001' },
      { modality: 'US', scheduledStationAeTitle: 'US_ROOM_2', id: 'SPS9' },
    ),
  ],
};

const seen: { caller: DimseCaller; query: WorklistQuery }[] = [];
const mppsEvents: { caller: DimseCaller; event: MppsEvent }[] = [];
const mppsInstances = new Map<string, string>();
/** What the next worklist call does instead of answering (to test failures and cancels). */
let worklistTrouble: 'throw' | 'slow' | null = null;

let dimse: { close(): void; port: number };
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-mwl-'));
  dimse = await startDimse(
    0,
    {
      async resolveCaller(callingAe, calledAe) {
        if (calledAe !== 'YYP') return { refuse: 'called' };
        const bucketId = CALLERS[callingAe];
        return bucketId ? { bucketId } : { refuse: 'calling' };
      },
      async store() {},
      async worklist(caller, query) {
        seen.push({ caller, query });
        const trouble = worklistTrouble;
        worklistTrouble = null;
        if (trouble === 'throw') throw new Error('database down');
        if (trouble === 'slow') await new Promise((r) => setTimeout(r, 300));
        // The device's own steps in its organization: the handler decides by the calling AE.
        return (SCHEDULE[caller.bucketId] ?? []).filter(
          (i) => i.step.scheduledStationAeTitle === caller.callingAe && matchesWorklistQuery(i, query),
        );
      },
      async mpps(caller, event): Promise<MppsResult> {
        mppsEvents.push({ caller, event });
        const state = mppsInstances.get(event.sopInstanceUid);
        if (event.kind === 'create') {
          if (state) return 'duplicateInstance';
          mppsInstances.set(event.sopInstanceUid, event.attributes.status ?? 'IN PROGRESS');
          return 'success';
        }
        if (!state) return 'noSuchInstance';
        if (state !== 'IN PROGRESS') return 'processingFailure';
        mppsInstances.set(event.sopInstanceUid, event.attributes.status ?? state);
        return 'success';
      },
    },
    '127.0.0.1',
  );
});
afterAll(() => {
  dimse.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A worklist query file written from text with dump2dcm, as DCMTK's wlistqry example does. */
async function queryFile(
  name: string,
  step: { modality?: string; ae?: string; date?: string },
  patient: { name?: string; charset?: 'GB18030' } = {},
): Promise<string> {
  const dump = [
    ...(patient.charset ? [`(0008,0005) CS [${patient.charset}]`] : []),
    `(0010,0010) PN [${patient.name ?? ''}]`,
    '(0010,0020) LO []',
    '(0008,0050) SH []',
    '(0020,000d) UI []',
    '(0032,1060) LO []',
    '(0040,1001) SH []',
    '(0040,0100) SQ',
    '(fffe,e000) -',
    `(0008,0060) CS [${step.modality ?? ''}]`,
    `(0040,0001) AE [${step.ae ?? ''}]`,
    `(0040,0002) DA [${step.date ?? ''}]`,
    '(0040,0003) TM []',
    '(0040,0007) LO []',
    '(0040,0009) SH []',
    '(0040,0010) SH []', // Scheduled Station Name: unknown to yyp, answered empty
    '(fffe,e00d) -',
    '(fffe,e0dd) -',
  ];
  return worklistQueryFile(dir, name, dump, patient.charset ?? '');
}

/** findscu -W as `aet` (see testdata/findscu.ts). */
const findscu = (aet: string, query: string, extra: string[] = []) =>
  findscuWorklist(dir, dimse.port, aet, query, extra);
const valueOf = dumpValue;

describe('Modality Worklist C-FIND (findscu -W as the modality)', () => {
  it("answers the calling device's scheduled steps of the day, names in GB18030 read back right", async () => {
    const rsp = await findscu('CT_ROOM_1', await queryFile('today', { modality: 'CT', date: '20261127' }));
    expect(rsp).toHaveLength(1);
    const { dump: one, charset } = rsp[0]!;
    expect(charset).toBe('GB18030');
    expect(valueOf(one, '0010,0010')).toBe('张三^');
    expect(valueOf(one, '0008,0050')).toBe('A1001');
    expect(valueOf(one, '0032,1060')).toBe('胸部CT平扫');
    expect(valueOf(one, '0040,0009')).toBe('SPS1');
    expect(valueOf(one, '0040,0002')).toBe('20261127');
    expect(valueOf(one, '0040,0003')).toBe('083000');
    expect(valueOf(one, '0040,0020')).toBe('SCHEDULED');
    expect(one).toMatch(/\(0040,0010\) SH \(no value available\)/);
    expect(seen.at(-1)!.caller).toMatchObject({ bucketId: 'org-gb', callingAe: 'CT_ROOM_1' });
  });

  it('matches a date range, in Implicit VR Little Endian too', async () => {
    const range = await queryFile('range', { date: '20261127-20261129' });
    const names = (rsp: { dump: string }[]) => rsp.map((r) => valueOf(r.dump, '0010,0010')).sort();
    expect(names(await findscu('CT_ROOM_1', range))).toEqual(['张三^', '李四^']);
    expect(names(await findscu('CT_ROOM_1', range, ['-xi']))).toEqual(['张三^', '李四^']);
    expect(names(await findscu('CT_ROOM_1', await queryFile('from', { date: '20261128-' })))).toEqual([
      '李四^',
      '王五^',
    ]);
    expect(names(await findscu('CT_ROOM_1', await queryFile('mr', { modality: 'MR' })))).toEqual([]);
  });

  it('matches a patient name with a wildcard sent in GB18030', async () => {
    const rsp = await findscu('CT_ROOM_1', await queryFile('name', {}, { name: '李*', charset: 'GB18030' }));
    expect(rsp.map((r) => valueOf(r.dump, '0010,0010'))).toEqual(['李四^']);
    expect(seen.at(-1)!.query.patientName).toBe('李*');
  });

  it('answers in ISO_IR 192 for a hospital in UTF-8', async () => {
    const rsp = await findscu('US_ROOM_2', await queryFile('us', {}));
    expect(rsp).toHaveLength(1);
    expect(rsp[0]!.charset).toBe('ISO_IR 192');
    expect(valueOf(rsp[0]!.dump, '0010,0010')).toBe('Müller^Jörg=赵六');
  });

  it('gives another AE of the same organization nothing, and refuses an unknown AE', async () => {
    expect(await findscu('MR_ROOM_9', await queryFile('other', {}))).toEqual([]);
    expect(seen.at(-1)!.caller).toMatchObject({ bucketId: 'org-gb', callingAe: 'MR_ROOM_9' });
    await expect(findscu('STRANGER', await queryFile('stranger', {}))).rejects.toThrow();
  });
});

const MWL_CONTEXT = { id: 1, abstractSyntax: MWL_FIND_SOP_CLASS, transferSyntaxes: [EXPLICIT_VR_LE] };
const MPPS_CONTEXT = { id: 3, abstractSyntax: MPPS_SOP_CLASS, transferSyntaxes: [IMPLICIT_VR_LE] };

describe('presentation contexts', () => {
  it('accepts the worklist and MPPS in Explicit or Implicit VR LE, and refuses them without their handlers', async () => {
    const offer = [
      { id: 1, abstractSyntax: MWL_FIND_SOP_CLASS, transferSyntaxes: ['1.2.840.10008.1.2.4.50', IMPLICIT_VR_LE] },
      { id: 3, abstractSyntax: MPPS_SOP_CLASS, transferSyntaxes: ['1.2.840.10008.1.2.4.50'] },
    ];
    const scu = await TestScu.associate(dimse.port, { callingAe: 'CT_ROOM_1', contexts: offer });
    expect(scu.ac!.contexts.map((c) => [c.id, c.result])).toEqual([
      [1, 0],
      [3, 4],
    ]);
    expect(scu.ac!.contexts[0]!.transferSyntax).toBe(IMPLICIT_VR_LE);
    await scu.release();

    const bare = await startDimse(0, { resolveCaller: async () => ({ bucketId: 'org-gb' }), store: async () => {} });
    try {
      const plain = await TestScu.associate(bare.port, {
        callingAe: 'CT_ROOM_1',
        contexts: [MWL_CONTEXT, MPPS_CONTEXT],
      });
      expect(plain.ac!.contexts.map((c) => [c.id, c.result])).toEqual([
        [1, 3],
        [3, 3],
      ]);
      await plain.release();
    } finally {
      bare.close();
    }
  });
});

describe('C-FIND failures and C-CANCEL (test SCU)', () => {
  const findRq = { commandField: COMMAND.cFindRq, affectedSopClassUid: MWL_FIND_SOP_CLASS, priority: 0 };
  const anyQuery = new DatasetBuilder().text(MWL_TAG.patientName, 'PN', '').toBuffer(true);

  it('answers 0xA900 to an identifier that is no worklist query and 0xC000 when the handler fails; stays up', async () => {
    const scu = await TestScu.associate(dimse.port, { callingAe: 'CT_ROOM_1', contexts: [MWL_CONTEXT] });
    expect(scu.ac!.contexts).toEqual([{ id: 1, result: 0, transferSyntax: EXPLICIT_VR_LE }]);
    scu.send(1, findRq, Buffer.from('\x10\x00\x10\x00PN\x40\x00garbage'));
    expect((await scu.responsesUntilFinal()).map((r) => r.status)).toEqual([0xa900]);
    const twoSteps = new DatasetBuilder()
      .sequence(MWL_TAG.scheduledProcedureStepSequence, [new DatasetBuilder(), new DatasetBuilder()])
      .toBuffer(true);
    scu.send(1, findRq, twoSteps);
    expect((await scu.responsesUntilFinal()).map((r) => r.status)).toEqual([0xa900]);
    scu.send(1, findRq); // no identifier at all
    expect((await scu.responsesUntilFinal()).map((r) => r.status)).toEqual([0xa900]);
    worklistTrouble = 'throw';
    scu.send(1, findRq, anyQuery);
    expect((await scu.responsesUntilFinal()).map((r) => r.status)).toEqual([0xc000]);
    scu.send(1, findRq, anyQuery);
    const ok = await scu.responsesUntilFinal();
    expect(ok.map((r) => r.status)).toEqual([0xff00, 0xff00, 0xff00, 0x0000]);
    await scu.release();
  });

  it('stops with 0xFE00 on a C-CANCEL', async () => {
    const scu = await TestScu.associate(dimse.port, { callingAe: 'CT_ROOM_1', contexts: [MWL_CONTEXT] });
    worklistTrouble = 'slow';
    const id = scu.send(1, findRq, anyQuery);
    scu.send(1, { commandField: COMMAND.cancelRq, messageIdBeingRespondedTo: id });
    expect((await scu.responsesUntilFinal()).map((r) => r.status)).toEqual([0xfe00]);
    // A C-CANCEL of no C-FIND under way cancels nothing, not even the next one to get that ID (id + 3).
    scu.send(1, { commandField: COMMAND.cancelRq, messageIdBeingRespondedTo: id + 3 });
    scu.send(1, findRq, anyQuery);
    expect((await scu.responsesUntilFinal()).map((r) => r.status)).toEqual([0xff00, 0xff00, 0xff00, 0x0000]);
    await scu.release();
  });
});

describe('MPPS N-CREATE and N-SET (test SCU)', () => {
  const STUDY = '1.2.826.0.1.3680043.10.1187.9.1';
  const PPS = '1.2.826.0.1.3680043.10.1187.9.77';

  const createAttributes = () =>
    mppsInProgress({
      charset: 'GB18030',
      patientName: '张三^',
      steps: [
        {
          studyInstanceUid: STUDY,
          accessionNumber: 'A1001',
          scheduledProcedureStepId: 'SPS1',
          requestedProcedureId: 'RP1',
        },
      ],
    }).toBuffer(false);

  const series = () => new DatasetBuilder().text(tag(0x0020, 0x000e), 'UI', '1.2.3.4.5');
  const create = { commandField: COMMAND.nCreateRq, affectedSopClassUid: MPPS_SOP_CLASS };
  const set = { commandField: COMMAND.nSetRq, requestedSopClassUid: MPPS_SOP_CLASS };

  it('passes IN PROGRESS then COMPLETED to the handler and answers its statuses', async () => {
    const scu = await TestScu.associate(dimse.port, { callingAe: 'CT_ROOM_1', contexts: [MPPS_CONTEXT] });
    expect(scu.ac!.contexts[0]).toMatchObject({ id: 3, result: 0 });
    scu.send(3, { ...create, affectedSopInstanceUid: PPS }, createAttributes());
    const [created] = await scu.responsesUntilFinal();
    expect(created!.status).toBe(0x0000);
    expect(commandUid(created!.command, TAG.affectedSopInstanceUid)).toBe(PPS);

    const completed = new DatasetBuilder()
      .text(MPPS_TAG.status, 'CS', 'COMPLETED')
      .text(MPPS_TAG.endDate, 'DA', '20261127')
      .text(MPPS_TAG.endTime, 'TM', '084500')
      .sequence(MPPS_TAG.performedSeriesSequence, [series(), series()])
      .toBuffer(false);
    scu.send(3, { ...set, requestedSopInstanceUid: PPS }, completed);
    expect((await scu.responsesUntilFinal())[0]!.status).toBe(0x0000);

    // Again: the instance exists (0x0111), it is completed (0x0110), an unknown one (0x0112).
    scu.send(3, { ...create, affectedSopInstanceUid: PPS }, createAttributes());
    expect((await scu.responsesUntilFinal())[0]!.status).toBe(0x0111);
    scu.send(3, { ...set, requestedSopInstanceUid: PPS }, completed);
    expect((await scu.responsesUntilFinal())[0]!.status).toBe(0x0110);
    scu.send(3, { ...set, requestedSopInstanceUid: '1.2.3.999' }, completed);
    expect((await scu.responsesUntilFinal())[0]!.status).toBe(0x0112);
    await scu.release();

    const events = mppsEvents.filter((e) => e.event.sopInstanceUid === PPS).map((e) => e.event);
    expect(events[0]).toEqual({
      kind: 'create',
      sopInstanceUid: PPS,
      attributes: {
        status: 'IN PROGRESS',
        performedStationAeTitle: 'CT_ROOM_1',
        startDate: '20261127',
        startTime: '083500',
        endDate: '',
        endTime: '',
        patientName: '张三^',
        patientId: 'P1',
        scheduledSteps: [
          {
            studyInstanceUid: STUDY,
            accessionNumber: 'A1001',
            scheduledProcedureStepId: 'SPS1',
            requestedProcedureId: 'RP1',
          },
        ],
        performedSeriesCount: 0,
      },
    });
    expect(events[1]).toEqual({
      kind: 'set',
      sopInstanceUid: PPS,
      attributes: { status: 'COMPLETED', endDate: '20261127', endTime: '084500', performedSeriesCount: 2 },
    });
    expect(mppsEvents.at(-1)!.caller).toMatchObject({ bucketId: 'org-gb', callingAe: 'CT_ROOM_1' });
  });

  it('reads a discontinuation reason, makes up the UID an N-CREATE leaves out, refuses a bad status', async () => {
    const scu = await TestScu.associate(dimse.port, { callingAe: 'CT_ROOM_1', contexts: [MPPS_CONTEXT] });
    scu.send(3, create, createAttributes());
    const [created] = await scu.responsesUntilFinal();
    expect(created!.status).toBe(0x0000);
    const uid = commandUid(created!.command, TAG.affectedSopInstanceUid)!;
    expect(uid).toMatch(/^2\.25\.\d+$/);

    const discontinued = new DatasetBuilder('GB18030')
      .text(MWL_TAG.specificCharacterSet, 'CS', 'GB18030')
      .text(MPPS_TAG.status, 'CS', 'DISCONTINUED')
      .sequence(MPPS_TAG.discontinuationReasonCodeSequence, [
        new DatasetBuilder('GB18030').text(MPPS_TAG.codeMeaning, 'LO', '患者拒绝检查'),
      ])
      .toBuffer(false);
    scu.send(3, { ...set, requestedSopInstanceUid: uid }, discontinued);
    expect((await scu.responsesUntilFinal())[0]!.status).toBe(0x0000);
    expect(mppsEvents.at(-1)!.event.attributes).toEqual({
      status: 'DISCONTINUED',
      discontinuationReason: '患者拒绝检查',
    });

    const before = mppsEvents.length;
    scu.send(
      3,
      { ...set, requestedSopInstanceUid: uid },
      new DatasetBuilder().text(MPPS_TAG.status, 'CS', 'DONE').toBuffer(false),
    );
    expect((await scu.responsesUntilFinal())[0]!.status).toBe(0x0110);
    expect(mppsEvents).toHaveLength(before);
    await scu.release();
  });
});
