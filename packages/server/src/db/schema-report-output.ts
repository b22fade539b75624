import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';
import { accounts } from './schema-accounts.js';
import { exams } from './schema-archive.js';
import { buckets, groups } from './schema-tenancy.js';

/* ---------- report output and clinical safety: sharing, printing, critical values, QC ---------- */

/**
 * The report a row of its output belongs to (a report's id is its primary exam's id) and the
 * report's organization; the row goes with either. A fresh pair of columns per table.
 */
const reportAndBucket = () => ({
  reportId: text('report_id')
    .notNull()
    .references(() => exams.id, { onDelete: 'cascade' }),
  bucketId: text('bucket_id')
    .notNull()
    .references(() => buckets.id, { onDelete: 'cascade' }),
});

/**
 * Share and publish links of a report (spec 000 §3 share link). The link id the patient holds is
 * at least 128 random bits; only its SHA-256 is stored, so the table cannot be read back into links.
 */
export const reportShareLinks = pgTable(
  'report_share_links',
  {
    id: text('id').primaryKey(),
    /** hex SHA-256 of the link id */
    tokenHash: text('token_hash').notNull(),
    /** share (a doctor's link) | publish (orders/publish-reports) */
    kind: text('kind').notNull().default('share'),
    ...reportAndBucket(),
    /** the report version shared: a later recall or correction marks the shared page superseded */
    reportVersion: integer('report_version').notNull(),
    allowImages: boolean('allow_images').notNull().default(false),
    createdBy: text('created_by').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
    revokedBy: text('revoked_by').references(() => accounts.id, { onDelete: 'set null' }),
    viewCount: integer('view_count').notNull().default(0),
    lastViewedAt: ts('last_viewed_at'),
    /** the first view, set once by a trigger (migration 0045) */
    firstViewedAt: ts('first_viewed_at'),
  },
  (t) => [
    uniqueIndex('report_share_links_token_idx').on(t.tokenHash),
    index('report_share_links_report_idx').on(t.reportId),
    index('report_share_links_bucket_kind_idx').on(t.bucketId, t.kind, t.createdAt),
  ],
);

/**
 * Critical values (spec 000 §3: handler, handled at, confirmor, received at, readback opinion,
 * sent time). One row per finding reported; status sent → received → handled.
 */
export const criticalValues = pgTable(
  'critical_values',
  {
    id: text('id').primaryKey(),
    ...reportAndBucket(),
    /** the organization's critical-value dictionary item, when one was chosen */
    itemId: text('item_id'),
    /** at most 255 characters (spec 000 §5) */
    text: text('text').notNull(),
    level: text('level').notNull().default(''),
    status: text('status').notNull().default('sent'),
    /** the ordering department notified (the exam's applyDept) */
    notifyDept: text('notify_dept').notNull().default(''),
    reportedBy: text('reported_by').references(() => accounts.id, { onDelete: 'set null' }),
    /** sent time */
    sentAt: ts('sent_at').notNull(),
    /** who on the ordering side took the call (a name: they may have no account) */
    receiver: text('receiver').notNull().default(''),
    receivedAt: ts('received_at'),
    /** the person confirming the read-back */
    confirmor: text('confirmor').notNull().default(''),
    readbackOpinion: text('readback_opinion').notNull().default(''),
    handlerId: text('handler_id').references(() => accounts.id, { onDelete: 'set null' }),
    handledAt: ts('handled_at'),
    handleNote: text('handle_note').notNull().default(''),
  },
  (t) => [
    index('critical_values_report_idx').on(t.reportId),
    index('critical_values_open_idx')
      .on(t.bucketId, t.sentAt)
      .where(sql`${t.status} <> 'handled'`),
    index('critical_values_bucket_sent_idx').on(t.bucketId, t.sentAt),
  ],
);

/** Quality control of a report (spec 000 §3: level, suggestion, creator, unsatisfactory items). */
export const reportQuality = pgTable(
  'report_quality',
  {
    reportId: text('report_id')
      .primaryKey()
      .references(() => exams.id, { onDelete: 'cascade' }),
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    level: text('level').notNull(),
    suggestion: text('suggestion').notNull().default(''),
    unsatisfactoryItems: jsonb('unsatisfactory_items').$type<string[]>().notNull().default([]),
    creatorId: text('creator_id').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('report_quality_bucket_idx').on(t.bucketId, t.level, t.updatedAt),
    // the statistics' recount of one organization's day (stat-quality-rollup.store.ts)
    index('report_quality_bucket_updated_idx').on(t.bucketId, t.updatedAt),
  ],
);

/** A rating of a report: one per rater, never changed once submitted (spec 000 §3). */
export const reportRatings = pgTable(
  'report_ratings',
  {
    id: text('id').primaryKey(),
    ...reportAndBucket(),
    raterId: text('rater_id').references(() => accounts.id, { onDelete: 'set null' }),
    score: integer('score').notNull(),
    comment: text('comment').notNull().default(''),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('report_ratings_rater_idx').on(t.reportId, t.raterId)],
);

/** Comments on a report, where the group allows comments (allowReportComment). */
export const reportComments = pgTable(
  'report_comments',
  {
    id: text('id').primaryKey(),
    ...reportAndBucket(),
    authorId: text('author_id').references(() => accounts.id, { onDelete: 'set null' }),
    text: text('text').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    deletedAt: ts('deleted_at'),
  },
  (t) => [index('report_comments_report_idx').on(t.reportId, t.createdAt)],
);

/** Report table colours of a group (spec 001 §7 report-table-color): row colours in report lists. */
export const reportTableColors = pgTable(
  'report_table_colors',
  {
    id: text('id').primaryKey(),
    groupId: text('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** the report field matched: status, critical, positive, urgent … */
    field: text('field').notNull(),
    value: text('value').notNull(),
    color: text('color').notNull().default(''),
    background: text('background').notNull().default(''),
    /** lower first */
    priority: integer('priority').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('report_table_colors_group_idx').on(t.groupId, t.priority)],
);

/** An organization's print template (set by its admin only, spec 000 §6). */
export const printTemplates = pgTable('print_templates', {
  bucketId: text('bucket_id')
    .primaryKey()
    .references(() => buckets.id, { onDelete: 'cascade' }),
  hospitalName: text('hospital_name').notNull(),
  title: text('title').notNull().default(''),
  /** 128×128 PNG or JPEG */
  logoKey: text('logo_key'),
  /** PNG */
  stampKey: text('stamp_key'),
  footerHtml: text('footer_html').notNull().default(''),
  /** key images per row on the printed report (the user's preference overrides; default 2) */
  imageColumns: integer('image_columns').notNull().default(2),
  showSignatures: boolean('show_signatures').notNull().default(true),
  settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
  updatedBy: text('updated_by').references(() => accounts.id, { onDelete: 'set null' }),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** A group's integration secret for /web links from hospital information systems (HMAC-SHA256). */
export const groupIntegrations = pgTable('group_integrations', {
  groupId: text('group_id')
    .primaryKey()
    .references(() => groups.id, { onDelete: 'cascade' }),
  webSecret: text('web_secret').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  rotatedAt: ts('rotated_at'),
});
