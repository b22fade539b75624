import { PROCEDURE_IMPORT_COLUMNS, procedureInputSchema } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { procedureOf } from '../../../test/procedureFixtures';
import { templateHeaders } from './ProcedureImportModal';
import { fenOf, matchesSearch, movedIds, procedureBody, procedureFormValues, yuanText } from './procedureForm';
import { columnName, crc32, xlsxBytes } from './xlsxSheet';

describe('procedure form values', () => {
  it('round-trips a procedure: the form shows yuan, the body carries fen, and the contract accepts it', () => {
    const procedure = procedureOf({ price: 18050 });
    const values = procedureFormValues(procedure);
    expect(values.priceYuan).toBe(180.5);
    const body = procedureBody(values);
    expect(body.price).toBe(18050);
    expect(procedureInputSchema.parse(body)).toMatchObject({ code: 'CT-HEAD', steps: ['Position', 'Scan'] });
  });

  it('rounds the price to whole fen and reads an empty one as 0', () => {
    expect(fenOf(0.1 + 0.2)).toBe(30);
    expect(fenOf(19.99)).toBe(1999);
    expect(fenOf(null)).toBe(0);
    expect(yuanText(12000)).toBe('120.00');
  });

  it('trims texts, drops empty steps and sends no AE title as empty', () => {
    const body = procedureBody({
      ...procedureFormValues(null),
      name: ' Chest CT ',
      code: ' CT-CHEST ',
      modality: 'CT ',
      aeTitle: undefined,
      steps: [' Scan ', ' '],
    });
    expect(body).toMatchObject({ name: 'Chest CT', code: 'CT-CHEST', modality: 'CT', aeTitle: '', steps: ['Scan'] });
    expect(procedureInputSchema.safeParse(body).success).toBe(true);
  });
});

describe('search and order', () => {
  it('matches name, code, English name and modality in any case', () => {
    const p = procedureOf();
    expect(['head', 'ct-HEAD', 'PLAIN', 'ct', ''].map((s) => matchesSearch(p, s))).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(matchesSearch(p, 'knee')).toBe(false);
  });

  it('moves an id one place and refuses to move past either end', () => {
    expect(movedIds(['a', 'b', 'c'], 'b', -1)).toEqual(['b', 'a', 'c']);
    expect(movedIds(['a', 'b', 'c'], 'b', 1)).toEqual(['a', 'c', 'b']);
    expect(movedIds(['a', 'b', 'c'], 'a', -1)).toBeNull();
    expect(movedIds(['a', 'b', 'c'], 'c', 1)).toBeNull();
    expect(movedIds(['a'], 'x', 1)).toBeNull();
  });
});

/** The files of a stored (uncompressed) zip, read back by their local headers. */
function unzipStored(bytes: Uint8Array): Map<string, string> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const files = new Map<string, string>();
  let at = 0;
  while (view.getUint32(at, true) === 0x04034b50) {
    expect(view.getUint16(at + 8, true)).toBe(0); // stored
    const size = view.getUint32(at + 18, true);
    const nameLength = view.getUint16(at + 26, true);
    const name = new TextDecoder().decode(bytes.subarray(at + 30, at + 30 + nameLength));
    const data = bytes.subarray(at + 30 + nameLength, at + 30 + nameLength + size);
    expect(view.getUint32(at + 14, true)).toBe(crc32(data));
    files.set(name, new TextDecoder().decode(data));
    at += 30 + nameLength + size;
  }
  return files;
}

describe('the import template (.xlsx written in the browser)', () => {
  it('computes the zip CRC-32 and spreadsheet column names', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    expect([0, 25, 26, 27, 51, 52].map(columnName)).toEqual(['A', 'Z', 'AA', 'AB', 'AZ', 'BA']);
  });

  it('holds the header row the server reads, in chs or en, with texts escaped', () => {
    expect(templateHeaders('chs')).toEqual(PROCEDURE_IMPORT_COLUMNS.map((c) => c.chs));
    expect(templateHeaders('tib')).toEqual(PROCEDURE_IMPORT_COLUMNS.map((c) => c.chs));
    expect(templateHeaders('en')).toEqual(PROCEDURE_IMPORT_COLUMNS.map((c) => c.en));

    const files = unzipStored(xlsxBytes('检查项目', [templateHeaders('chs'), ['a & <b>']]));
    expect([...files.keys()]).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/workbook.xml',
      'xl/_rels/workbook.xml.rels',
      'xl/worksheets/sheet1.xml',
    ]);
    const sheet = files.get('xl/worksheets/sheet1.xml') ?? '';
    expect(sheet).toContain('<c r="A1" t="inlineStr"><is><t xml:space="preserve">名称</t></is></c>');
    expect(sheet).toContain(`<c r="N1" t="inlineStr"><is><t xml:space="preserve">影像可选</t></is></c>`);
    expect(sheet).toContain('<t xml:space="preserve">a &amp; &lt;b&gt;</t>');
    expect(files.get('xl/workbook.xml')).toContain('<sheet name="检查项目"');
  });
});
