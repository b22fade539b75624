import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';

/* ---------- statistics (issue 26): turnaround, the time of each step of an exam ---------- */

/**
 * One row per scheduled exam (its linked exam's steps included) and per exam no scheduled exam
 * links, kept by row triggers on scheduled_exams, exams, queue_exams, reports, orders and
 * report_share_links in the writer's transaction (migration 0045 exam_steps_sync): each recomputes
 * the row from its sources, so it is exact whatever order the events come in.
 *   registered   scheduled_exams.created
 *   arrived      scheduled_exams.arrived_at
 *   called       the first call of its place in a queue (queue_exams.called_at)
 *   performed    scheduled_exams.performed_at (MPPS), else the exam's first stored image (exams.created)
 *   firstSaved   reports.first_saved_at (the first save; saved_at is the last)
 *   submitted, approved  reports.submitted_at, approved_at
 *   printed      reports.print_approved_at
 *   published    the live report order's reported_at (a remote read)
 *   shareViewed  the first view of a share link of the report (report_share_links.first_viewed_at)
 * No foreign keys: the triggers delete a row when its sources go.
 */
export const examSteps = pgTable(
  'exam_steps',
  {
    /** the scheduled exam's id, or the exam's when none links it */
    id: text('id').primaryKey(),
    scheduledExamId: text('scheduled_exam_id'),
    examId: text('exam_id'),
    bucketId: text('bucket_id').notNull(),
    /** the exam's first modality (CT\SR counts as CT), else the scheduled exam's */
    modality: text('modality').notNull().default(''),
    /** the scheduled exam's device's room, else its queue's room, else '' */
    room: text('room').notNull().default(''),
    /** the report's writer (creator) */
    doctorId: text('doctor_id'),
    /** false for a cancelled scheduled exam or a deleted exam: counted nowhere */
    live: boolean('live').notNull().default(true),
    registeredAt: ts('registered_at'),
    arrivedAt: ts('arrived_at'),
    calledAt: ts('called_at'),
    performedAt: ts('performed_at'),
    firstSavedAt: ts('first_saved_at'),
    submittedAt: ts('submitted_at'),
    approvedAt: ts('approved_at'),
    printedAt: ts('printed_at'),
    publishedAt: ts('published_at'),
    shareViewedAt: ts('share_viewed_at'),
  },
  (t) => [
    index('exam_steps_scheduled_idx')
      .on(t.scheduledExamId)
      .where(sql`${t.scheduledExamId} is not null`),
    index('exam_steps_exam_idx')
      .on(t.examId)
      .where(sql`${t.examId} is not null`),
    // statistics/turnaround reads an organization's exams by the time of the later step.
    index('exam_steps_bucket_approved_idx')
      .on(t.bucketId, t.approvedAt)
      .where(sql`${t.approvedAt} is not null`),
    index('exam_steps_bucket_performed_idx')
      .on(t.bucketId, t.performedAt)
      .where(sql`${t.performedAt} is not null`),
    index('exam_steps_bucket_published_idx')
      .on(t.bucketId, t.publishedAt)
      .where(sql`${t.publishedAt} is not null`),
    // the overdue list: exams registered in the period and not approved yet
    index('exam_steps_bucket_registered_idx').on(t.bucketId, t.registeredAt),
    // turnaround/slowest (registration to approval): an organization's longest first, read from the top
    index('exam_steps_bucket_ra_minutes_idx')
      .on(t.bucketId, sql`(${t.approvedAt} - ${t.registeredAt}) desc`, t.id)
      .where(sql`${t.live} and ${t.registeredAt} is not null and ${t.approvedAt} is not null`),
    // turnaround/slowest's overdue list: an organization's unapproved exams, earliest registered first
    index('exam_steps_bucket_unapproved_idx')
      .on(t.bucketId, t.registeredAt, t.id)
      .where(sql`${t.live} and ${t.approvedAt} is null`),
  ],
);
