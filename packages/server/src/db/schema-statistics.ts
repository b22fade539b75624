import { bigint, date, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
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
