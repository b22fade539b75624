import { describe, expect, it } from 'vitest';
import { charsetOf, itemsOf, readDataset, textOf } from './dataset-reader.js';
import { DatasetBuilder, EXPLICIT_VR_LE, IMPLICIT_VR_LE, tag } from './dataset-writer.js';
import { DicomError } from './parse.js';
import { encodeText } from './text-encode.js';

const NAME = tag(0x0010, 0x0010);
const SPS = tag(0x0040, 0x0100);
const MODALITY = tag(0x0008, 0x0060);

describe('dataset writer', () => {
  it('writes explicit VR elements sorted by tag, text padded to even length', () => {
    const b = new DatasetBuilder().text(tag(0x0010, 0x0020), 'LO', 'P1').text(tag(0x0008, 0x0060), 'CS', 'CT');
    expect([...b.toBuffer(true)]).toEqual([
      ...[0x08, 0, 0x60, 0, 0x43, 0x53, 2, 0, 0x43, 0x54],
      ...[0x10, 0, 0x20, 0, 0x4c, 0x4f, 2, 0, 0x50, 0x31],
    ]);
    const odd = new DatasetBuilder().text(tag(0x0020, 0x000d), 'UI', '1.2.3').toBuffer(false);
    expect([...odd]).toEqual([0x20, 0, 0x0d, 0, 6, 0, 0, 0, ...Buffer.from('1.2.3'), 0]);
  });

  it('writes sequences with undefined lengths and delimiters, in both transfer syntaxes', () => {
    for (const ts of [EXPLICIT_VR_LE, IMPLICIT_VR_LE]) {
      const bytes = new DatasetBuilder()
        .sequence(SPS, [new DatasetBuilder().text(MODALITY, 'CS', 'MR'), new DatasetBuilder()])
        .text(NAME, 'PN', 'DOE^JOHN')
        .toBuffer(ts === EXPLICIT_VR_LE);
      const ds = readDataset(bytes, ts);
      expect(textOf(ds, NAME, '', 'PN')).toBe('DOE^JOHN');
      const items = itemsOf(ds, SPS);
      expect(items).toHaveLength(2);
      expect(textOf(items[0]!, MODALITY, '')).toBe('MR');
      expect(items[1]!.size).toBe(0);
      expect(bytes.includes(Buffer.from([0xfe, 0xff, 0xdd, 0xe0, 0, 0, 0, 0]))).toBe(true);
    }
  });

  it('encodes text in the character set given: GB18030, UTF-8 and Latin-1, read back the same', () => {
    const cases = [
      ['GB18030', '张三^', [0xd5, 0xc5, 0xc8, 0xfd, 0x5e, 0x20]],
      ['ISO_IR 192', 'Müller^Jörg', [...Buffer.from('Müller^Jörg', 'utf8'), 0x20]],
      ['ISO_IR 100', 'Müller', [0x4d, 0xfc, 0x6c, 0x6c, 0x65, 0x72]],
    ] as const;
    for (const [charset, name, bytes] of cases) {
      const out = new DatasetBuilder(charset)
        .text(tag(0x0008, 0x0005), 'CS', charset)
        .text(NAME, 'PN', name)
        .toBuffer(true);
      const ds = readDataset(out, EXPLICIT_VR_LE);
      expect([...ds.get(NAME)!.value]).toEqual(bytes);
      expect(charsetOf(ds)).toBe(charset);
      expect(textOf(ds, NAME, charsetOf(ds), 'PN')).toBe(name.trimEnd());
    }
    // CS, DA, UI … are in the default repertoire whatever the dataset's character set.
    expect(() => new DatasetBuilder('GB18030').text(MODALITY, 'CS', '张')).toThrow(/repertoire/);
    expect(() => encodeText('😀', 'GB18030')).toThrow(/two-byte/);
    expect(() => encodeText('张', 'ISO_IR 100')).toThrow(/repertoire/);
  });
});

describe('dataset reader', () => {
  it('reads defined-length sequences and items, in implicit VR when the tag is named a sequence', () => {
    const item = new DatasetBuilder().text(MODALITY, 'CS', 'CT').toBuffer(false);
    const itemHeader = Buffer.from([0xfe, 0xff, 0x00, 0xe0, item.length, 0, 0, 0]);
    const sq = Buffer.concat([itemHeader, item]);
    const head = Buffer.from([0x40, 0, 0x00, 0x01, sq.length, 0, 0, 0]);
    const ds = readDataset(Buffer.concat([head, sq]), IMPLICIT_VR_LE, new Set([SPS]));
    expect(textOf(itemsOf(ds, SPS)[0]!, MODALITY, '')).toBe('CT');
    // Not named a sequence: a plain value.
    expect(readDataset(Buffer.concat([head, sq]), IMPLICIT_VR_LE).get(SPS)!.items).toBeUndefined();
  });

  it('refuses truncated values, unterminated sequences, bad VRs and stray delimiters with a DicomError', () => {
    const good = new DatasetBuilder()
      .sequence(SPS, [new DatasetBuilder().text(MODALITY, 'CS', 'CT')])
      .text(NAME, 'PN', 'DOE')
      .toBuffer(true);
    const bad = [
      good.subarray(0, good.length - 1),
      good.subarray(0, 20),
      Buffer.concat([Buffer.from([0x10, 0, 0x10, 0, 0x70, 0x6e, 2, 0]), Buffer.from('AB')]),
      Buffer.from([0xfe, 0xff, 0x0d, 0xe0, 0, 0, 0, 0]),
      Buffer.from([0x10, 0, 0x10, 0, 0x50, 0x4e, 10, 0, 0x41, 0x42]),
    ];
    for (const b of bad) expect(() => readDataset(b, EXPLICIT_VR_LE)).toThrow(DicomError);
    // Nested deeper than the limit.
    let deep = new DatasetBuilder();
    for (let i = 0; i < 80; i++) deep = new DatasetBuilder().sequence(SPS, [deep]);
    expect(() => readDataset(deep.toBuffer(false), IMPLICIT_VR_LE)).toThrow(/deeper/);
  });
});
