import { sql } from 'drizzle-orm';
import { bigint, boolean, date, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';
import { ledgerEntries } from './schema-billing.js';
import { buckets } from './schema-tenancy.js';

/* ---------- statistics (issue 26): daily rollups of exams and reports ---------- */

/**
 * Counts per organization, hospital day (UTC+8), kind and up to three keys (a doctor, a modality,
 * a body part), exact: rebuilt from the raw rows for every day stat_dirty names before a statistic
 * reads them (modules/statistics/stat-rollup.store.ts says what each kind holds).
 */
export const statDaily = pgTable(
  'stat_daily',
  {
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    k1: text('k1').notNull().default(''),
    k2: text('k2').notNull().default(''),
    k3: text('k3').notNull().default(''),
    /** how many */
    n: bigint('n', { mode: 'number' }).notNull().default(0),
    /** a sum that goes with them (body parts, positives) */
    s: bigint('s', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.bucketId, t.kind, t.day, t.k1, t.k2, t.k3] })],
);

/**
 * stat_daily summed by month (its first day), rebuilt for every month a refresh touches, so a long
 * range sums whole months here and only the days around them in stat_daily
 * (modules/statistics/stat-monthly.store.ts).
 */
export const statMonthly = pgTable(
  'stat_monthly',
  {
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    month: date('month', { mode: 'string' }).notNull(),
    k1: text('k1').notNull().default(''),
    k2: text('k2').notNull().default(''),
    k3: text('k3').notNull().default(''),
    n: bigint('n', { mode: 'number' }).notNull().default(0),
    s: bigint('s', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.bucketId, t.kind, t.month, t.k1, t.k2, t.k3] })],
);

/**
 * The (organization, hospital day) pairs whose stat_daily rows are stale, marked by triggers on
 * exams and reports in the writer's transaction (migration 0043). No foreign key: the mark is on
 * every exam insert and stays one primary-key upsert.
 */
export const statDirty = pgTable(
  'stat_dirty',
  {
    bucketId: text('bucket_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    /** the mark is an upsert that locks this row (without rewriting it: migration 0046), so a refresh waits for the writer */
    gen: integer('gen').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.bucketId, t.day] })],
);

/**
 * The income lines of the billing ledger (statistics/group-payment and billings): every entry on an
 * organization's revenue account (revenue:<bucketId>) of a payment, a refund or a turnaround credit,
 * with its transaction's kind and order and its hospital day, copied by a statement trigger on
 * ledger_entries in the writer's transaction (migration 0051), so a year of a group's lines is read
 * from one narrow table instead of joined to their transactions. The ledger is only ever inserted
 * into; a deleted entry takes its line with it.
 */
export const statRevenueLines = pgTable(
  'stat_revenue_lines',
  {
    id: text('id')
      .primaryKey()
      .references(() => ledgerEntries.id, { onDelete: 'cascade' }),
    account: text('account').notNull(),
    created: ts('created').notNull(),
    /** the hospital day (UTC+8) of created */
    day: date('day', { mode: 'string' }).notNull(),
    currency: text('currency').notNull(),
    /** the transaction's: 'payment' | 'refund' | 'sla_credit' */
    kind: text('kind').notNull(),
    amountFen: bigint('amount_fen', { mode: 'number' }).notNull(),
    orderId: text('order_id'),
    /**
     * a payment line of an order with more than one (stat_paid_orders): such an order counts once,
     * so its lines are counted distinct; every other payment line is its order's only one
     */
    multi: boolean('multi').notNull().default(false),
  },
  (t) => [
    index('stat_revenue_lines_account_idx').on(t.account, t.created, t.id),
    index('stat_revenue_lines_multi_idx')
      .on(t.account, t.created)
      .where(sql`${t.multi}`),
    // every line of an order, whatever its kind: a change of the order (its product, its exam)
    // marks the days of its lines (migration 0056)
    index('stat_revenue_lines_order_idx').on(t.orderId),
  ],
);

/**
 * The revenue lines (stat_revenue_lines) summed per organization (of the revenue account), hospital
 * day, currency, the order's product (product_key: its product id, or 'name:' and its name) and the
 * modality of the order's exam (its first; '' without one): statistics/group-payment and the
 * billings' sums read a year from a few thousand rows (issue 26). Rebuilt for every (organization,
 * day) stat_dirty names: a line written, a line's order marked multi, the order's product or exam
 * changed, the exam's modality changed (migration 0056's triggers mark those days).
 *   lines     how many lines (payments, refunds, turnaround credits)
 *   single    payment lines of an order paid once (an order paid more than once, multi, is counted
 *             distinct from its lines by the reader)
 *   paid, refunded, credited, net  in fen, as group-payment reports them
 */
export const statRevenue = pgTable(
  'stat_revenue',
  {
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    currency: text('currency').notNull(),
    productKey: text('product_key').notNull(),
    modality: text('modality').notNull(),
    /** the orders' product name (the label of a product that is no more) */
    productName: text('product_name').notNull(),
    lines: integer('lines').notNull(),
    single: integer('single').notNull(),
    paid: bigint('paid', { mode: 'number' }).notNull(),
    refunded: bigint('refunded', { mode: 'number' }).notNull(),
    credited: bigint('credited', { mode: 'number' }).notNull(),
    net: bigint('net', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.bucketId, t.day, t.currency, t.productKey, t.modality] })],
);

/**
 * Consultations (statistics/consul, issue 26) per organization, hospital day they were asked for,
 * side (a: the organization asked, b: it was asked) and the other side's organization: how many,
 * completed, cancelled, rated and the ratings' sum. Each consultation is here twice, once under each
 * side's organization; a change of one marks both sides' days before and after (migration 0056).
 */
export const statConsul = pgTable(
  'stat_consul',
  {
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    side: text('side').notNull(),
    otherBucketId: text('other_bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    requested: integer('requested').notNull(),
    completed: integer('completed').notNull(),
    cancelled: integer('cancelled').notNull(),
    ratings: integer('ratings').notNull(),
    ratingSum: integer('rating_sum').notNull(),
  },
  (t) => [primaryKey({ columns: [t.bucketId, t.day, t.side, t.otherBucketId] })],
);

/**
 * How many payment lines each order has in stat_revenue_lines (kept by the same trigger, never
 * lowered): an upsert per order, so two transactions paying one order at once are counted one after
 * the other and the second marks both lines multi.
 */
export const statPaidOrders = pgTable('stat_paid_orders', {
  orderId: text('order_id').primaryKey(),
  payments: integer('payments').notNull(),
});

/**
 * The turnaround from registration to approval (statistics/turnaround, issue 26) as histograms of
 * whole minutes (started minutes: the interval rounded up), per organization, span (d: a hospital
 * day of the approval, m: a month, its first day), dimension (-: all, m: modality, r: room, d: the
 * report's writer, h: the hour of registration) and key: `minutes` ascending and distinct, `counts`
 * how many exams took each. Rebuilt from exam_steps for every day stat_dirty names (the exam_steps
 * trigger of migration 0052 marks the approval days a change touches), months from their days, in
 * the refresh's transaction; so a year's median is read from a few hundred rows, exactly.
 */
export const statTurnaround = pgTable(
  'stat_turnaround',
  {
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    span: text('span').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    dim: text('dim').notNull(),
    key: text('key').notNull(),
    minutes: integer('minutes').array().notNull(),
    counts: integer('counts').array().notNull(),
  },
  (t) => [primaryKey({ columns: [t.bucketId, t.span, t.day, t.dim, t.key] })],
);

/**
 * Remote and expert report orders (statistics/remote-report, issue 26) per organization counted,
 * side (s: it applied for them, r: it was asked), the other side's organization, span (d: the
 * hospital day the order was made, m: a month, its first day), the exam's modality (its first) and
 * whether the order reached the experts (free, or paid): how many, how many reported, how many
 * cancelled, and the reported ones' whole minutes (rounded up) from payment (or creation) to the
 * report as a histogram (`minutes` ascending and distinct, `counts` how many). Each order is here
 * twice, once under each side's organization, so an organization's marked days (the orders trigger
 * of migration 0054 marks both sides' days; an exam's modality change marks its orders' days) are
 * rebuilt from its own orders alone, in the refresh's transaction.
 */
export const statRemote = pgTable(
  'stat_remote',
  {
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    span: text('span').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    side: text('side').notNull(),
    otherBucketId: text('other_bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    modality: text('modality').notNull(),
    reached: boolean('reached').notNull(),
    orders: integer('orders').notNull(),
    reported: integer('reported').notNull(),
    cancelled: integer('cancelled').notNull(),
    minutes: integer('minutes').array().notNull(),
    counts: integer('counts').array().notNull(),
  },
  (t) => [primaryKey({ columns: [t.bucketId, t.span, t.day, t.side, t.otherBucketId, t.modality, t.reached] })],
);
