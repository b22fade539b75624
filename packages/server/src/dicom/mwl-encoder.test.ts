import { describe, expect, it } from 'vitest';
import { ByteWriter, DatasetBuilder, EXPLICIT_VR_LE, IMPLICIT_VR_LE, tag } from './dataset-writer.js';
import { MWL_TAG, type WorklistItem, parseWorklistQuery, worklistAnswer } from './mwl.js';
import { WorklistEncoder } from './mwl-encoder.js';
import { encodeText, encodeTextInto } from './text-encode.js';

/** A modality's query: its step keys, the usual return keys and some yyp does not know. */
function queryOf(ts: string, opts: { charset?: 'GB18030' | ''; extra?: boolean } = {}) {
  const charset = opts.charset ?? '';
  const step = new DatasetBuilder(charset)
    .text(MWL_TAG.modality, 'CS', 'CT')
    .text(MWL_TAG.scheduledStationAeTitle, 'AE', '')
    .text(MWL_TAG.startDate, 'DA', '20261127')
    .text(MWL_TAG.startTime, 'TM', '')
    .text(MWL_TAG.stepDescription, 'LO', '')
    .text(MWL_TAG.stepId, 'SH', '');
  const ds = new DatasetBuilder(charset)
    .text(MWL_TAG.patientName, 'PN', '')
    .text(MWL_TAG.patientId, 'LO', '')
    .text(MWL_TAG.accessionNumber, 'SH', '')
    .text(MWL_TAG.studyInstanceUid, 'UI', '')
    .sequence(MWL_TAG.scheduledProcedureStepSequence, [step]);
  if (charset) ds.text(MWL_TAG.specificCharacterSet, 'CS', charset);
  if (opts.extra) {
    // Keys yyp answers empty: a sequence, text and binary VRs, at the top and in the step (which
    // sort between and after the known ones), and a known top-level key asked for in the step.
    ds.sequence(tag(0x0008, 0x1110), [])
      .sequence(tag(0x0032, 0x1064), [])
      .text(tag(0x0010, 0x1030), 'DS', '')
      .text(tag(0x0038, 0x0300), 'LO', '')
      .empty(tag(0x0040, 0x1003), 'SH')
      .uint16(tag(0x0028, 0x0010), 512)
      .text(tag(0x0008, 0x0020), 'DA', '');
    step
      .text(tag(0x0040, 0x0010), 'SH', '')
      .text(tag(0x0040, 0x0011), 'SH', '')
      .sequence(tag(0x0040, 0x0008), [])
      .text(MWL_TAG.patientName, 'PN', '');
  }
  return parseWorklistQuery(ds.toBuffer(ts === EXPLICIT_VR_LE), ts);
}

const base: WorklistItem = {
  charset: 'GB18030',
  patientName: '张三^',
  patientId: 'P1',
  patientBirthDate: '19800101',
  patientSex: 'M',
  accessionNumber: 'A100',
  referringPhysicianName: '李医生',
  studyInstanceUid: '1.2.826.0.1.3680043.10.543.9.1',
  requestedProcedureId: 'RP1',
  requestedProcedureDescription: '胸部 CT 平扫',
  step: {
    modality: 'CT',
    scheduledStationAeTitle: 'DEMO_MODALITY',
    startDate: '20261127',
    startTime: '083000',
    description: '胸部',
    id: 'SPS1',
    status: 'SCHEDULED',
    performingPhysicianName: '',
  },
};
const with_ = (over: Partial<WorklistItem>, step: Partial<WorklistItem['step']> = {}): WorklistItem => ({
  ...base,
  ...over,
  step: { ...base.step, ...step },
});

/** Items covering each character set, the UTF-8 fallback, odd and even lengths, empty values and animals. */
const ITEMS: WorklistItem[] = [
  base,
  with_({ charset: 'ISO_IR 192', patientName: '王小明^', referringPhysicianName: 'Müller^Jörg=赵六' }),
  with_({ charset: 'ISO_IR 192', patientName: 'Łukasz^😀' }), // four-byte UTF-8
  with_(
    { charset: '', patientName: 'DOE^JOHN', requestedProcedureDescription: 'CHEST', referringPhysicianName: '' },
    {
      description: '',
    },
  ),
  // Chinese in the default repertoire and in Latin-1: answered in UTF-8.
  with_({ charset: '', patientName: 'DOE^张' }),
  with_({ charset: 'ISO_IR 100', patientName: 'Müller^张三' }),
  with_({ charset: 'ISO_IR 100', patientName: 'Müller^Jörg', patientSex: '' }),
  // A character GB18030 writes as four bytes: answered in UTF-8.
  with_({ patientName: '𠀀^' }),
  with_(
    { charset: 'GBK', patientName: '李四', patientId: 'P12', studyInstanceUid: '1.2.3', accessionNumber: '' },
    {
      startTime: '',
      id: 'SPS12',
      status: 'ARRIVED',
      performingPhysicianName: '周^',
    },
  ),
  with_({
    patientName: '',
    patientId: '',
    patientBirthDate: '',
    patientSex: '',
    accessionNumber: '',
    referringPhysicianName: '',
    studyInstanceUid: '',
    requestedProcedureId: '',
    requestedProcedureDescription: '',
    step: { ...base.step, modality: '', startDate: '', startTime: '', description: '', id: '', status: '' },
  }),
  with_({
    patientName: '豆豆^',
    animal: { species: '犬', breed: '柯基', responsiblePerson: '王^芳', sexNeutered: 'ALTERED' },
  }),
  with_({
    charset: 'ISO_IR 192',
    patientName: 'Rex',
    animal: { species: 'Canis', breed: '', responsiblePerson: '', sexNeutered: '' },
  }),
];

describe('WorklistEncoder', () => {
  it("writes each item's identifier byte for byte as worklistAnswer, in both transfer syntaxes", () => {
    for (const ts of [EXPLICIT_VR_LE, IMPLICIT_VR_LE]) {
      for (const opts of [{}, { extra: true }, { charset: 'GB18030' as const, extra: true }]) {
        const query = queryOf(ts, opts);
        const encoder = new WorklistEncoder(query, ts);
        // One writer for all, as a C-FIND batch does: each identifier where the last one ended.
        const out = new ByteWriter(16);
        for (const item of ITEMS) {
          const start = out.length;
          encoder.encode(item, out);
          expect(out.view(start).equals(worklistAnswer(item, query, ts)), `${item.patientName} in ${ts}`).toBe(true);
        }
      }
    }
  });

  it('answers in UTF-8 what the character set cannot hold, SpecificCharacterSet included', () => {
    const query = queryOf(EXPLICIT_VR_LE);
    const out = new ByteWriter();
    new WorklistEncoder(query, EXPLICIT_VR_LE).encode(with_({ charset: 'ISO_IR 100', patientName: '张三' }), out);
    const bytes = out.view(0);
    expect(bytes.includes(Buffer.from('ISO_IR 192'))).toBe(true);
    expect(bytes.includes(Buffer.from('张三', 'utf8'))).toBe(true);
    expect(bytes.includes(Buffer.from('ISO_IR 100'))).toBe(false);
  });

  it('throws as worklistAnswer does: a UID outside the default repertoire, a value too long for its VR', () => {
    const query = queryOf(EXPLICIT_VR_LE);
    const encoder = new WorklistEncoder(query, EXPLICIT_VR_LE);
    for (const bad of [with_({ studyInstanceUid: '1.2.张' }), with_({ patientName: 'A'.repeat(70_000) })]) {
      expect(() => worklistAnswer(bad, query, EXPLICIT_VR_LE)).toThrow();
      expect(() => encoder.encode(bad, new ByteWriter())).toThrow();
    }
    // Implicit VR has 4-byte lengths: the long value is written there.
    const long = with_({ patientName: 'A'.repeat(70_001) });
    const implicit = queryOf(IMPLICIT_VR_LE);
    const out = new ByteWriter();
    new WorklistEncoder(implicit, IMPLICIT_VR_LE).encode(long, out);
    expect(out.view(0).equals(worklistAnswer(long, implicit, IMPLICIT_VR_LE))).toBe(true);
  });
});

describe('encodeTextInto and ByteWriter', () => {
  it('writes the bytes encodeText gives at an offset and says how many', () => {
    const target = Buffer.alloc(64, 0xee);
    const cases = [
      ['DOE^JOHN', ''],
      ['Müller', 'ISO_IR 100'],
      ['张三^Zhang', 'GB18030'],
      ['张三 Müller 😀', 'ISO_IR 192'],
      ['', 'GBK'],
    ] as const;
    for (const [text, charset] of cases) {
      const n = encodeTextInto(text, charset, target, 5);
      expect(target.subarray(5, 5 + n)).toEqual(encodeText(text, charset));
      expect(target[4]).toBe(0xee);
    }
    expect(() => encodeTextInto('张', '', target, 0)).toThrow(/repertoire/);
    expect(() => encodeTextInto('😀', 'GB18030', target, 0)).toThrow(/two-byte/);
  });

  it('grows keeping what was written, and truncates', () => {
    const w = new ByteWriter(2);
    w.bytes(Buffer.from('ab'));
    w.bytes(Buffer.from('cdefg'));
    expect(w.view(0).toString()).toBe('abcdefg');
    w.truncate(3);
    w.bytes(Buffer.from('XY'));
    expect(w.view(1).toString()).toBe('bcXY');
  });
});
