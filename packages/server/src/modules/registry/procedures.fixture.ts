import ExcelJS from 'exceljs';

/** An .xlsx file of one sheet holding `rows` (the first one the header), as the import takes it. */
export async function xlsxOf(rows: readonly (readonly (string | number | boolean | null)[])[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('检查项目');
  for (const row of rows) sheet.addRow([...row]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** The import's header row in English and in Chinese (contracts PROCEDURE_IMPORT_COLUMNS order). */
export const EN_HEADER = [
  'name',
  'code',
  'English name',
  'price',
  'scanTech',
  'isEnhanced',
  'bodyPartCount',
  'modality',
  'aeTitle',
  'device groups',
  'steps',
  'reportDuringExam',
  'showLocalVideo',
  'imagingOptional',
] as const;
export const CHS_HEADER = [
  '名称',
  '编码',
  '英文名称',
  '价格',
  '扫描技术',
  '是否增强',
  '部位数',
  '检查类型',
  'AE Title',
  '设备组',
  '步骤',
  '检查中报告',
  '显示本地视频',
  '影像可选',
] as const;
