import {
  PROCEDURE_IMPORT_COLUMNS,
  PROCEDURE_IMPORT_MAX_ROWS,
  procedureInputSchema,
  type ProcedureImportField,
  type ProcedureImportProblem,
  type ProcedureImportRowError,
} from '@yyp/contracts';
import type { CellValue, Workbook, Worksheet } from 'exceljs';
import type { z } from 'zod';
import type { DeviceGroupRow } from '../../db/schema.js';
import { errors } from '../../platform/errors.js';

/**
 * The Excel import of procedures (issue 22, procedure management), read from the workbook's first
 * sheet: row 1 names the columns (contracts PROCEDURE_IMPORT_COLUMNS, in chs or en, any case;
 * other columns are ignored), each further non-empty row is a procedure. Every cell is checked and
 * every bad one reported (row number, column, message); the caller imports nothing when any is.
 */
export type ImportedProcedure = z.infer<typeof procedureInputSchema>;

export interface ProcedureSheet {
  procedures: ImportedProcedure[];
  errors: ProcedureImportRowError[];
}

/** Loads an .xlsx file (400 when it is not one). exceljs is loaded on the first import, not at start. */
export async function loadWorkbook(file: Buffer): Promise<Workbook> {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(file as unknown as ArrayBuffer);
  } catch {
    throw errors.validation('The file is not an .xlsx workbook', { field: 'body' });
  }
  return workbook;
}

/** A cell's value as the text a person sees in it. */
export function cellText(value: CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if ('richText' in value) {
    return value.richText
      .map((part) => part.text)
      .join('')
      .trim();
  }
  if ('formula' in value || 'sharedFormula' in value) return cellText((value.result ?? null) as CellValue);
  if ('text' in value) return cellText(value.text as CellValue);
  return '';
}

const normal = (header: string) => header.toLowerCase().replace(/[\s_]/g, '');

const TRUE = new Set(['是', 'yes', 'y', 'true', '1']);
const FALSE = new Set(['否', 'no', 'n', 'false', '0']);
const FLAGS = ['isEnhanced', 'reportDuringExam', 'showLocalVideo', 'imagingOptional'] as const;
const TEXTS = ['name', 'code', 'enName', 'scanTech', 'modality', 'aeTitle'] as const;

/** Which column of the sheet holds each field, from the header row. */
function columnsOf(sheet: Worksheet): Map<ProcedureImportField, number> {
  const byHeader = new Map<string, ProcedureImportField>();
  for (const c of PROCEDURE_IMPORT_COLUMNS) {
    for (const header of [c.chs, c.en, c.field]) byHeader.set(normal(header), c.field);
  }
  const columns = new Map<ProcedureImportField, number>();
  sheet.getRow(1).eachCell((cell, col) => {
    const field = byHeader.get(normal(cellText(cell.value)));
    if (field && !columns.has(field)) columns.set(field, col);
  });
  return columns;
}

/** One row's cells read into a procedure's input (before the schema checks it), with its bad cells. */
function readRow(
  cell: (field: ProcedureImportField) => string,
  groupIds: Map<string, string>,
): { input: Record<string, unknown>; bad: Bad[] } {
  const input: Record<string, unknown> = {};
  const bad: Bad[] = [];
  for (const field of TEXTS) if (cell(field) !== '') input[field] = cell(field);
  for (const field of FLAGS) {
    const text = cell(field).toLowerCase();
    if (text === '') continue;
    if (TRUE.has(text)) input[field] = true;
    else if (FALSE.has(text)) input[field] = false;
    else bad.push([field, 'yesNo', '是/否, yes/no or 1/0']);
  }
  const price = cell('price');
  if (price !== '') {
    if (/^\d+(\.\d{1,2})?$/.test(price)) input.price = Math.round(Number(price) * 100);
    else bad.push(['price', 'price', 'a price in yuan with at most 2 decimals']);
  }
  const count = cell('bodyPartCount');
  if (count !== '') {
    if (/^\d+$/.test(count)) input.bodyPartCount = Number(count);
    else bad.push(['bodyPartCount', 'wholeNumber', 'a whole number']);
  }
  const names = cell('deviceGroups')
    .split(/[,，]/)
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !groupIds.has(name.toLowerCase()));
  if (unknown.length) {
    const names = unknown.join(', ');
    bad.push(['deviceGroups', 'unknownDeviceGroup', `not a device group of this organization: ${names}`, names]);
  } else input.deviceGroupIds = names.map((name) => groupIds.get(name.toLowerCase())!);
  input.steps = cell('steps')
    .split(/[;；]/)
    .map((step) => step.trim())
    .filter(Boolean);
  return { input, bad };
}

/** A bad cell: its column, the problem's code, the server's words and what the problem names. */
type Bad = [ProcedureImportField, ProcedureImportProblem, string, string?];

/** A schema issue as an import problem: an empty required cell, text too long, or else refused. */
function problemOf(issue: z.core.$ZodIssue): Pick<ProcedureImportRowError, 'problem' | 'value'> {
  if (issue.code === 'invalid_type' && issue.input === undefined) return { problem: 'required' };
  if (issue.code === 'too_small' && issue.origin === 'string') return { problem: 'required' };
  if (issue.code === 'too_big' && issue.origin === 'string') {
    return { problem: 'tooLong', value: String(issue.maximum) };
  }
  return { problem: 'invalid' };
}

/** The schema's field an issue is about, as the sheet's column. */
const columnOfIssue = (issue: z.core.$ZodIssue): string => {
  const field = String(issue.path[0] ?? '');
  return field === 'deviceGroupIds' ? 'deviceGroups' : field;
};

/**
 * Reads the procedures of the workbook's first sheet; `groups` are the organization's device
 * groups, named in the sheet. Throws 400 for a file that is not a sheet of procedures at all (no
 * sheet, more than PROCEDURE_IMPORT_MAX_ROWS rows); bad cells are answered in `errors`.
 */
export function readProcedureSheet(workbook: Workbook, groups: Pick<DeviceGroupRow, 'id' | 'name'>[]): ProcedureSheet {
  const sheet = workbook.worksheets[0];
  if (!sheet || sheet.actualRowCount < 2) throw errors.validation('The file has no procedures', { field: 'body' });
  if (sheet.actualRowCount - 1 > PROCEDURE_IMPORT_MAX_ROWS) {
    throw errors.validation(`At most ${PROCEDURE_IMPORT_MAX_ROWS} procedures at once`, { field: 'body' });
  }
  const columns = columnsOf(sheet);
  const missing = PROCEDURE_IMPORT_COLUMNS.filter((c) => c.required && !columns.has(c.field));
  if (missing.length) {
    return {
      procedures: [],
      errors: missing.map((c) => ({
        row: 1,
        column: c.field,
        problem: 'missingColumn' as const,
        message: `no column "${c.chs}" or "${c.en}"`,
      })),
    };
  }
  const groupIds = new Map(groups.map((g) => [g.name.toLowerCase(), g.id]));
  const procedures: ImportedProcedure[] = [];
  const found: ProcedureImportRowError[] = [];
  const codeRows = new Map<string, number>();
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    if (rowNumber === 1) return;
    const cell = (field: ProcedureImportField) => {
      const col = columns.get(field);
      return col === undefined ? '' : cellText(row.getCell(col).value);
    };
    if (PROCEDURE_IMPORT_COLUMNS.every((c) => cell(c.field) === '')) return;
    const { input, bad } = readRow(cell, groupIds);
    const rowErrors: ProcedureImportRowError[] = bad.map(([column, problem, message, value]) => ({
      row: rowNumber,
      column,
      problem,
      ...(value !== undefined ? { value } : {}),
      message,
    }));
    const parsed = procedureInputSchema.safeParse(input);
    if (parsed.success) {
      const code = parsed.data.code.toLowerCase();
      const first = codeRows.get(code);
      if (first !== undefined) {
        rowErrors.push({
          row: rowNumber,
          column: 'code',
          problem: 'duplicateCode',
          value: String(first),
          message: `the code of row ${first}`,
        });
      } else codeRows.set(code, rowNumber);
      if (rowErrors.length === 0) procedures.push(parsed.data);
    } else {
      for (const issue of parsed.error.issues) {
        const column = columnOfIssue(issue);
        if (!rowErrors.some((e) => e.column === column)) {
          rowErrors.push({ row: rowNumber, column, ...problemOf(issue), message: issue.message });
        }
      }
    }
    found.push(...rowErrors);
  });
  return { procedures, errors: found };
}
