import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { QuickSearchCriteria } from '@yyp/contracts';
import { ts } from './columns.js';
import { accounts } from './schema-accounts.js';

/* ---------- the study list's saved quick searches, and the job queue ---------- */

/** A user's quick search (spec 001 §7 custom-search): a titled set of study-list filters. */
export const customSearches = pgTable(
  'custom_searches',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** which list it filters: study (the study list) */
    type: text('type').notNull(),
    title: text('title').notNull(),
    /**
     * A default quick search's key (today, yesterday, last7Days): shown as that name in the
     * interface language; null for a search the user saved or renamed.
     */
    titleKey: text('title_key'),
    criteria: jsonb('criteria').$type<QuickSearchCriteria>().notNull(),
    sort: integer('sort').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('custom_searches_title_idx').on(t.accountId, t.type, sql`lower(${t.title})`),
    index('custom_searches_account_idx').on(t.accountId, t.type, t.sort),
  ],
);

/**
 * Slow work (DESIGN.md "Slow work is a job"): a row per job, taken by a worker with
 * FOR UPDATE SKIP LOCKED, retried with backoff until `maxAttempts`.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    /** queued, running, done, failed */
    status: text('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(3),
    runAfter: ts('run_after').notNull().defaultNow(),
    lockedUntil: ts('locked_until'),
    lastError: text('last_error'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('jobs_due_idx')
      .on(t.runAfter)
      .where(sql`${t.status} in ('queued', 'running')`),
  ],
);
