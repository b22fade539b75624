import { sql } from 'drizzle-orm';
import { boolean, doublePrecision, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { ReportContent } from '@yyp/contracts';
import { ts } from './columns.js';
import { accounts } from './schema-accounts.js';
import { exams } from './schema-archive.js';
import { buckets } from './schema-tenancy.js';

/* ---------- reports: lifecycle, trail, templates, knowledge base, sample graphs ---------- */

/**
 * A report (spec 000 §3). Its id is the id of the exam it was opened on (the primary exam of
 * co-written exams), so "reports/{id}" addresses the same thing before and after it exists.
 */
export const reports = pgTable(
  'reports',
  {
    id: text('id')
      .primaryKey()
      .references(() => exams.id, { onDelete: 'cascade' }),
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    status: text('status').notNull().default('none'),
    /** increases with every write; a save based on an older version is refused */
    version: integer('version').notNull().default(0),
    content: jsonb('content').$type<ReportContent>().notNull(),
    creatorId: text('creator_id').references(() => accounts.id, { onDelete: 'set null' }),
    lastUpdaterId: text('last_updater_id').references(() => accounts.id, { onDelete: 'set null' }),
    /** who released it last (approve, preliminary issue) */
    issuerId: text('issuer_id').references(() => accounts.id, { onDelete: 'set null' }),
    approverId: text('approver_id').references(() => accounts.id, { onDelete: 'set null' }),
    /** a collaborator who typed it for its creator */
    noteTakerId: text('note_taker_id').references(() => accounts.id, { onDelete: 'set null' }),
    rejectReason: text('reject_reason').notNull().default(''),
    recallReason: text('recall_reason').notNull().default(''),
    /** advice experts chosen by the advise action */
    adviceExpertIds: jsonb('advice_expert_ids').$type<string[]>().notNull().default([]),
    lockedBy: text('locked_by').references(() => accounts.id, { onDelete: 'set null' }),
    lockedAt: ts('locked_at'),
    savedAt: ts('saved_at'),
    /** the first save (saved_at is the last), set once by a trigger (migration 0045) */
    firstSavedAt: ts('first_saved_at'),
    submittedAt: ts('submitted_at'),
    approvedAt: ts('approved_at'),
    /** the last print of the report before approval (update-print-time) */
    printSubmittedAt: ts('print_submitted_at'),
    printApprovedAt: ts('print_approved_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('reports_bucket_status_idx').on(t.bucketId, t.status),
    // The statistics' rollups recount an organization's reports approved on a day (stat-rollup.store.ts).
    index('reports_bucket_approved_idx')
      .on(t.bucketId, t.approvedAt)
      .where(sql`${t.approvedAt} is not null`),
  ],
);
export type ReportRow = typeof reports.$inferSelect;

/** The history trail: one row per action, with the content as it stood after it. */
export const reportTraces = pgTable(
  'report_traces',
  {
    id: text('id').primaryKey(),
    reportId: text('report_id')
      .notNull()
      .references(() => reports.id, { onDelete: 'cascade' }),
    /** order within the report (a sequence, so two steps in one millisecond keep their order) */
    seq: integer('seq').notNull(),
    action: text('action').notNull(),
    actorId: text('actor_id').references(() => accounts.id, { onDelete: 'set null' }),
    actorName: text('actor_name').notNull(),
    at: ts('at').notNull(),
    statusFrom: text('status_from').notNull(),
    statusTo: text('status_to').notNull(),
    version: integer('version').notNull(),
    reason: text('reason').notNull().default(''),
    changed: boolean('changed').notNull().default(false),
    content: jsonb('content').$type<ReportContent>().notNull(),
  },
  (t) => [uniqueIndex('report_traces_seq_idx').on(t.reportId, t.seq)],
);

/** Report templates: an organization's (scope bucket) or one doctor's own (scope personal). */
export const reportTemplates = pgTable(
  'report_templates',
  {
    id: text('id').primaryKey(),
    scope: text('scope').notNull(),
    bucketId: text('bucket_id').references(() => buckets.id, { onDelete: 'cascade' }),
    ownerId: text('owner_id').references(() => accounts.id, { onDelete: 'cascade' }),
    /** a folder name to group templates in the picker ('' none) */
    category: text('category').notNull().default(''),
    title: text('title').notNull(),
    modality: text('modality').notNull().default(''),
    bodyPart: text('body_part').notNull().default(''),
    findings: text('findings').notNull().default(''),
    conclusion: text('conclusion').notNull().default(''),
    createdBy: text('created_by').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('report_templates_bucket_idx')
      .on(t.bucketId)
      .where(sql`${t.bucketId} is not null`),
    index('report_templates_owner_idx')
      .on(t.ownerId)
      .where(sql`${t.ownerId} is not null`),
  ],
);

/** Image description templates of an organization (spec 000 §3): phrases describing images. */
export const imageDescTemplates = pgTable(
  'image_desc_templates',
  {
    id: text('id').primaryKey(),
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    modality: text('modality').notNull().default(''),
    bodyPart: text('body_part').notNull().default(''),
    content: text('content').notNull().default(''),
    createdBy: text('created_by').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('image_desc_templates_bucket_idx').on(t.bucketId)],
);

/**
 * Knowledge base of phrases (spec 000 §3 knowledge-base item: id, parentId, referenceId, type,
 * bucketId, title, folder flag): personal items belong to their owner, group items to an
 * organization; folders hold items; `position` orders siblings (resort puts one after preId).
 */
export const kbItems = pgTable(
  'kb_items',
  {
    id: text('id').primaryKey(),
    /** personal | group */
    type: text('type').notNull(),
    bucketId: text('bucket_id').references(() => buckets.id, { onDelete: 'cascade' }),
    ownerId: text('owner_id').references(() => accounts.id, { onDelete: 'cascade' }),
    parentId: text('parent_id'),
    /** an item this one was copied from ('' none) */
    referenceId: text('reference_id'),
    isFolder: boolean('is_folder').notNull().default(false),
    title: text('title').notNull(),
    content: text('content').notNull().default(''),
    position: doublePrecision('position').notNull(),
    createdBy: text('created_by').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('kb_items_bucket_idx')
      .on(t.bucketId, t.parentId, t.position)
      .where(sql`${t.type} = 'group'`),
    index('kb_items_owner_idx')
      .on(t.ownerId, t.parentId, t.position)
      .where(sql`${t.type} = 'personal'`),
  ],
);

/** Sample graphs (spec 000 §3): an organization's diagrams on which points are marked for a report. */
export const sampleGraphs = pgTable(
  'sample_graphs',
  {
    id: text('id').primaryKey(),
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    blobKey: text('blob_key').notNull(),
    contentType: text('content_type').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    position: integer('position').notNull().default(0),
    createdBy: text('created_by').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('sample_graphs_bucket_idx').on(t.bucketId, t.position)],
);

/** A sample graph placed on a report, with its marking points (spec 000 §3 "point (x, y, color)"). */
export const reportSampleGraphs = pgTable(
  'report_sample_graphs',
  {
    id: text('id').primaryKey(),
    reportId: text('report_id')
      .notNull()
      .references(() => exams.id, { onDelete: 'cascade' }),
    sampleGraphId: text('sample_graph_id')
      .notNull()
      .references(() => sampleGraphs.id, { onDelete: 'cascade' }),
    points: jsonb('points').$type<{ x: number; y: number; color: string; label: string }[]>().notNull().default([]),
    position: integer('position').notNull().default(0),
    isPrinted: boolean('is_printed').notNull().default(true),
    createdBy: text('created_by').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('report_sample_graphs_report_idx').on(t.reportId, t.position)],
);
