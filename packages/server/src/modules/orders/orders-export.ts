import {
  fenToYuanText,
  MAX_ORDERS_EXPORT,
  ordersExportSchema,
  type Language,
  type Order,
  type OrdersExport,
  type OrderStatus,
} from '@yyp/contracts';
import { actorAudit, writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { sheetTime, xlsxSheet, type XlsxColumn, type XlsxFile } from '../../platform/xlsx.js';
import { orderFilterOf } from './orders-filter.js';
import { requireIn, type OrdersCaller } from './orders.access.js';
import { orderOut } from './orders.presenter.js';
import * as store from './orders.store.js';

type Labels = Record<Language, string>;

const STATUS: Record<OrderStatus, Labels> = {
  applied: { chs: '已申请', en: 'Applied', tib: 'རེ་ཞུ་བྱས་ཟིན།' },
  reporting: { chs: '报告中', en: 'Reporting', tib: 'སྙན་ཞུ་འབྲི་བཞིན་པ།' },
  reported: { chs: '已出报告', en: 'Reported', tib: 'སྙན་ཞུ་ཐོན་ཟིན།' },
  cancelled: { chs: '已取消', en: 'Cancelled', tib: 'མེད་པར་བཏང་ཟིན།' },
};
/** spec 000 §4 payment status 0–4 */
const PAYMENT: Labels[] = [
  { chs: '未支付', en: 'Unpaid', tib: 'དངུལ་མ་སྤྲད།' },
  { chs: '已支付', en: 'Paid', tib: 'དངུལ་སྤྲད་ཟིན།' },
  { chs: '退款中', en: 'Refunding', tib: 'ཕྱིར་སློག་བྱེད་བཞིན་པ།' },
  { chs: '已退款', en: 'Refunded', tib: 'ཕྱིར་སློག་ཟིན།' },
  { chs: '部分退款', en: 'Partly refunded', tib: 'ཆ་ཤས་ཕྱིར་སློག་ཟིན།' },
];
const FREE: Labels = { chs: '无需支付', en: 'No payment', tib: 'དངུལ་སྤྲོད་མི་དགོས།' };
const TYPE: Record<Order['type'], Labels> = {
  expert: { chs: '专家报告', en: 'Expert report', tib: 'ཆེད་མཁས་སྙན་ཞུ།' },
  remote: { chs: '远程报告', en: 'Remote report', tib: 'རྒྱང་རིང་སྙན་ཞུ།' },
  consultation: { chs: '会诊', en: 'Consultation', tib: 'གྲོས་བསྡུར།' },
};
const INVOICE: Record<Order['invoiceStatus'], Labels> = {
  none: { chs: '未开票', en: 'No invoice', tib: 'འཛིན་ཤོག་མེད།' },
  applied: { chs: '已申请发票', en: 'Invoice applied', tib: 'འཛིན་ཤོག་རེ་ཞུ་བྱས་ཟིན།' },
  issued: { chs: '已开票', en: 'Invoice issued', tib: 'འཛིན་ཤོག་སྤྲད་ཟིན།' },
};

function columns(language: Language, side: 'request' | 'target'): XlsxColumn<Order>[] {
  const label = (l: Labels) => l[language];
  return [
    { header: { chs: '申请单号', en: 'Order no.', tib: 'རེ་ཞུའི་ཨང་།' }, width: 24, cell: (o) => o.orderNo },
    { header: { chs: '类型', en: 'Type', tib: 'རིགས།' }, width: 14, cell: (o) => label(TYPE[o.type]) },
    { header: { chs: '患者', en: 'Patient', tib: 'ནད་པ།' }, width: 16, cell: (o) => o.patientName },
    { header: { chs: '产品', en: 'Product', tib: 'ཐོན་རྫས།' }, width: 24, cell: (o) => o.productName },
    side === 'request'
      ? {
          header: { chs: '专家机构', en: 'Expert organization', tib: 'ཆེད་མཁས་ལས་ཁུངས།' },
          width: 24,
          cell: (o) => o.targetBucketName,
        }
      : {
          header: { chs: '申请机构', en: 'Requester', tib: 'རེ་ཞུ་བྱེད་མཁན།' },
          width: 24,
          cell: (o) => o.requestBucketName,
        },
    { header: { chs: '金额', en: 'Amount', tib: 'དངུལ་གྲངས།' }, width: 12, cell: (o) => fenToYuanText(o.priceFen) },
    { header: { chs: '币种', en: 'Currency', tib: 'དངུལ་རིགས།' }, width: 8, cell: (o) => o.currency },
    { header: { chs: '状态', en: 'Status', tib: 'གནས་སྟངས།' }, width: 12, cell: (o) => label(STATUS[o.status]) },
    {
      header: { chs: '支付状态', en: 'Payment status', tib: 'དངུལ་སྤྲོད་གནས་སྟངས།' },
      width: 14,
      cell: (o) => label(!o.needsPayment && o.paymentStatus === 0 ? FREE : (PAYMENT[o.paymentStatus] ?? FREE)),
    },
    {
      header: { chs: '已退款', en: 'Refunded', tib: 'ཕྱིར་སློག་ཟིན།' },
      width: 12,
      cell: (o) => fenToYuanText(o.refundedFen),
    },
    { header: { chs: '发票', en: 'Invoice', tib: 'ཐོ་ཤོག' }, width: 14, cell: (o) => label(INVOICE[o.invoiceStatus]) },
    { header: { chs: '创建时间', en: 'Created', tib: 'བཟོས་པའི་དུས།' }, width: 20, cell: (o) => sheetTime(o.created) },
    { header: { chs: '支付时间', en: 'Paid', tib: 'སྤྲོད་པའི་དུས།' }, width: 20, cell: (o) => sheetTime(o.paidAt) },
    { header: { chs: '报告时限', en: 'Due', tib: 'དུས་ཚོད།' }, width: 20, cell: (o) => sheetTime(o.deadlineAt) },
  ];
}

/**
 * orders/export-excel: the order list of one side (the requester's orders, or the experts' received
 * ones) with the list's filters as .xlsx; more than MAX_ORDERS_EXPORT orders (spec 000 §5) is refused
 * with ExportLimitExceeded and writes nothing. The export names patients: audited as PHI.
 */
export async function exportOrders(
  db: Db,
  clock: Clock,
  caller: OrdersCaller,
  sideQuery: { requestBucketId?: string; targetBucketId?: string },
  input: OrdersExport,
): Promise<XlsxFile> {
  const q = ordersExportSchema.parse(input);
  const side = sideQuery.requestBucketId ? 'request' : 'target';
  const bucketId = (sideQuery.requestBucketId ?? sideQuery.targetBucketId)!;
  await requireIn(db, caller, bucketId, ['exam_get']);
  const filter = orderFilterOf(side, bucketId, q.filters);
  const { rows, count } = await store.pageOrders(db, filter, { limit: MAX_ORDERS_EXPORT, skip: 0, sorts: [] });
  if (count > MAX_ORDERS_EXPORT) {
    throw new AppError('ExportLimitExceeded', `At most ${MAX_ORDERS_EXPORT} orders can be exported`, {
      count,
      limit: MAX_ORDERS_EXPORT,
    });
  }
  const names = await store.bucketNames(
    db,
    rows.flatMap((r) => [r.requestBucketId, r.targetBucketId]),
  );
  const now = clock.now();
  const body = await xlsxSheet(
    'orders',
    columns(q.language, side),
    rows.map((r) => orderOut(r, names, side)),
    q.language,
    now,
  );
  await writeAudit(
    db,
    caller.ctx,
    actorAudit(caller.account, {
      action: 'order.exported',
      category: 'phi',
      bucketId,
      details: { side, count: rows.length },
    }),
  );
  const day = now.toISOString().slice(0, 10).replace(/-/g, '');
  return { body, filename: `orders-${day}.xlsx`, count: rows.length };
}
