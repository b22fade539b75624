import { describe, expect, it } from 'vitest';
import { charsetOf, itemsOf, readDataset, textOf } from './dataset-reader.js';
import { DatasetBuilder, EXPLICIT_VR_LE, IMPLICIT_VR_LE, tag } from './dataset-writer.js';
import {
  MWL_TAG,
  type WorklistItem,
  type WorklistQuery,
  WorklistQueryError,
  animalSex,
  encodeWorklistItem,
  matchesText,
  matchesWorklistQuery,
  parseWorklistQuery,
  worklistAnswer,
} from './mwl.js';

/** A query as a modality writes it: the keys it matches on, the others empty (return keys). */
function queryBytes(
  keys: { name?: string; modality?: string; ae?: string; date?: string; time?: string; charset?: 'GB18030' | '' },
  explicit = true,
): Buffer {
  const charset = keys.charset ?? '';
  const step = new DatasetBuilder(charset)
    .text(MWL_TAG.modality, 'CS', keys.modality ?? '')
    .text(MWL_TAG.scheduledStationAeTitle, 'AE', keys.ae ?? '')
    .text(MWL_TAG.startDate, 'DA', keys.date ?? '')
    .text(MWL_TAG.startTime, 'TM', keys.time ?? '')
    .text(MWL_TAG.stepId, 'SH', '')
    .text(tag(0x0040, 0x0010), 'SH', ''); // Scheduled Station Name: not known to yyp
  const ds = new DatasetBuilder(charset)
    .text(MWL_TAG.patientName, 'PN', keys.name ?? '')
    .text(MWL_TAG.patientId, 'LO', '')
    .text(MWL_TAG.accessionNumber, 'SH', '')
    .sequence(tag(0x0008, 0x1110), []) // Referenced Study Sequence: not known to yyp
    .sequence(MWL_TAG.scheduledProcedureStepSequence, [step]);
  if (charset) ds.text(MWL_TAG.specificCharacterSet, 'CS', charset);
  return ds.toBuffer(explicit);
}

const item = (over: Partial<WorklistItem> = {}, step: Partial<WorklistItem['step']> = {}): WorklistItem => ({
  charset: 'GB18030',
  patientName: '张三^',
  patientId: 'P1',
  patientBirthDate: '19800101',
  patientSex: 'M',
  accessionNumber: 'A100',
  referringPhysicianName: '',
  studyInstanceUid: '1.2.3.4',
  requestedProcedureId: 'RP1',
  requestedProcedureDescription: '胸部CT平扫',
  ...over,
  step: {
    modality: 'CT',
    scheduledStationAeTitle: 'CT_ROOM_1',
    startDate: '20261127',
    startTime: '093000',
    description: '胸部',
    id: 'SPS1',
    status: 'SCHEDULED',
    performingPhysicianName: '',
    ...step,
  },
});

const query = (keys: Parameters<typeof queryBytes>[0]): WorklistQuery =>
  parseWorklistQuery(queryBytes(keys), EXPLICIT_VR_LE);

describe('parseWorklistQuery', () => {
  it('reads the matching keys in both transfer syntaxes, names in the query character set', () => {
    for (const explicit of [true, false]) {
      const q = parseWorklistQuery(
        queryBytes({ name: '张*', modality: 'CT', ae: 'CT_ROOM_1', date: '20261127', charset: 'GB18030' }, explicit),
        explicit ? EXPLICIT_VR_LE : IMPLICIT_VR_LE,
      );
      expect(q).toMatchObject({
        patientName: '张*',
        patientId: '',
        accessionNumber: '',
        modality: 'CT',
        scheduledStationAeTitle: 'CT_ROOM_1',
        startDate: { from: '20261127', to: '20261127' },
        startTime: null,
      });
      expect(q.requested.map((k) => k.tag)).toContain(tag(0x0008, 0x1110));
      expect(q.requested.find((k) => k.tag === tag(0x0008, 0x1110))?.sequence).toBe(true);
      expect(q.stepRequested.map((k) => k.tag)).toContain(tag(0x0040, 0x0010));
    }
  });

  it('reads date and time ranges A-B, A- and -B', () => {
    expect(query({ date: '20261101-20261130' }).startDate).toEqual({ from: '20261101', to: '20261130' });
    expect(query({ date: '20261101-' }).startDate).toEqual({ from: '20261101', to: '' });
    expect(query({ date: '-20261130' }).startDate).toEqual({ from: '', to: '20261130' });
    expect(query({ time: '0800-1200' }).startTime).toEqual({ from: '0800', to: '1200' });
  });

  it('refuses what is no worklist query with a WorklistQueryError', () => {
    expect(() => query({ date: '2026-11-27' })).toThrow(WorklistQueryError);
    expect(() => query({ date: 'today' })).toThrow(WorklistQueryError);
    expect(() => query({ time: '25h' })).toThrow(WorklistQueryError);
    expect(() => parseWorklistQuery(Buffer.from('not a dataset'), EXPLICIT_VR_LE)).toThrow(WorklistQueryError);
    const two = new DatasetBuilder()
      .sequence(MWL_TAG.scheduledProcedureStepSequence, [new DatasetBuilder(), new DatasetBuilder()])
      .toBuffer(true);
    expect(() => parseWorklistQuery(two, EXPLICIT_VR_LE)).toThrow(/more than one/);
  });
});

describe('matching', () => {
  it('matches * and ? wildcards, person names case-insensitively and without trailing empty components', () => {
    expect(matchesText('', 'anything')).toBe(true);
    expect(matchesText('*', '')).toBe(true);
    expect(matchesText('DOE*', 'DOE^JOHN', true)).toBe(true);
    expect(matchesText('d?e^john', 'DOE^JOHN^^', true)).toBe(true);
    expect(matchesText('*^JO*N', 'DOE^JOHN', true)).toBe(true);
    expect(matchesText('张*', '张三^', true)).toBe(true);
    expect(matchesText('张?', '张三', true)).toBe(true);
    expect(matchesText('李*', '张三', true)).toBe(false);
    expect(matchesText('DOE', 'DOE^JOHN', true)).toBe(false);
    expect(matchesText('ct', 'CT')).toBe(false);
    expect(matchesText('A1*0', 'A100')).toBe(true);
    expect(matchesText('*a*a*a*a*a*a*a*b', 'a'.repeat(60))).toBe(false);
  });

  it('matches the scheduled step keys: modality, AE title, date and time ranges', () => {
    const it1 = item();
    expect(matchesWorklistQuery(it1, query({}))).toBe(true);
    expect(matchesWorklistQuery(it1, query({ modality: 'CT', ae: 'CT_ROOM_1' }))).toBe(true);
    expect(matchesWorklistQuery(it1, query({ modality: 'MR' }))).toBe(false);
    expect(matchesWorklistQuery(it1, query({ ae: 'CT_ROOM_2' }))).toBe(false);
    expect(matchesWorklistQuery(it1, query({ ae: 'CT_*' }))).toBe(true);
    expect(matchesWorklistQuery(it1, query({ date: '20261127' }))).toBe(true);
    expect(matchesWorklistQuery(it1, query({ date: '20261128' }))).toBe(false);
    expect(matchesWorklistQuery(it1, query({ date: '20261101-20261130' }))).toBe(true);
    expect(matchesWorklistQuery(it1, query({ date: '20261128-' }))).toBe(false);
    expect(matchesWorklistQuery(it1, query({ date: '-20261127' }))).toBe(true);
    expect(matchesWorklistQuery(it1, query({ time: '0900-0930' }))).toBe(true);
    expect(matchesWorklistQuery(it1, query({ time: '0931-' }))).toBe(false);
    expect(matchesWorklistQuery(it1, query({ time: '-09' }))).toBe(true);
    expect(matchesWorklistQuery(item({}, { startDate: '' }), query({ date: '20261127-' }))).toBe(false);
    expect(matchesWorklistQuery(it1, query({ name: '张*', charset: 'GB18030' }))).toBe(true);
    expect(matchesWorklistQuery(it1, query({ name: 'WANG*' }))).toBe(false);
  });
});

describe('encodeWorklistItem', () => {
  it('answers the standard return keys in the hospital character set, unknown keys asked for empty', () => {
    const q = query({ modality: 'CT' });
    for (const ts of [EXPLICIT_VR_LE, IMPLICIT_VR_LE]) {
      const ds = readDataset(worklistAnswer(item(), q, ts), ts, new Set([MWL_TAG.scheduledProcedureStepSequence]));
      const cs = charsetOf(ds);
      expect(cs).toBe('GB18030');
      expect(textOf(ds, MWL_TAG.patientName, cs, 'PN')).toBe('张三^');
      expect(textOf(ds, MWL_TAG.requestedProcedureDescription, cs, 'text')).toBe('胸部CT平扫');
      expect(textOf(ds, MWL_TAG.studyInstanceUid, cs)).toBe('1.2.3.4');
      expect(ds.get(MWL_TAG.referringPhysicianName)!.value.length).toBe(0);
      expect(ds.get(tag(0x0008, 0x1110))).toMatchObject({ items: [] });
      const [step] = itemsOf(ds, MWL_TAG.scheduledProcedureStepSequence);
      expect(textOf(step!, MWL_TAG.stepStatus, cs)).toBe('SCHEDULED');
      expect(textOf(step!, MWL_TAG.startTime, cs)).toBe('093000');
      expect(textOf(step!, MWL_TAG.stepDescription, cs, 'text')).toBe('胸部');
      expect(step!.get(tag(0x0040, 0x0010))!.value.length).toBe(0);
    }
  });

  it('writes ISO_IR 192 and the default repertoire as asked, and falls back to UTF-8 for what the charset cannot hold', () => {
    const utf8 = readDataset(
      worklistAnswer(item({ charset: 'ISO_IR 192' }), query({}), EXPLICIT_VR_LE),
      EXPLICIT_VR_LE,
    );
    expect(charsetOf(utf8)).toBe('ISO_IR 192');
    expect(utf8.get(MWL_TAG.patientName)!.value.toString('utf8')).toBe('张三^ ');
    const plain = encodeWorklistItem(
      item({ charset: '', patientName: 'DOE^JOHN', requestedProcedureDescription: '' }, { description: '' }),
      query({}),
    );
    expect(plain.has(MWL_TAG.specificCharacterSet)).toBe(false);
    const fallback = readDataset(
      worklistAnswer(item({ charset: 'ISO_IR 100' }), query({}), EXPLICIT_VR_LE),
      EXPLICIT_VR_LE,
    );
    expect(charsetOf(fallback)).toBe('ISO_IR 192');
    expect(textOf(fallback, MWL_TAG.patientName, 'ISO_IR 192', 'PN')).toBe('张三^');
  });

  it("answers an animal's species, breed, responsible person and neutering; a person has none of them", () => {
    const q = query({});
    const pet = item({
      patientName: '豆豆^',
      animal: { species: '犬', breed: '柯基', responsiblePerson: '王^芳', sexNeutered: 'ALTERED' },
    });
    const ds = readDataset(worklistAnswer(pet, q, EXPLICIT_VR_LE), EXPLICIT_VR_LE);
    expect(textOf(ds, MWL_TAG.patientSpeciesDescription, 'GB18030', 'text')).toBe('犬');
    expect(textOf(ds, MWL_TAG.patientBreedDescription, 'GB18030', 'text')).toBe('柯基');
    expect(textOf(ds, MWL_TAG.responsiblePerson, 'GB18030', 'PN')).toBe('王^芳');
    expect(textOf(ds, MWL_TAG.patientSexNeutered, 'GB18030')).toBe('ALTERED');
    const person = readDataset(worklistAnswer(item(), q, EXPLICIT_VR_LE), EXPLICIT_VR_LE);
    expect(person.has(MWL_TAG.patientSpeciesDescription)).toBe(false);
    expect(person.has(MWL_TAG.patientSexNeutered)).toBe(false);
  });
});

describe('animalSex', () => {
  it('maps every pet gender to Patient Sex and Patient Sex Neutered', () => {
    expect(['M', 'F', 'MS', 'FS', 'U'].map(animalSex)).toEqual([
      { patientSex: 'M', sexNeutered: 'UNALTERED' },
      { patientSex: 'F', sexNeutered: 'UNALTERED' },
      { patientSex: 'M', sexNeutered: 'ALTERED' },
      { patientSex: 'F', sexNeutered: 'ALTERED' },
      { patientSex: '', sexNeutered: '' },
    ]);
  });
});
