import { fenToYuanText, type CreditLine, type CreditSum, type Language, type LedgerKind } from '@yyp/contracts';

/** The statement exports (credits/export-excel and export-excel-sum): headers in the three languages. */
type Labels = Record<Language, string>;

export const KIND_LABELS: Record<LedgerKind, Labels> = {
  topup: { chs: '充值', en: 'Top-up', tib: 'ཁ་སྣོན།' },
  payment: { chs: '支付', en: 'Payment', tib: 'དངུལ་སྤྲོད།' },
  refund: { chs: '退款', en: 'Refund', tib: 'དངུལ་ཕྱིར་སློག' },
  sla_credit: { chs: '超时补偿', en: 'Turnaround credit', tib: 'དུས་ཡོལ་གུན་གསབ།' },
  plan: { chs: '套餐', en: 'Plan package', tib: 'ཐུམ་སྒྲིལ།' },
};

interface Column<T> {
  key: string;
  header: Labels;
  width: number;
  cell: (row: T, language: Language) => string | number;
}

const LINE_COLUMNS: Column<CreditLine>[] = [
  { key: 'created', header: { chs: '时间', en: 'Time', tib: 'དུས་ཚོད།' }, width: 20, cell: (r) => instant(r.created) },
  { key: 'kind', header: { chs: '类型', en: 'Type', tib: 'རིགས།' }, width: 12, cell: (r, l) => KIND_LABELS[r.kind][l] },
  { key: 'ref', header: { chs: '单号', en: 'Reference', tib: 'ཨང་གྲངས།' }, width: 28, cell: (r) => r.ref },
  { key: 'orderId', header: { chs: '订单', en: 'Order', tib: 'བཀའ་འཛིན།' }, width: 28, cell: (r) => r.orderId ?? '' },
  { key: 'memo', header: { chs: '备注', en: 'Note', tib: 'མཆན།' }, width: 24, cell: (r) => r.memo },
  { key: 'currency', header: { chs: '币种', en: 'Currency', tib: 'དངུལ་རིགས།' }, width: 8, cell: (r) => r.currency },
  {
    key: 'amount',
    header: { chs: '金额（元）', en: 'Amount (yuan)', tib: 'དངུལ་གྲངས།' },
    width: 14,
    cell: (r) => fenToYuanText(r.amountFen),
  },
];

const SUM_COLUMNS: Column<CreditSum>[] = [
  { key: 'kind', header: LINE_COLUMNS[1]!.header, width: 14, cell: (r, l) => KIND_LABELS[r.kind][l] },
  { key: 'currency', header: LINE_COLUMNS[5]!.header, width: 8, cell: (r) => r.currency },
  { key: 'count', header: { chs: '笔数', en: 'Count', tib: 'གྲངས།' }, width: 8, cell: (r) => r.count },
  { key: 'amount', header: LINE_COLUMNS[6]!.header, width: 14, cell: (r) => fenToYuanText(r.amountFen) },
];

const instant = (v: string) => v.replace('T', ' ').slice(0, 19);

async function workbook<T>(name: string, columns: Column<T>[], rows: T[], language: Language, created: Date) {
  // exceljs is loaded on the first export, not at start (as the schedule export does).
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  book.created = created;
  const sheet = book.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((c) => ({ header: c.header[language], key: c.key, width: c.width }));
  sheet.getRow(1).font = { bold: true };
  for (const row of rows) {
    sheet.addRow(Object.fromEntries(columns.map((c) => [c.key, c.cell(row, language)])));
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

export const creditLinesWorkbook = (rows: CreditLine[], language: Language, created: Date) =>
  workbook('credits', LINE_COLUMNS, rows, language, created);
export const creditSumsWorkbook = (rows: CreditSum[], language: Language, created: Date) =>
  workbook('credit-sums', SUM_COLUMNS, rows, language, created);
