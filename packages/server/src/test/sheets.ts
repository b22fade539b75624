import ExcelJS from 'exceljs';

/** The first sheet of an .xlsx answer, each row's cells as text (empty cells as ''). */
export async function sheetOf(body: Buffer): Promise<string[][]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(body as unknown as ArrayBuffer);
  const rows: string[][] = [];
  book.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1).map((v) => String(v ?? ''))));
  return rows;
}
