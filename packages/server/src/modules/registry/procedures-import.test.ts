import { PROCEDURE_IMPORT_MAX_ROWS } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors.js';
import { loadWorkbook, readProcedureSheet } from './procedures-import.js';
import { CHS_HEADER, EN_HEADER, xlsxOf } from './procedures.fixture.js';

const groups = [
  { id: 'g-ct', name: 'CT 组' },
  { id: 'g-mr', name: 'MR组' },
];

async function read(rows: Parameters<typeof xlsxOf>[0]) {
  return readProcedureSheet(await loadWorkbook(await xlsxOf(rows)), groups);
}

describe('readProcedureSheet', () => {
  it('reads every column of an English sheet', async () => {
    const sheet = await read([
      EN_HEADER,
      [
        '头颅平扫',
        'CT001',
        'Head plain',
        120.5,
        '螺旋',
        'yes',
        2,
        'CT',
        'CT_ROOM1',
        'CT 组, mr组',
        '定位;扫描；重建',
        1,
        'no',
        0,
      ],
    ]);
    expect(sheet.errors).toEqual([]);
    expect(sheet.procedures).toEqual([
      {
        name: '头颅平扫',
        code: 'CT001',
        enName: 'Head plain',
        price: 12050,
        scanTech: '螺旋',
        isEnhanced: true,
        bodyPartCount: 2,
        modality: 'CT',
        aeTitle: 'CT_ROOM1',
        deviceGroupIds: ['g-ct', 'g-mr'],
        steps: ['定位', '扫描', '重建'],
        reportDuringExam: true,
        showLocalVideo: false,
        imagingOptional: false,
      },
    ]);
  });

  it('reads a Chinese header and leaves absent or empty cells to the defaults', async () => {
    const sheet = await read([
      CHS_HEADER.slice(0, 8),
      ['胸部平扫', 'CT002', null, '80', null, '否', null, 'CT'],
      [null, null, null, null, null, null, null, null],
      ['超声', 'US001', '', '', '', '是', '', 'US'],
    ]);
    expect(sheet.errors).toEqual([]);
    expect(sheet.procedures.map((p) => [p.code, p.price, p.isEnhanced, p.bodyPartCount, p.steps])).toEqual([
      ['CT002', 8000, false, 1, []],
      ['US001', 0, true, 1, []],
    ]);
  });

  it('names every bad cell by row and column, and a code twice in the file', async () => {
    const sheet = await read([
      EN_HEADER,
      ['', 'X1', '', '1.005', '', 'maybe', 'two', 'CT', 'bad\\ae', '不存在', '', '', '', ''],
      ['好', 'X2', '', '', '', '', '', 'CT', '', '', '', '', '', ''],
      ['重复', 'x2', '', '', '', '', '', '', '', '', '', '', '', ''],
    ]);
    expect(sheet.procedures).toHaveLength(1);
    // Each with the problem's code, for the screen to say in the user's language.
    expect(sheet.errors.map((e) => [e.row, e.column, e.problem, e.value])).toEqual([
      [2, 'isEnhanced', 'yesNo', undefined],
      [2, 'price', 'price', undefined],
      [2, 'bodyPartCount', 'wholeNumber', undefined],
      [2, 'deviceGroups', 'unknownDeviceGroup', '不存在'],
      [2, 'name', 'required', undefined],
      [2, 'aeTitle', 'invalid', undefined],
      [4, 'modality', 'required', undefined],
    ]);
  });

  it('reports the code of an earlier row', async () => {
    const sheet = await read([
      EN_HEADER.slice(0, 8),
      ['甲', 'A1', '', '', '', '', '', 'CT'],
      ['乙', 'a1', '', '', '', '', '', 'MR'],
      ['丙'.repeat(65), 'B1', '', '', '', '', '', 'MR'],
    ]);
    expect(sheet.errors.map(({ message: _, ...e }) => e)).toEqual([
      { row: 3, column: 'code', problem: 'duplicateCode', value: '2' },
      { row: 4, column: 'name', problem: 'tooLong', value: '64' },
    ]);
    expect(sheet.errors[0]!.message).toBe('the code of row 2');
  });

  it('answers the missing required columns as errors of row 1', async () => {
    const sheet = await read([
      ['名称', '价格'],
      ['甲', 1],
    ]);
    expect(sheet.errors.map((e) => [e.row, e.column, e.problem])).toEqual([
      [1, 'code', 'missingColumn'],
      [1, 'modality', 'missingColumn'],
    ]);
  });

  it('refuses a file that is not a workbook, an empty sheet and too many rows', async () => {
    await expect(loadWorkbook(Buffer.from('not a zip'))).rejects.toBeInstanceOf(AppError);
    await expect(read([EN_HEADER])).rejects.toThrow(/no procedures/);
    const many = Array.from({ length: PROCEDURE_IMPORT_MAX_ROWS + 1 }, (_, i) => [`项目${i}`, `C${i}`, 'CT']);
    await expect(read([['name', 'code', 'modality'], ...many])).rejects.toThrow(/At most/);
  });
});
