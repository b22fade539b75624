import { bigint, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';
import { accounts } from './schema-accounts.js';
import { exams } from './schema-archive.js';
import { buckets } from './schema-tenancy.js';

/* ---------- upload codes and exam attachments (spec 000 §2 /mobileSignature, /attachments/upload) ---------- */

/**
 * A code that lets its holder upload without an account: a signature for one account (10 min,
 * used once) or forms/attachments for one exam (24 h, a few files). Only the SHA-256 of the code
 * is kept, so the table alone opens nothing.
 */
export const uploadCodes = pgTable(
  'upload_codes',
  {
    id: text('id').primaryKey(),
    codeHash: text('code_hash').notNull(),
    /** signature, form or attachment */
    purpose: text('purpose').$type<'signature' | 'form' | 'attachment'>().notNull(),
    /** who issued it; for a signature code also whose signature it sets */
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    examId: text('exam_id').references(() => exams.id, { onDelete: 'cascade' }),
    bucketId: text('bucket_id').references(() => buckets.id, { onDelete: 'cascade' }),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('upload_codes_hash_idx').on(t.codeHash), index('upload_codes_account_idx').on(t.accountId)],
);

export const examAttachments = pgTable(
  'exam_attachments',
  {
    id: text('id').primaryKey(),
    examId: text('exam_id')
      .notNull()
      .references(() => exams.id, { onDelete: 'cascade' }),
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    /** form (order-form scan) or attachment */
    kind: text('kind').$type<'form' | 'attachment'>().notNull(),
    blobKey: text('blob_key').notNull(),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    uploadedBy: text('uploaded_by').references(() => accounts.id, { onDelete: 'set null' }),
    /** account (a signed-in member) or code (a holder of an upload code) */
    source: text('source').$type<'account' | 'code'>().notNull(),
    /** the code it came through, so the code's page lists its own uploads and counts them */
    uploadCodeId: text('upload_code_id').references(() => uploadCodes.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('exam_attachments_blob_key_idx').on(t.blobKey),
    index('exam_attachments_exam_idx').on(t.examId, t.createdAt),
    index('exam_attachments_code_idx').on(t.uploadCodeId),
  ],
);

export type UploadCodeRow = typeof uploadCodes.$inferSelect;
export type ExamAttachmentRow = typeof examAttachments.$inferSelect;
