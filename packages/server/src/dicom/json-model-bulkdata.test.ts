import dicomParser from 'dicom-parser';
import { describe, expect, it } from 'vitest';
import { bulkDataValue, instanceMetadata, toDicomJson } from './json-model.js';
import { DatasetBuilder, EXPLICIT_VR_LE, IMPLICIT_VR_LE, encodePart10, tag } from './testdata/writer.js';

/**
 * BulkDataURIs name values inside sequence items as well as top-level ones (issue 28 item 8): the
 * tag path written into the metadata reads back the very value it stands for, item by item.
 */
const icon = (fill: number) => Buffer.alloc(40 * 40, fill);
const NO_URI = '/bulkdata/';

function fileWithIcons(transferSyntax: typeof EXPLICIT_VR_LE | typeof IMPLICIT_VR_LE): Buffer {
  const item = (fill: number) =>
    new DatasetBuilder()
      .uint16(tag(0x0028, 0x0010), 40)
      .uint16(tag(0x0028, 0x0011), 40)
      .uint16(tag(0x0028, 0x0100), 8)
      .bytes(tag(0x7fe0, 0x0010), 'OB', icon(fill));
  const ds = new DatasetBuilder()
    .text(tag(0x0008, 0x0016), 'UI', '1.2.840.10008.5.1.4.1.1.7')
    .text(tag(0x0008, 0x0018), 'UI', '1.2.3.4')
    .sequence(tag(0x0088, 0x0200), [item(7), item(9)])
    .bytes(tag(0x0099, 0x1010), 'OB', Buffer.alloc(2000, 3));
  return encodePart10({
    sopClassUid: '1.2.840.10008.5.1.4.1.1.7',
    sopInstanceUid: '1.2.3.4',
    transferSyntax,
    dataset: ds,
  });
}

describe('BulkDataURI tag paths', () => {
  for (const ts of [EXPLICIT_VR_LE, IMPLICIT_VR_LE] as const) {
    it(`names each item's value apart and reads it back (${ts})`, () => {
      const file = fileWithIcons(ts);
      const json = instanceMetadata(file, (path) => `${NO_URI}${path}`);
      const items = json['00880200']!.Value as { '7FE00010': { BulkDataURI: string } }[];
      const uris = items.map((i) => i['7FE00010'].BulkDataURI);
      expect(uris).toEqual([`${NO_URI}00880200.0.7FE00010`, `${NO_URI}00880200.1.7FE00010`]);
      expect(Buffer.from(bulkDataValue(file, '00880200.0.7FE00010')!).equals(icon(7))).toBe(true);
      expect(Buffer.from(bulkDataValue(file, '00880200.1.7fe00010')!).equals(icon(9))).toBe(true);
      expect(Buffer.from(bulkDataValue(file, '00991010')!).equals(Buffer.alloc(2000, 3))).toBe(true);
    });
  }

  it('answers null for a path that names no value', () => {
    const file = fileWithIcons(EXPLICIT_VR_LE);
    for (const path of [
      '00880200', // a sequence, not a value
      '00880200.2.7FE00010', // no third item
      '00880200.0', // an item, not a value
      '00880200.x.7FE00010',
      '00880200.0.00280010.0.7FE00010', // a value is not a sequence
      '7FE00010', // no pixel data at the top level
      '0088020',
      '',
      `${'00880200.0.'.repeat(200)}7FE00010`,
    ]) {
      expect(bulkDataValue(file, path), path).toBeNull();
    }
  });

  it('writes nested paths from the element tags as toDicomJson walks them', () => {
    const ds = dicomParser.parseDicom(fileWithIcons(EXPLICIT_VR_LE));
    const paths: string[] = [];
    toDicomJson(ds, undefined, (p) => {
      paths.push(p);
      return p;
    });
    expect(paths).toEqual(['00880200.0.7FE00010', '00880200.1.7FE00010', '00991010']);
  });
});
