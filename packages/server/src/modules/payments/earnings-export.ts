import { fenToYuanText, type EarningsMonth, type EarningsOrder, type Language } from '@yyp/contracts';
import { sheetTime, xlsxBook, type XlsxColumn } from '../../platform/xlsx.js';

/** earnings/export-excel: a months sheet and an orders sheet, headers in the three languages. */
type Column<T> = XlsxColumn<T>;

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
    cell: (r) => sheetTime(r.postedAt),
  },
  ...money,
];

export function earningsWorkbook(
  months: EarningsMonth[],
  orders: EarningsOrder[],
  language: Language,
  created: Date,
): Promise<Buffer> {
  return xlsxBook(
    [
      { name: 'months', columns: MONTH_COLUMNS, rows: months },
      { name: 'orders', columns: ORDER_COLUMNS, rows: orders },
    ],
    language,
    created,
  );
}
