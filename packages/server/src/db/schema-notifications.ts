import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';
import { accounts } from './schema-accounts.js';
import { exams } from './schema-archive.js';
import { buckets, groups } from './schema-tenancy.js';

/* ---------- in-app notifications (spec 000 §3 "Notifications") ---------- */

/** The Exam notification of spec 000 §3, as it was when the notification was made. */
export interface ExamNotificationPayload {
  id: string;
  patientName: string;
  modality: string;
  bodyPart: string;
  examTime: string;
  bucketName: string;
}

export const notifications = pgTable(
  'notifications',
  {
    id: text('id').primaryKey(),
    /** the recipient */
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    groupId: text('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    /** exam_uploaded */
    kind: text('kind').notNull(),
    /** The patient name in the payload is PHI: it goes when the exam goes. */
    examId: text('exam_id').references(() => exams.id, { onDelete: 'cascade' }),
    payload: jsonb('payload').$type<ExamNotificationPayload>().notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    readAt: ts('read_at'),
  },
  (t) => [
    index('notifications_account_created_idx').on(
      t.accountId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('notifications_account_unread_idx')
      .on(t.accountId)
      .where(sql`${t.readAt} is null`),
    // One notification of a kind per exam per account: a retried delivery adds nothing.
    uniqueIndex('notifications_account_exam_kind_idx').on(t.accountId, t.examId, t.kind),
  ],
);

export type NotificationRow = typeof notifications.$inferSelect;
