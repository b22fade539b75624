import { EXPORT_EXAMS_LIMIT, type ExamFilter, type ExamSort, type Language } from '@yyp/contracts';
import type { AccountRow } from '../../db/schema.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import type { ExamListService } from '../exams/index.js';
import * as listStore from '../exams/index.js';
import { EXPORT_COLUMNS } from './export-columns.js';

export interface ExportInput {
  filters: ExamFilter[];
  sorts: ExamSort[];
  columns?: string[] | undefined;
  language?: Language | undefined;
}

/**
 * POST exports/exams: the filtered study list as an .xlsx (spec 000 §5: at most 3,000 exams).
 * Only exams of organizations where the caller holds both exam_get and export_exams; private
 * fields masked exactly as in the list; counted first, so an export over the limit builds nothing.
 */
export class ExportsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly list: ExamListService,
  ) {}

  async exams(
    account: AccountRow,
    input: ExportInput,
    ctx: AuditContext,
  ): Promise<{ body: Buffer; filename: string; count: number }> {
    const { allowed, privacy, hidden } = await this.list.scope(account, 'exam_get', 'export_exams');
    if (allowed.length === 0) throw errors.forbidden('export_exams');
    const scope = { bucketIds: allowed, deleted: false as const, hidden };
    const count = await listStore.countExams(this.db, scope, input.filters);
    if (count > EXPORT_EXAMS_LIMIT) {
      throw new AppError(
        'ExportLimitExceeded',
        `At most ${EXPORT_EXAMS_LIMIT} exams can be exported; these filters match ${count}`,
        { count, limit: EXPORT_EXAMS_LIMIT },
      );
    }
    const rows =
      count === 0
        ? []
        : await listStore.listExams(this.db, {
            scope,
            filters: input.filters,
            sorts: input.sorts,
            skip: 0,
            limit: count,
          });
    const items = await this.list.present(account, rows, privacy, ctx, 'exam.export_rows');
    const language = input.language ?? account.preferences.language ?? 'chs';
    const wanted = input.columns?.length ? input.columns : EXPORT_COLUMNS.map((c) => c.key);
    const columns = wanted
      .map((key) => EXPORT_COLUMNS.find((c) => c.key === key))
      .filter((c): c is (typeof EXPORT_COLUMNS)[number] => c !== undefined);

    // exceljs (about 8 MB of heap) is loaded on the first export, not at start.
    const { default: ExcelJS } = await import('exceljs');
    const book = new ExcelJS.Workbook();
    book.created = this.clock.now();
    const sheet = book.addWorksheet('exams', { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = columns.map((c) => ({ header: c.header[language], key: c.key, width: c.width }));
    sheet.getRow(1).font = { bold: true };
    for (const item of items) sheet.addRow(Object.fromEntries(columns.map((c) => [c.key, c.cell(item, language)])));
    const body = Buffer.from(await book.xlsx.writeBuffer());

    await writeAudit(this.db, ctx, {
      action: 'exam.export',
      outcome: 'success',
      category: items.some((i) => !i.masked) ? 'phi' : 'operation',
      actorId: account.id,
      actorUsername: account.username,
      targetType: 'exam',
      details: { count, filters: input.filters, columns: columns.map((c) => c.key) },
    });
    const day = this.clock.now().toISOString().slice(0, 10).replace(/-/g, '');
    return { body, filename: `exams-${day}.xlsx`, count };
  }
}
