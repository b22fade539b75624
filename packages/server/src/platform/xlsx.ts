import { XLSX_CONTENT_TYPE, type Language } from '@yyp/contracts';
import type { FastifyReply } from 'fastify';

/** An exported file as a route sends it: its bytes, its name and how many rows it holds. */
export interface XlsxFile {
  body: Buffer;
  filename: string;
  count: number;
}

/** A column of an exported sheet: its header in each language, its width and its cell of a row. */
export interface XlsxColumn<T> {
  header: Record<Language, string>;
  width: number;
  cell: (row: T) => string | number;
}

/** Sends an exported .xlsx as a download, with its row count in x-export-count. */
export function sendXlsx(reply: FastifyReply, file: XlsxFile): never {
  return reply
    .header('content-type', XLSX_CONTENT_TYPE)
    .header('content-disposition', `attachment; filename="${file.filename}"`)
    .header('x-export-count', String(file.count))
    .send(file.body) as never;
}

/** A sheet of an exported book: its name, its columns and its rows. */
export interface XlsxSheet<T> {
  name: string;
  columns: readonly XlsxColumn<T>[];
  rows: readonly T[];
}

/** A book of sheets, each under bold, frozen headers in `language`. */
export async function xlsxBook(
  // each sheet has rows of its own type
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  sheets: readonly XlsxSheet<any>[],
  language: Language,
  created: Date,
): Promise<Buffer> {
  // exceljs is loaded on the first export, not at start.
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  book.created = created;
  for (const { name, columns, rows } of sheets) {
    const sheet = book.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = columns.map((c, i) => ({ header: c.header[language], key: String(i), width: c.width }));
    sheet.getRow(1).font = { bold: true };
    for (const row of rows) sheet.addRow(Object.fromEntries(columns.map((c, i) => [String(i), c.cell(row)])));
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** A book of one sheet of `rows`. */
export function xlsxSheet<T>(
  name: string,
  columns: readonly XlsxColumn<T>[],
  rows: readonly T[],
  language: Language,
  created: Date,
): Promise<Buffer> {
  return xlsxBook([{ name, columns, rows }], language, created);
}

/** An ISO instant as "YYYY-MM-DD HH:MM:SS" (UTC) for a sheet's cell; '' for none. */
export function sheetTime(iso: string | null | undefined): string {
  return (iso ?? '').replace('T', ' ').slice(0, 19);
}
