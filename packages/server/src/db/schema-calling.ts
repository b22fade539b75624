import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';
import { accounts } from './schema-accounts.js';
import { scheduledExams } from './schema-registry.js';
import { buckets } from './schema-tenancy.js';

/* ---------- patient calling (issue 23): queue types, queue exams, settings, screen tokens ---------- */

/** An organization's call queue (spec 000 §3 "Call queue type"): the arrivals of one modality, called to a room. */
export const queueTypes = pgTable(
  'queue_types',
  {
    id: text('id').primaryKey(),
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    displayName: text('display_name').notNull(),
    modality: text('modality').notNull(),
    roomName: text('room_name').notNull().default(''),
    urgentFirst: boolean('urgent_first').notNull().default(true),
    created: ts('created').notNull().defaultNow(),
    updated: ts('updated').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('queue_types_bucket_name_idx').on(t.bucketId, t.displayName)],
);
export type QueueTypeRow = typeof queueTypes.$inferSelect;

/**
 * A patient's place in a queue for a day (spec 000 §3 "Queue exam"). Numbers are unique per queue
 * and day; the calling store renumbers waiting exams in two steps (through negative numbers) so
 * the unique index holds at every statement.
 */
export const queueExams = pgTable(
  'queue_exams',
  {
    id: text('id').primaryKey(),
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    queueTypeId: text('queue_type_id')
      .notNull()
      .references(() => queueTypes.id, { onDelete: 'cascade' }),
    scheduledExamId: text('scheduled_exam_id')
      .notNull()
      .references(() => scheduledExams.id, { onDelete: 'cascade' }),
    /** the hospital's day, YYYY-MM-DD */
    checkInDate: text('check_in_date').notNull(),
    queueNo: integer('queue_no').notNull(),
    /** waiting, called, missed, done, moved (contracts calling-rules.ts) */
    status: text('status').notNull(),
    urgent: boolean('urgent').notNull().default(false),
    room: text('room').notNull().default(''),
    calledAt: ts('called_at'),
    calledCount: integer('called_count').notNull().default(0),
    calledBy: text('called_by').references(() => accounts.id, { onDelete: 'set null' }),
    checkedInAt: ts('checked_in_at').notNull().defaultNow(),
    finishedAt: ts('finished_at'),
    movedToId: text('moved_to_id'),
    updated: ts('updated').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('queue_exams_number_idx').on(t.queueTypeId, t.checkInDate, t.queueNo),
    index('queue_exams_bucket_day_idx').on(t.bucketId, t.checkInDate, t.status),
    // One place a day per scheduled exam (a moved one has left its queue for another).
    uniqueIndex('queue_exams_scheduled_day_idx')
      .on(t.scheduledExamId, t.checkInDate)
      .where(sql`${t.status} <> 'moved'`),
  ],
);
export type QueueExamRow = typeof queueExams.$inferSelect;

/**
 * The highest number a queue issued on a day. Kept apart from queue_exams, whose rows leave when an
 * arrival is undone, so a number once given (and perhaps shown on the screen) is never given again.
 */
export const queueDayCounters = pgTable(
  'queue_day_counters',
  {
    queueTypeId: text('queue_type_id')
      .notNull()
      .references(() => queueTypes.id, { onDelete: 'cascade' }),
    /** the hospital's day, YYYY-MM-DD */
    day: text('day').notNull(),
    lastNo: integer('last_no').notNull(),
  },
  (t) => [primaryKey({ columns: [t.queueTypeId, t.day] })],
);

/** An organization's calling settings: the announcement template and whether it speaks the whole name. */
export const callingSettings = pgTable('calling_settings', {
  bucketId: text('bucket_id')
    .primaryKey()
    .references(() => buckets.id, { onDelete: 'cascade' }),
  announcementTemplate: text('announcement_template').notNull(),
  speakFullName: boolean('speak_full_name').notNull().default(false),
  updated: ts('updated').notNull().defaultNow(),
  updatedBy: text('updated_by').references(() => accounts.id, { onDelete: 'set null' }),
});

/** A waiting-room screen's long-lived token: only its SHA-256 is kept; it reads one organization's queue. */
export const screenTokens = pgTable(
  'screen_tokens',
  {
    id: text('id').primaryKey(),
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    label: text('label').notNull(),
    createdBy: text('created_by').references(() => accounts.id, { onDelete: 'set null' }),
    created: ts('created').notNull().defaultNow(),
    revokedAt: ts('revoked_at'),
    lastUsedAt: ts('last_used_at'),
  },
  (t) => [uniqueIndex('screen_tokens_hash_idx').on(t.tokenHash), index('screen_tokens_bucket_idx').on(t.bucketId)],
);
export type ScreenTokenRow = typeof screenTokens.$inferSelect;
