import { z } from 'zod';
import { defineCall } from './call.js';

/**
 * The Excel import of an organization's procedures (issue 22, procedure management): the body is
 * the .xlsx file itself; its first sheet's first row names the columns, in chs or en.
 */
export const PROCEDURE_IMPORT_MAX_ROWS = 2000;
export const PROCEDURE_IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The columns of the sheet: the procedure's field, its header in chs and in en. */
export const PROCEDURE_IMPORT_COLUMNS = [
  { field: 'name', chs: '名称', en: 'name', required: true },
  { field: 'code', chs: '编码', en: 'code', required: true },
  { field: 'enName', chs: '英文名称', en: 'English name', required: false },
  { field: 'price', chs: '价格', en: 'price', required: false },
  { field: 'scanTech', chs: '扫描技术', en: 'scanTech', required: false },
  { field: 'isEnhanced', chs: '是否增强', en: 'isEnhanced', required: false },
  { field: 'bodyPartCount', chs: '部位数', en: 'bodyPartCount', required: false },
  { field: 'modality', chs: '检查类型', en: 'modality', required: true },
  { field: 'aeTitle', chs: 'AE Title', en: 'aeTitle', required: false },
  { field: 'deviceGroups', chs: '设备组', en: 'device groups', required: false },
  { field: 'steps', chs: '步骤', en: 'steps', required: false },
  { field: 'reportDuringExam', chs: '检查中报告', en: 'reportDuringExam', required: false },
  { field: 'showLocalVideo', chs: '显示本地视频', en: 'showLocalVideo', required: false },
  { field: 'imagingOptional', chs: '影像可选', en: 'imagingOptional', required: false },
] as const;
export type ProcedureImportField = (typeof PROCEDURE_IMPORT_COLUMNS)[number]['field'];

/** What an import did: procedures created, and those whose code was already there, updated. */
export const procedureImportResultSchema = z.object({ created: z.number().int(), updated: z.number().int() });
export type ProcedureImportResult = z.infer<typeof procedureImportResultSchema>;

/**
 * What is wrong with a cell, for the screen to say in the user's language (the message is the
 * server's English): a required column missing from the header row; a required cell empty; a
 * yes/no cell, a price (yuan, 2 decimals) or a whole number not read; device groups the
 * organization does not have (`value`: their names); a code already on an earlier row (`value`:
 * that row); text longer than the field takes (`value`: the most); anything else the field refuses.
 */
export const PROCEDURE_IMPORT_PROBLEMS = [
  'missingColumn',
  'required',
  'yesNo',
  'price',
  'wholeNumber',
  'unknownDeviceGroup',
  'duplicateCode',
  'tooLong',
  'invalid',
] as const;
export type ProcedureImportProblem = (typeof PROCEDURE_IMPORT_PROBLEMS)[number];

/**
 * A bad row: the sheet's row number (the header is row 1), the column's field and what is wrong.
 * An import with any bad row imports nothing and answers 400 ValidationError with details
 * `{ rows: ProcedureImportRowError[] }`.
 */
export const procedureImportRowErrorSchema = z.object({
  row: z.number().int(),
  column: z.string(),
  problem: z.enum(PROCEDURE_IMPORT_PROBLEMS),
  /** what the problem names: the unknown groups, the earlier row, the longest length */
  value: z.string().optional(),
  message: z.string(),
});
export type ProcedureImportRowError = z.infer<typeof procedureImportRowErrorSchema>;
export const procedureImportErrorDetailsSchema = z.object({ rows: z.array(procedureImportRowErrorSchema) });

export const procedureImportCalls = {
  /** the body is the .xlsx file (≤ 5 MB, ≤ 2000 rows), sent as XLSX_CONTENT_TYPE */
  importProcedures: defineCall({
    method: 'POST',
    path: 'buckets/:bucketId/procedures/import',
    params: z.object({ bucketId: z.string() }),
    answer: procedureImportResultSchema,
  }),
} as const;
