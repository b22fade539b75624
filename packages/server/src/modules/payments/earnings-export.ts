import { fenToYuanText, type EarningsMonth, type EarningsOrder, type Language } from '@yyp/contracts';

/** earnings/export-excel: a months sheet and an orders sheet, headers in the three languages. */
type Labels = Record<Language, string>;
interface Column<T> {
  header: Labels;
  width: number;
  cell: (row: T) => string | number;
}

const money: Column<EarningsMonth | EarningsOrder>[] = [
  { header: { chs: '币种', en: 'Currency', tib: 'དངུལ་རིགས།' }, width: 8, cell: (r) => r.currency },
  {
    header: { chs: '收入（元）', en: 'Gross (yuan)', tib: 'ཡོང་འབབ།' },
    width: 14,
    cell: (r) => fenToYuanText(r.grossFen),
  },
  {
    header: { chs: '退款（元）', en: 'Refunds (yuan)', tib: 'དངུལ་ཕྱིར་སློག' },
    width: 14,
    cell: (r) => fenToYuanText(r.refundsFen),
  },
  {
    header: { chs: '超时补偿（元）', en: 'Turnaround credits (yuan)', tib: 'དུས་ཡོལ་གུན་གསབ།' },
    width: 18,
    cell: (r) => fenToYuanText(r.creditsFen),
  },
  {
    header: { chs: '净收入（元）', en: 'Net (yuan)', tib: 'ཡོང་འབབ་གཙང་མ།' },
    width: 14,
    cell: (r) => fenToYuanText(r.netFen),
  },
];

const MONTH_COLUMNS: Column<EarningsMonth>[] = [
  { header: { chs: '月份', en: 'Month', tib: 'ཟླ་བ།' }, width: 10, cell: (r) => r.month },
  { header: { chs: '订单数', en: 'Orders', tib: 'བཀའ་འཛིན་གྲངས།' }, width: 10, cell: (r) => r.orders },
  ...money,
];

const ORDER_COLUMNS: Column<EarningsOrder>[] = [
  { header: { chs: '申请单号', en: 'Order no.', tib: 'རེ་ཞུའི་ཨང་།' }, width: 24, cell: (r) => r.orderNo },
  { header: { chs: '产品', en: 'Product', tib: 'ཐོན་རྫས།' }, width: 24, cell: (r) => r.productName },
  { header: { chs: '申请机构', en: 'Ordered by', tib: 'རེ་ཞུ་བའི་ལས་ཁུངས།' }, width: 24, cell: (r) => r.requestBucketName },
  {
    header: { chs: '入账时间', en: 'Posted', tib: 'ཐོར་འགོད་དུས།' },
    width: 20,
    cell: (r) => r.postedAt.replace('T', ' ').slice(0, 19),
  },
  ...money,
];

export async function earningsWorkbook(
  months: EarningsMonth[],
  orders: EarningsOrder[],
  language: Language,
  created: Date,
): Promise<Buffer> {
  // exceljs is loaded on the first export, not at start (as the other exports do).
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  book.created = created;
  const sheet = <T>(name: string, columns: Column<T>[], rows: T[]) => {
    const s = book.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1 }] });
    s.columns = columns.map((c, i) => ({ header: c.header[language], key: String(i), width: c.width }));
    s.getRow(1).font = { bold: true };
    for (const row of rows) s.addRow(Object.fromEntries(columns.map((c, i) => [String(i), c.cell(row)])));
  };
  sheet('months', MONTH_COLUMNS, months);
  sheet('orders', ORDER_COLUMNS, orders);
  return Buffer.from(await book.xlsx.writeBuffer());
}
