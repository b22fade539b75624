import { boolean, index, integer, bigint, pgTable, text } from 'drizzle-orm/pg-core';

import { ts } from './columns.js';
import { accounts } from './schema-accounts.js';

/* ---------- learning videos and personal notification settings (issue 27) ---------- */

/**
 * The platform's training videos (spec 000 §2 /learning/{id}, spec 001 §7 learnings/list): the
 * bytes live in the blob store under `blob_key`; the platform admin uploads, edits and deletes them.
 * Not a tenant's data: every signed-in user lists the published ones.
 */
export const learnings = pgTable(
  'learnings',
  {
    id: text('id').primaryKey(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    blobKey: text('blob_key').notNull().unique(),
    /** video/mp4 or video/webm, as its bytes say */
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    durationSeconds: integer('duration_seconds'),
    /** a poster image's blob key (none yet: the player shows the first frame) */
    posterKey: text('poster_key'),
    sortOrder: integer('sort_order').notNull().default(0),
    published: boolean('published').notNull().default(false),
    createdBy: text('created_by').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('learnings_order_idx').on(t.sortOrder, t.createdAt)],
);
export type LearningRow = typeof learnings.$inferSelect;

/**
 * An account's own notification settings (spec 000 §2 "Personal settings: … notifications"): the
 * notification kinds that do not toast nor chime, and whether a toast chimes. No row: the defaults.
 */
export const accountNotificationSettings = pgTable('account_notification_settings', {
  accountId: text('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  mutedKinds: text('muted_kinds').array().notNull().default([]),
  sound: boolean('sound').notNull().default(false),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
