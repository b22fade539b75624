import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';
import { exams } from './schema-archive.js';
import { modalities } from './schema-registry.js';
import { buckets } from './schema-tenancy.js';

/**
 * Forwarding rules of an organization (issue 28): a new study that matches (its modality, the AE
 * title that sent it, its body part; '' matches any) is sent to the destination device on arrival.
 */
export const forwardingRules = pgTable(
  'forwarding_rules',
  {
    id: text('id').primaryKey(),
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** a device of the organization with its host and port */
    destinationId: text('destination_id')
      .notNull()
      .references(() => modalities.id, { onDelete: 'cascade' }),
    modality: text('modality').notNull().default(''),
    sourceAe: text('source_ae').notNull().default(''),
    bodyPart: text('body_part').notNull().default(''),
    enabled: boolean('enabled').notNull().default(true),
    created: ts('created').notNull().defaultNow(),
    updated: ts('updated').notNull().defaultNow(),
  },
  (t) => [index('forwarding_rules_bucket_idx').on(t.bucketId)],
);

/**
 * Studies (or some of their series) sent by C-STORE to a device: by hand from the exam's menu or
 * by a forwarding rule. A job sends it, retried with backoff; its counts and the instances that
 * failed are kept for the exam's menu and the API.
 */
export const dicomSends = pgTable(
  'dicom_sends',
  {
    id: text('id').primaryKey(),
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    examId: text('exam_id')
      .notNull()
      .references(() => exams.id, { onDelete: 'cascade' }),
    destinationId: text('destination_id').references(() => modalities.id, { onDelete: 'set null' }),
    /** the destination's AE title when the send was made (kept if the device is removed) */
    destinationAe: text('destination_ae').notNull(),
    /** the series sent; null: the whole study */
    seriesUids: jsonb('series_uids').$type<string[] | null>(),
    /** manual or rule */
    trigger: text('trigger').notNull(),
    ruleId: text('rule_id').references(() => forwardingRules.id, { onDelete: 'set null' }),
    requestedBy: text('requested_by'),
    /** queued, running, done, failed */
    status: text('status').notNull().default('queued'),
    total: integer('total').notNull().default(0),
    sent: integer('sent').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    failedInstances: jsonb('failed_instances')
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    created: ts('created').notNull().defaultNow(),
    updated: ts('updated').notNull().defaultNow(),
    finished: ts('finished'),
  },
  (t) => [
    index('dicom_sends_exam_idx').on(t.examId, t.created),
    index('dicom_sends_bucket_idx').on(t.bucketId, t.created),
  ],
);

export type ForwardingRuleRow = typeof forwardingRules.$inferSelect;
export type DicomSendRow = typeof dicomSends.$inferSelect;
