import { describe, expect, it } from 'vitest';
import { readDataset, textOf, type Dataset } from './dataset-reader.js';
import { EXPLICIT_VR_LE, tag } from './dataset-writer.js';
import {
  encodeDicomdir,
  isValidFileId,
  keyText,
  MEDIA_STORAGE_DIRECTORY_SOP_CLASS,
  recordTypeOf,
  type DirectoryRecord,
  type RecordType,
} from './dicomdir.js';
import { readInstanceFacts, recordKeys, RECORD_KEYS, type KeyDefaults } from './dicomdir-keys.js';
import { part10Dataset } from './part10.js';
import { generateCtInstance, generateStudy } from './testdata/generate.js';
import { generateKeyObject, generatePdf, generateSr, OBJECT_SOP_CLASS } from './testdata/objects.js';
import { DatasetBuilder, encodePart10 } from './testdata/writer.js';

const T = {
  first: tag(0x0004, 0x1200),
  last: tag(0x0004, 0x1202),
  next: tag(0x0004, 0x1400),
  inUse: tag(0x0004, 0x1410),
  lower: tag(0x0004, 0x1420),
  type: tag(0x0004, 0x1430),
  fileId: tag(0x0004, 0x1500),
  sopInstance: tag(0x0004, 0x1511),
};

interface Walked {
  offset: number;
  ds: Dataset;
}

/** Every record item of a DICOMDIR with the byte offset of its item tag from the file's first byte. */
function items(file: Buffer): { root: Dataset; records: Walked[] } {
  const { dataset } = part10Dataset(file);
  const start = file.length - dataset.length;
  const root = readDataset(Buffer.from(dataset), EXPLICIT_VR_LE);
  // Walk the elements to the sequence, then its items, by hand: offsets are what is tested.
  let at = start;
  const records: Walked[] = [];
  while (at < file.length) {
    const t = ((file.readUInt16LE(at) << 16) | file.readUInt16LE(at + 2)) >>> 0;
    const vr = file.toString('latin1', at + 4, at + 6);
    const long = ['OB', 'SQ', 'UN', 'UT', 'OW'].includes(vr);
    const length = long ? file.readUInt32LE(at + 8) : file.readUInt16LE(at + 6);
    const valueAt = at + (long ? 12 : 8);
    if (t === tag(0x0004, 0x1220)) {
      let p = valueAt;
      while (p < valueAt + length) {
        expect(file.readUInt16LE(p)).toBe(0xfffe);
        expect(file.readUInt16LE(p + 2)).toBe(0xe000);
        const n = file.readUInt32LE(p + 4);
        records.push({ offset: p, ds: readDataset(file.subarray(p + 8, p + 8 + n), EXPLICIT_VR_LE) });
        p += 8 + n;
      }
    }
    at = valueAt + length;
  }
  return { root, records };
}

const ul = (ds: Dataset, t: number) => ds.get(t)!.value.readUInt32LE(0);

interface Tree {
  type: string;
  fileId?: string;
  children: Tree[];
}

/** The record tree as the offsets link it, each record visited once. */
function linked(file: Buffer): Tree[] {
  const { root, records } = items(file);
  const byOffset = new Map(records.map((r) => [r.offset, r]));
  const visited = new Set<number>();
  const level = (offset: number): Tree[] => {
    const out: Tree[] = [];
    for (let o = offset; o !== 0;) {
      const r = byOffset.get(o);
      expect(r, `offset ${o} names a record item`).toBeDefined();
      expect(visited.has(o)).toBe(false);
      visited.add(o);
      expect(r!.ds.get(T.inUse)!.value.readUInt16LE(0)).toBe(0xffff);
      const fileId = textOf(r!.ds, T.fileId, '');
      out.push({
        type: textOf(r!.ds, T.type, ''),
        ...(fileId ? { fileId } : {}),
        children: level(ul(r!.ds, T.lower)),
      });
      o = ul(r!.ds, T.next);
    }
    return out;
  };
  const tree = level(ul(root, T.first));
  expect(visited.size).toBe(records.length);
  // The last root record is the last PATIENT of the chain.
  const rootChain: number[] = [];
  for (let o = ul(root, T.first); o !== 0; o = ul(byOffset.get(o)!.ds, T.next)) rootChain.push(o);
  expect(ul(root, T.last)).toBe(rootChain.at(-1) ?? 0);
  return tree;
}

const instance = (type: RecordType, id: string[]): DirectoryRecord => ({
  type,
  keys: [keyText(tag(0x0020, 0x0013), 'IS', id.at(-1)!.slice(1).replace(/^0+/, ''))],
  file: {
    fileId: id,
    sopClassUid: '1.2.3',
    sopInstanceUid: `1.2.3.${id.join('.').length}`,
    transferSyntaxUid: EXPLICIT_VR_LE,
  },
});

const simple = (type: RecordType, children: DirectoryRecord[] = []): DirectoryRecord => ({ type, keys: [], children });

const treeOf = (records: DirectoryRecord[]): Tree[] =>
  records.map((r) => ({
    type: r.type,
    ...(r.file ? { fileId: r.file.fileId.join('\\') } : {}),
    children: treeOf(r.children ?? []),
  }));

describe('DICOMDIR encoder', () => {
  it('links every record by offsets that name its item: next sibling, first child, first and last root record', () => {
    const records = [
      simple('PATIENT', [
        simple('STUDY', [
          simple('SERIES', [
            instance('IMAGE', ['DICOM', 'P1', 'S1', 'SE1', 'I1']),
            instance('IMAGE', ['DICOM', 'P1', 'S1', 'SE1', 'I2']),
          ]),
          simple('SERIES', [instance('SR DOCUMENT', ['DICOM', 'P1', 'S1', 'SE2', 'I1'])]),
        ]),
        simple('STUDY', [simple('SERIES', [instance('ENCAP DOC', ['DICOM', 'P1', 'S2', 'SE1', 'I1'])])]),
      ]),
      simple('PATIENT', [simple('STUDY', [simple('SERIES', [instance('KEY OBJECT DOC', ['X'])])])]),
      simple('PATIENT'),
    ];
    const file = encodeDicomdir({ fileSetId: 'YYP_MEDIA', instanceUid: '1.2.3.4', records });
    expect(file.subarray(0, 128).every((b) => b === 0)).toBe(true);
    const meta = part10Dataset(file);
    expect(meta).toMatchObject({
      sopClassUid: MEDIA_STORAGE_DIRECTORY_SOP_CLASS,
      sopInstanceUid: '1.2.3.4',
      transferSyntaxUid: EXPLICIT_VR_LE,
    });
    expect(linked(file)).toEqual(treeOf(records));
    const { root } = items(file);
    expect(textOf(root, tag(0x0004, 0x1130), '')).toBe('YYP_MEDIA');
    expect(root.get(tag(0x0004, 0x1212))!.value.readUInt16LE(0)).toBe(0);
  });

  it('writes an empty file-set with zero offsets', () => {
    const file = encodeDicomdir({ fileSetId: '', instanceUid: '1.2', records: [] });
    const { root, records } = items(file);
    expect(records).toEqual([]);
    expect([ul(root, T.first), ul(root, T.last)]).toEqual([0, 0]);
  });

  it('refuses File IDs and File-set IDs media cannot hold', () => {
    expect(isValidFileId(['DICOM', 'P0000001', 'S0000001', 'SE000001', 'I0000001'])).toBe(true);
    expect(isValidFileId(['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'])).toBe(true);
    for (const bad of [
      [],
      ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I'],
      ['TOOLONG12'],
      ['lower'],
      ['I1.DCM'],
      ['A-B'],
      [''],
    ]) {
      expect(isValidFileId(bad), bad.join('/')).toBe(false);
    }
    const bad = { fileSetId: '', instanceUid: '1.2', records: [simple('PATIENT', [instance('IMAGE', ['img.dcm'])])] };
    expect(() => encodeDicomdir(bad)).toThrow(/File ID/);
    expect(() => encodeDicomdir({ ...bad, fileSetId: 'lower case', records: [] })).toThrow(/File-set ID/);
  });

  it('names the record type of each SOP class', () => {
    expect(recordTypeOf('1.2.840.10008.5.1.4.1.1.2')).toBe('IMAGE');
    expect(recordTypeOf('1.2.840.10008.5.1.4.1.1.4')).toBe('IMAGE');
    expect(recordTypeOf(OBJECT_SOP_CLASS.comprehensiveSr)).toBe('SR DOCUMENT');
    expect(recordTypeOf(OBJECT_SOP_CLASS.basicTextSr)).toBe('SR DOCUMENT');
    expect(recordTypeOf(OBJECT_SOP_CLASS.keyObjectSelection)).toBe('KEY OBJECT DOC');
    expect(recordTypeOf(OBJECT_SOP_CLASS.encapsulatedPdf)).toBe('ENCAP DOC');
    expect(recordTypeOf('1.2.840.10008.5.1.4.1.1.11.1')).toBe('PRESENTATION');
    expect(recordTypeOf('1.2.840.10008.5.1.4.1.1.9.1.1')).toBe('WAVEFORM');
    expect(recordTypeOf('1.2.840.10008.5.1.4.1.1.66')).toBe('RAW DATA');
    expect(recordTypeOf('1.2.840.10008.5.1.4.1.1.66.4')).toBe('IMAGE');
    expect(recordTypeOf('1.2.840.10008.5.1.4.1.1.481.2')).toBe('RT DOSE');
    expect(recordTypeOf('1.2.840.10008.5.1.4.1.1.481.1')).toBe('IMAGE');
  });
});

const defaults: KeyDefaults = {
  patientId: 'INVENTED-PID',
  studyId: '0007',
  modality: 'OT',
  seriesNumber: 3,
  instanceNumber: 9,
  today: '20261129',
  now: '101500',
};

/** The keys of a record as a dataset, with the text of each. */
function keysOf(type: RecordType, bytes: Buffer): Dataset {
  const facts = readInstanceFacts(bytes)!;
  expect(facts).not.toBeNull();
  const file = encodeDicomdir({
    fileSetId: '',
    instanceUid: '1.2',
    records: [{ type, keys: recordKeys(type, facts, defaults) }],
  });
  return items(file).records[0]!.ds;
}

const text = (ds: Dataset, g: number, e: number) => textOf(ds, tag(g, e), '');

describe('record keys from the files', () => {
  it('copies the patient, study, series and image keys as the file writes them, its character set named', () => {
    const ct = generateCtInstance({
      patientName: '张^三',
      charset: 'GB18030',
      patientId: 'P-1',
      studyDate: '20240105',
    });
    const patient = keysOf('PATIENT', ct.bytes);
    expect(text(patient, 0x0008, 0x0005)).toBe('GB18030');
    expect(textOf(patient, tag(0x0010, 0x0010), 'GB18030', 'PN')).toBe('张^三');
    expect(patient.get(tag(0x0010, 0x0010))!.value.equals(Buffer.from([0xd5, 0xc5, 0x5e, 0xc8, 0xfd, 0x20]))).toBe(
      true,
    );
    expect(text(patient, 0x0010, 0x0020)).toBe('P-1');
    const study = keysOf('STUDY', ct.bytes);
    expect(text(study, 0x0008, 0x0020)).toBe('20240105');
    expect(text(study, 0x0008, 0x0030)).not.toBe('');
    expect(text(study, 0x0020, 0x0010)).not.toBe('');
    expect(study.has(tag(0x0008, 0x0050))).toBe(true);
    expect(study.has(tag(0x0008, 0x1030))).toBe(true);
    const series = keysOf('SERIES', ct.bytes);
    expect([text(series, 0x0008, 0x0060), text(series, 0x0020, 0x000e), text(series, 0x0020, 0x0011)]).toEqual([
      'CT',
      ct.seriesInstanceUid,
      String(ct.seriesNumber),
    ]);
    expect(text(keysOf('IMAGE', ct.bytes), 0x0020, 0x0013)).toBe('1');
  });

  it('writes every type 1 and type 2 key of each record type, from the file or invented', () => {
    const study = generateStudy({ modality: 'CT', instancesPerSeries: 1, rows: 8, columns: 8 });
    const base = { studyInstanceUid: study.studyInstanceUid, patientId: study.patientId };
    const sr = generateSr(base);
    const ko = generateKeyObject(base, study.instances);
    const pdf = generatePdf(base);
    const pr = presentationState(study.studyInstanceUid, study.instances[0]!);
    const cases: [RecordType, Buffer][] = [
      ['SR DOCUMENT', sr.bytes],
      ['KEY OBJECT DOC', ko.bytes],
      ['ENCAP DOC', pdf.bytes],
      ['PRESENTATION', pr],
      ['IMAGE', study.instances[0]!.bytes],
    ];
    for (const [type, bytes] of cases) {
      const ds = keysOf(type, bytes);
      for (const spec of RECORD_KEYS[type]) {
        if (spec.need === '1' || spec.need === '2') {
          expect(ds.has(spec.tag), `${type} ${spec.tag.toString(16)}`).toBe(true);
        }
        if (spec.need === '1' && spec.vr !== 'SQ') {
          expect(textOf(ds, spec.tag, ''), `${type} ${spec.tag.toString(16)}`).not.toBe('');
        }
      }
    }
    const srKeys = keysOf('SR DOCUMENT', sr.bytes);
    expect([text(srKeys, 0x0040, 0xa491), text(srKeys, 0x0040, 0xa493), text(srKeys, 0x0040, 0xa030)]).toEqual([
      'COMPLETE',
      'VERIFIED',
      '20240602093000',
    ]);
    expect(srKeys.get(tag(0x0040, 0xa043))!.items![0]!.get(tag(0x0008, 0x0100))!.value.toString().trim()).toBe(
      '18748-4',
    );
    expect(text(keysOf('ENCAP DOC', pdf.bytes), 0x0042, 0x0012)).toBe('application/pdf');
    const prKeys = keysOf('PRESENTATION', pr);
    expect(text(prKeys, 0x0070, 0x0080)).toBe('MEASURE');
    const refSeries = prKeys.get(tag(0x0008, 0x1115))!.items![0]!;
    expect(textOf(refSeries, tag(0x0020, 0x000e), '')).toBe(study.instances[0]!.seriesInstanceUid);
    const refImage = refSeries.get(tag(0x0008, 0x1140))!.items![0]!;
    expect(textOf(refImage, tag(0x0008, 0x1155), '')).toBe(study.instances[0]!.sopInstanceUid);
  });

  it('invents the type 1 keys a file lacks: patient ID and study ID from the caller, the date from the content date', () => {
    const ds = new DatasetBuilder()
      .text(tag(0x0008, 0x0016), 'UI', '1.2.840.10008.5.1.4.1.1.7')
      .text(tag(0x0008, 0x0018), 'UI', '1.2.9.9')
      .text(tag(0x0008, 0x0023), 'DA', '20230304')
      .text(tag(0x0020, 0x000d), 'UI', '1.2.9')
      .text(tag(0x0020, 0x000e), 'UI', '1.2.9.1');
    const bytes = encodePart10({
      sopClassUid: '1.2.840.10008.5.1.4.1.1.7',
      sopInstanceUid: '1.2.9.9',
      transferSyntax: EXPLICIT_VR_LE,
      dataset: ds,
    });
    const patient = keysOf('PATIENT', bytes);
    expect(text(patient, 0x0010, 0x0020)).toBe('INVENTED-PID');
    expect(patient.get(tag(0x0010, 0x0010))!.value.length).toBe(0);
    expect(patient.has(tag(0x0008, 0x0005))).toBe(false);
    const study = keysOf('STUDY', bytes);
    expect([text(study, 0x0008, 0x0020), text(study, 0x0008, 0x0030), text(study, 0x0020, 0x0010)]).toEqual([
      '20230304',
      '101500',
      '0007',
    ]);
    expect(text(study, 0x0020, 0x000d)).toBe('1.2.9');
    const series = keysOf('SERIES', bytes);
    expect([text(series, 0x0008, 0x0060), text(series, 0x0020, 0x0011)]).toEqual(['OT', '3']);
    expect(text(keysOf('IMAGE', bytes), 0x0020, 0x0013)).toBe('9');
  });

  it('reads the keys from a prefix, and says when the prefix ended before the header did', () => {
    const ct = generateCtInstance({ patientId: 'P-PREFIX' });
    const whole = readInstanceFacts(ct.bytes.subarray(0, 64 * 1024))!;
    expect([whole.complete, whole.text(tag(0x0010, 0x0020)), whole.sopInstanceUid]).toEqual([
      true,
      'P-PREFIX',
      ct.sopInstanceUid,
    ]);
    const cut = readInstanceFacts(ct.bytes.subarray(0, 400))!;
    expect(cut.complete).toBe(false);
    expect(cut.sopInstanceUid).toBe(ct.sopInstanceUid);
  });

  it('answers null for bytes that are no Part 10 file', () => {
    expect(readInstanceFacts(Buffer.from('not dicom'))).toBeNull();
  });
});

/** A Grayscale Softcopy Presentation State naming one image. */
function presentationState(
  studyUid: string,
  image: { seriesInstanceUid: string; sopClassUid: string; sopInstanceUid: string },
) {
  const sop = '1.2.840.10008.5.1.4.1.1.11.1';
  const uid = `${studyUid}.77`;
  const ds = new DatasetBuilder()
    .text(tag(0x0008, 0x0016), 'UI', sop)
    .text(tag(0x0008, 0x0018), 'UI', uid)
    .text(tag(0x0008, 0x0060), 'CS', 'PR')
    .text(tag(0x0010, 0x0010), 'PN', 'DOE^JANE')
    .text(tag(0x0020, 0x000d), 'UI', studyUid)
    .text(tag(0x0020, 0x000e), 'UI', `${studyUid}.78`)
    .integerString(tag(0x0020, 0x0013), 1)
    .text(tag(0x0070, 0x0080), 'CS', 'MEASURE')
    .text(tag(0x0070, 0x0081), 'LO', 'A length')
    .text(tag(0x0070, 0x0082), 'DA', '20240601')
    .text(tag(0x0070, 0x0083), 'TM', '120000')
    .text(tag(0x0070, 0x0084), 'PN', 'LI^LEI')
    .sequence(tag(0x0008, 0x1115), [
      new DatasetBuilder()
        .text(tag(0x0020, 0x000e), 'UI', image.seriesInstanceUid)
        .sequence(tag(0x0008, 0x1140), [
          new DatasetBuilder()
            .text(tag(0x0008, 0x1150), 'UI', image.sopClassUid)
            .text(tag(0x0008, 0x1155), 'UI', image.sopInstanceUid),
        ]),
    ]);
  return encodePart10({ sopClassUid: sop, sopInstanceUid: uid, transferSyntax: EXPLICIT_VR_LE, dataset: ds });
}
