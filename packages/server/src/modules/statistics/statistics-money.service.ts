import {
  hospitalDateTime,
  MAX_ORDERS_EXPORT,
  STAT_COLUMN_LABELS,
  STAT_DIMENSION_LABELS,
  STAT_WORDS,
  type Language,
  type StatBillingItem,
  type StatBillings,
  type StatQuery,
} from '@yyp/contracts';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { xlsxSheet, type XlsxColumn, type XlsxFile } from '../../platform/xlsx.js';
import { billingLines, billingSums, type BillingLine } from './stat-money.store.js';
import { refreshRollups } from './stat-rollup.store.js';
import type { StatCaller, StatisticsService } from './statistics.service.js';

type BillingsQuery = StatQuery & { skip: number; limit: number };
type Words = Record<Language, string>;

const KIND: Record<StatBillingItem['kind'], Words> = {
  payment: { chs: '支付', en: 'Payment', tib: 'དངུལ་སྤྲོད།' },
  refund: { chs: '退款', en: 'Refund', tib: 'ཕྱིར་སློག' },
  credit: { chs: '超时补偿', en: 'SLA credit', tib: 'དུས་ཡོལ་གུན་གསབ།' },
};
const HEADERS = {
  at: { chs: '时间', en: 'Time', tib: 'དུས་ཚོད།' },
  kind: { chs: '类型', en: 'Kind', tib: 'རིགས།' },
  orderNo: { chs: '订单号', en: 'Order no.', tib: 'བཀའ་འཆར་ཨང་།' },
  channel: { chs: '渠道', en: 'Channel', tib: 'ལམ་ཕྱོགས།' },
  amount: { chs: '金额（元）', en: 'Amount (yuan)', tib: 'དངུལ་གྲངས། (ཡོན།)' },
  currency: { chs: '币种', en: 'Currency', tib: 'དངུལ་རིགས།' },
} satisfies Record<string, Words>;

/** The hospital time (UTC+8) of an instant, as a sheet shows it. */
function item(l: BillingLine): StatBillingItem {
  return {
    at: new Date(l.at).toISOString(),
    kind: l.kind === 'sla_credit' ? 'credit' : l.kind,
    orderId: l.orderId,
    orderNo: l.orderNo,
    bucketId: l.bucketId,
    bucketName: l.bucketName,
    counterpart: l.counterpart,
    product: l.product,
    channel: l.channel,
    amountFen: Number(l.amountFen),
    currency: l.currency === 'USD' ? 'USD' : 'CNY',
  };
}

/**
 * The money lines of a period (statistics/billings and its export), from the billing ledger: the
 * revenue lines (payments, refunds, turnaround credits) of the organizations where the caller holds
 * charge_details_stats, as statistics/group-payment counts them, with sums per currency (two
 * currencies are never added together).
 */
export class MoneyStatistics {
  constructor(
    readonly db: Db,
    readonly clock: Clock,
    readonly stats: StatisticsService,
  ) {}

  /** GET/POST statistics/billings: a page of lines, newest first, how many there are, and the sums. */
  async billings(caller: StatCaller, q: BillingsQuery): Promise<StatBillings> {
    const { req } = await this.stats.request(caller, 'group-payment', q, 'charge_details_stats');
    const f = {
      bucketIds: req.bucketIds,
      from: req.from,
      to: req.to,
      start: req.start,
      end: req.end,
      modality: req.modality,
    };
    await refreshRollups(this.db, req.bucketIds);
    const [lines, { total, sums }] = await Promise.all([
      billingLines(this.db, f, { skip: q.skip, limit: q.limit }),
      billingSums(this.db, f),
    ]);
    return {
      items: lines.map(item),
      total,
      sums: sums.map((s) => {
        const paidFen = Number(s.paidFen);
        const refundedFen = Number(s.refundedFen);
        const creditedFen = Number(s.creditedFen);
        return {
          currency: s.currency === 'USD' ? 'USD' : 'CNY',
          paidFen,
          refundedFen,
          creditedFen,
          netFen: paidFen - refundedFen - creditedFen,
        };
      }),
    };
  }

  /**
   * GET statistics/billings/export-excel: every line of the period as .xlsx in the caller's language,
   * then one sum line per currency; more than MAX_ORDERS_EXPORT lines (the orders export's limit,
   * spec 000 §5) is refused with ExportLimitExceeded.
   */
  async exportBillings(caller: StatCaller, q: StatQuery): Promise<XlsxFile> {
    const answer = await this.billings(caller, { ...q, skip: 0, limit: MAX_ORDERS_EXPORT });
    if (answer.total > MAX_ORDERS_EXPORT) {
      throw new AppError('ExportLimitExceeded', `At most ${MAX_ORDERS_EXPORT} money lines can be exported`, {
        count: answer.total,
        limit: MAX_ORDERS_EXPORT,
      });
    }
    const language: Language = caller.account.preferences.language ?? 'chs';
    type Line = { at: string; kind: string; item?: StatBillingItem; amountFen: number; currency: string };
    const columns: XlsxColumn<Line>[] = [
      { header: HEADERS.at, width: 20, cell: (l) => l.at },
      { header: HEADERS.kind, width: 12, cell: (l) => l.kind },
      { header: HEADERS.orderNo, width: 24, cell: (l) => l.item?.orderNo ?? '' },
      { header: STAT_DIMENSION_LABELS.bucket, width: 24, cell: (l) => l.item?.bucketName ?? '' },
      { header: STAT_DIMENSION_LABELS.counterpart, width: 24, cell: (l) => l.item?.counterpart ?? '' },
      { header: STAT_DIMENSION_LABELS.product, width: 24, cell: (l) => l.item?.product ?? '' },
      { header: HEADERS.channel, width: 10, cell: (l) => l.item?.channel ?? '' },
      { header: HEADERS.amount, width: 14, cell: (l) => l.amountFen / 100 },
      { header: HEADERS.currency, width: 8, cell: (l) => l.currency },
    ];
    const lines: Line[] = answer.items.map((i) => ({
      at: hospitalDateTime(new Date(i.at)),
      kind: KIND[i.kind][language],
      item: i,
      amountFen: i.kind === 'payment' ? i.amountFen : -i.amountFen,
      currency: i.currency,
    }));
    for (const s of answer.sums) {
      lines.push({
        at: STAT_WORDS.total[language],
        kind: STAT_COLUMN_LABELS.netFen[language],
        amountFen: s.netFen,
        currency: s.currency,
      });
    }
    const now = this.clock.now();
    const body = await xlsxSheet('billings', columns, lines, language, now);
    return {
      body,
      filename: `statistics-billings-${q.from}-${q.to}.xlsx`,
      count: answer.items.length,
    };
  }
}
