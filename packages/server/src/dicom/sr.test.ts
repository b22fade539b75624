import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DicomError } from './parse.js';
import {
  encapsulatedDocument,
  instanceDataset,
  keyObjectImages,
  readableName,
  readSrDocument,
  SR_MAX_DEPTH,
  SR_MAX_ITEMS,
  type SrDocument,
} from './sr.js';
import { generateStudy, IMPLICIT_VR_LE } from './testdata/generate.js';
import { mutations, nestedSequences } from './testdata/mutate.js';
import { type Content, generateKeyObject, generatePdf, generateSr, samplePdf } from './testdata/objects.js';

const study = generateStudy({ modality: 'CT', instancesPerSeries: 3, rows: 8, columns: 8 });
const s = { studyInstanceUid: study.studyInstanceUid };
const dir = mkdtempSync(path.join(tmpdir(), 'yyp-sr-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const read = (bytes: Uint8Array): SrDocument => readSrDocument(instanceDataset(bytes));
/** The items as "depth relationship TYPE concept = value" lines. */
const lines = (doc: SrDocument) =>
  doc.items.map((i) => `${i.depth} ${i.relationship} ${i.valueType} ${i.concept} = ${i.value}`.replace(/ +/g, ' '));

/** Runs a DCMTK tool on `bytes` written to a file; answers the file it wrote. */
function dcmtk(tool: string, args: string[], bytes: Buffer, outName: string): Buffer {
  const input = path.join(dir, `${outName}.in`);
  const output = path.join(dir, outName);
  writeFileSync(input, bytes);
  const r = spawnSync(tool, [...args.map((a) => (a === 'IN' ? input : a === 'OUT' ? output : a))], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`${tool} failed: ${r.stderr}`);
  return readFileSync(output);
}

const EXPECTED = [
  '0 CONTAINER Diagnostic Imaging Report = ',
  '1 HAS OBS CONTEXT PNAME Person Observer Name = LI^LEI',
  '1 HAS OBS CONTEXT DATE Study Date = 2024-06-01',
  '1 CONTAINS CONTAINER Findings = ',
  '2 CONTAINS TEXT Finding = Nodule in the right upper lobe',
  '2 CONTAINS NUM Length = 12.5 mm',
  '3 HAS PROPERTIES CODE Finding Site = Lung',
  '2 CONTAINS DATETIME DateTime Started = 2024-06-01 10:15:00',
  `2 CONTAINS UIDREF Procedure Study Instance UID = ${study.studyInstanceUid}`,
  '1 CONTAINS CONTAINER Conclusions = ',
  '2 CONTAINS TEXT Conclusion = Follow-up CT in 3 months',
];

describe('readSrDocument', () => {
  it('reads the content tree, title, flags and verifying observer of a Comprehensive SR', () => {
    const doc = read(generateSr(s).bytes);
    expect(doc.title).toBe('Diagnostic Imaging Report');
    expect(doc.completion).toBe('COMPLETE');
    expect(doc.verification).toBe('VERIFIED');
    expect(doc.contentDate).toBe('2024-06-02');
    expect(doc.contentTime).toBe('09:30:00');
    expect(doc.observers).toEqual([
      { role: 'verifier', name: 'WANG^FANG', organization: 'YYP Test Hospital', dateTime: '2024-06-02 09:30:00' },
    ]);
    expect(lines(doc)).toEqual(EXPECTED);
    expect(doc.truncated).toBe(false);
  });

  it('reads the same tree from Implicit VR with defined lengths, deflated, and as written by DCMTK (xml2dsr)', () => {
    const explicit = generateSr(s).bytes;
    const implicitDefined = dcmtk('dcmconv', ['+ti', '+e', 'IN', 'OUT'], explicit, 'implicit.dcm');
    const deflated = dcmtk('dcmconv', ['+td', 'IN', 'OUT'], explicit, 'deflated.dcm');
    const xml = dcmtk('dsr2xml', ['IN', 'OUT'], explicit, 'sr.xml');
    const byDcmtk = dcmtk('xml2dsr', ['IN', 'OUT'], xml, 'dcmtk.dcm');
    for (const bytes of [
      implicitDefined,
      deflated,
      byDcmtk,
      generateSr({ ...s, transferSyntax: IMPLICIT_VR_LE }).bytes,
    ]) {
      expect(lines(read(bytes))).toEqual(EXPECTED);
    }
  });

  it("decodes text, names and codes in the instance's character set (GB18030)", () => {
    const content: Content[] = [
      { type: 'TEXT', rel: 'CONTAINS', concept: ['121071', '发现'], text: '右肺上叶结节，直径约 12 毫米' },
      { type: 'PNAME', rel: 'HAS OBS CONTEXT', concept: ['121008', '观察者'], value: 'Li^Lei=李^雷' },
    ];
    const doc = read(generateSr({ ...s, charset: 'GB18030', patientName: '张^三', verifier: '王^芳' }, content).bytes);
    expect(doc.patientName).toBe('张^三');
    expect(doc.observers[0]!.name).toBe('王^芳');
    expect(lines(doc).slice(1)).toEqual([
      '1 CONTAINS TEXT 发现 = 右肺上叶结节，直径约 12 毫米',
      '1 HAS OBS CONTEXT PNAME 观察者 = Li^Lei=李^雷',
    ]);
  });

  it(`cuts content nested deeper than ${SR_MAX_DEPTH} levels and marks the document truncated`, () => {
    let deep: Content = { type: 'TEXT', rel: 'CONTAINS', concept: ['1', 'leaf'], text: 'bottom' };
    for (let i = 0; i < 40; i++) {
      deep = { type: 'CONTAINER', rel: 'CONTAINS', concept: ['1', `level`], children: [deep] };
    }
    const doc = read(generateSr(s, [deep]).bytes);
    expect(doc.truncated).toBe(true);
    expect(Math.max(...doc.items.map((i) => i.depth))).toBe(SR_MAX_DEPTH);
    expect(doc.items.some((i) => i.value === 'bottom')).toBe(false);
  });

  it(`answers at most ${SR_MAX_ITEMS} items of a huge document`, () => {
    const many: Content[] = Array.from({ length: SR_MAX_ITEMS + 500 }, (_, i) => ({
      type: 'TEXT',
      rel: 'CONTAINS',
      concept: ['1', 'Line'],
      text: `line ${i}`,
    }));
    const doc = read(generateSr(s, many).bytes);
    expect(doc.items).toHaveLength(SR_MAX_ITEMS);
    expect(doc.truncated).toBe(true);
  });

  it('refuses malformed input with a DicomError, never anything else', () => {
    const valid = generateSr(s).bytes;
    const refusals = [
      () => read(Buffer.from('not dicom at all')),
      () => read(nestedSequences(valid, 10_000)),
      () => read(nestedSequences(valid, 10_000, false)),
      () => read(valid.subarray(0, valid.length - 7)),
      () => read(generatePdf(s).bytes), // no SR content at all
      () => read(dcmtk('dcmconv', ['+tb', 'IN', 'OUT'], valid, 'big.dcm')), // big endian: unsupported
    ];
    for (const refuse of refusals) expect(refuse).toThrow(DicomError);
    let outcomes = 0;
    for (const m of mutations(valid, 28, 300)) {
      try {
        read(m.bytes);
      } catch (err) {
        expect(err, m.kind).toBeInstanceOf(DicomError);
      }
      outcomes++;
    }
    expect(outcomes).toBe(300);
  });
});

describe('key objects and encapsulated documents', () => {
  it("lists a Key Object Selection's images", () => {
    const images = study.instances.slice(0, 2);
    const doc = read(generateKeyObject(s, images, 'Two nodules').bytes);
    expect(doc.title).toBe('Of Interest');
    expect(doc.items[1]!.value).toBe('Two nodules');
    expect(keyObjectImages(doc)).toEqual(images.map((i) => ({ sopUid: i.sopInstanceUid, frames: [] })));
  });

  it('answers the PDF of an Encapsulated PDF exactly, ours and one made by pdf2dcm', () => {
    const pdf = samplePdf('hello');
    const ours = encapsulatedDocument(instanceDataset(generatePdf(s, pdf, 'Outside report').bytes));
    expect(ours?.bytes.equals(pdf)).toBe(true);
    expect(ours?.mimeType).toBe('application/pdf');
    expect(ours?.title).toBe('Outside report');
    const made = dcmtk('pdf2dcm', ['+t', 'Made elsewhere', '+pn', 'DOE^JOHN', 'IN', 'OUT'], pdf, 'pdf2dcm.dcm');
    const theirs = encapsulatedDocument(instanceDataset(made));
    expect(theirs?.bytes.subarray(0, pdf.length).equals(pdf)).toBe(true);
    expect(theirs?.bytes.length).toBeLessThanOrEqual(pdf.length + 1);
    expect(theirs?.title).toBe('Made elsewhere');
    expect(encapsulatedDocument(instanceDataset(generateSr(s).bytes))).toBeNull();
  });

  it('reads person names for display', () => {
    expect(readableName('Zhang^San')).toBe('Zhang San');
    expect(readableName('Zhang^San=张^三=')).toBe('Zhang San (张 三)');
    expect(readableName('')).toBe('');
  });
});
