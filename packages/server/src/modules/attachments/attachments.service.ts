import {
  ATTACHMENT_CODE_SECONDS,
  attachmentUploadKind,
  attachmentUploadPath,
  maskPatientName,
  MAX_FILES_PER_UPLOAD_CODE,
  resolveUploadType,
  uploadRules,
  type AttachmentDownloadUrl,
  type AttachmentKind,
  type CodeUpload,
  type CodeUploadPolicyQuery,
  type ExamAttachment,
  type ExamAttachmentList,
  type ReportAttachmentUpload,
  type ServiceAttachment,
  type UploadByCodeRequest,
  type UploadCode,
  type UploadPolicy,
} from '@yyp/contracts';
import type { AccountRow, ExamAttachmentRow, UploadCodeRow } from '../../db/schema.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import { decide, type BucketFacts, type CallerAccess } from '../../platform/authz.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import type { PoliciesService } from '../policies/index.js';
import { codeError, codeOwner, codeProblem, hashCode, newCode } from '../upload-codes/index.js';
import * as codes from '../upload-codes/index.js';
import * as store from './attachments.store.js';

/** Download links work for 10 minutes: signed per 5-minute window, so a link lasts 5 to 10 minutes. */
const DOWNLOAD_URL_SECONDS = 10 * 60;
const DOWNLOAD_WINDOW_SECONDS = DOWNLOAD_URL_SECONDS / 2;

/** The member of the exam's organization a call acts for, as the route authorized it. */
export interface Member {
  account: AccountRow;
  access: CallerAccess;
  bucket: BucketFacts;
}

const tooManyFiles = () =>
  new AppError('TooManyFiles', `A code accepts at most ${MAX_FILES_PER_UPLOAD_CODE} files`, {
    maxFiles: MAX_FILES_PER_UPLOAD_CODE,
  });

/** Control characters and path separators never reach a stored or shown file name. */
export function cleanFileName(name: string): string {
  const cleaned = Array.from(name)
    .filter((c) => c.charCodeAt(0) > 0x1f && c.charCodeAt(0) !== 0x7f)
    .join('')
    .replace(/[\\/]/g, '_')
    .trim()
    .slice(0, 255);
  return cleaned || 'file';
}

const invalidUpload = (problem: string, message: string) => new AppError('InvalidUpload', message, { problem });

const cannotSign = () =>
  new AppError('ServiceNotConfigured', 'The blob store of this server cannot issue download URLs');

/**
 * The PHI audit row of what happened to an exam's attachments: by the account, or by nobody for
 * the holder of an upload code.
 */
function auditExam(
  db: Db,
  ctx: AuditContext,
  account: AccountRow | null,
  action: string,
  exam: { id: string; bucketId: string; patientId: string | undefined },
  details: Record<string, unknown>,
) {
  return writeAudit(db, ctx, {
    action,
    category: 'phi',
    outcome: 'success',
    ...(account ? { actorId: account.id, actorUsername: account.username } : { actorId: null }),
    targetType: 'exam',
    targetId: exam.id,
    bucketId: exam.bucketId,
    patientId: exam.patientId,
    details,
  });
}

/** The exam of an attachment row, with the patient when the exam is still there. */
function attachmentExam(row: ExamAttachmentRow, exam: { patientId: string } | undefined) {
  return { id: row.examId, bucketId: row.bucketId, patientId: exam?.patientId };
}

const attachmentDetails = (row: ExamAttachmentRow) => ({
  attachmentId: row.id,
  kind: row.kind,
  fileName: row.fileName,
});

function presentAttachment(a: ExamAttachmentRow, uploaderName: string | null, url: string | null): ExamAttachment {
  return {
    id: a.id,
    examId: a.examId,
    kind: a.kind,
    fileName: a.fileName,
    contentType: a.contentType,
    size: a.size,
    source: a.source,
    uploadedBy: a.uploadedBy ? { id: a.uploadedBy, name: uploaderName ?? '' } : null,
    createdAt: a.createdAt.toISOString(),
    url,
  };
}

function presentCodeUpload(row: ExamAttachmentRow): CodeUpload {
  return {
    id: row.id,
    fileName: row.fileName,
    contentType: row.contentType,
    size: row.size,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Exam attachments (spec 000 §3 Exam.attachments): order-form scans and other files, sent by an
 * outside holder of a 24-hour upload code (spec 001 §7 GET service-attachment,
 * POST attachments/upload-by-code) and listed or deleted by members of the exam's organization.
 * A code reaches its own exam only; its holder sees a masked patient name and its own uploads.
 */
export class AttachmentsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly policies: PoliciesService,
  ) {}

  private now() {
    return this.clock.now();
  }

  async issueCode(account: AccountRow, examId: string, kind: AttachmentKind, ctx: AuditContext): Promise<UploadCode> {
    const exam = await store.examForCode(this.db, examId);
    if (!exam || exam.deletedTime) throw errors.notFound('Exam');
    const now = this.now();
    const { code, hash } = newCode();
    const expiresAt = new Date(now.getTime() + ATTACHMENT_CODE_SECONDS * 1000);
    await this.db.transaction(async (tx) => {
      await codes.insertCode(
        tx,
        { codeHash: hash, purpose: kind, accountId: account.id, examId, bucketId: exam.bucketId, expiresAt },
        now,
      );
      await auditExam(tx, ctx, account, 'attachment_code_issue', exam, { kind });
    });
    return {
      code,
      url: `${attachmentUploadPath[kind]}?code=${encodeURIComponent(code)}`,
      expiresAt: Math.floor(expiresAt.getTime() / 1000),
    };
  }

  /** The code's row and exam, or LinkInvalid (also when the exam is gone). */
  private async openCode(code: string) {
    const row = await codes.findCodeByHash(this.db, hashCode(code));
    const problem = codeProblem(row, ['form', 'attachment'], this.now());
    if (problem) throw codeError(problem);
    const exam = row!.examId ? await store.examForCode(this.db, row!.examId) : undefined;
    if (!exam || exam.deletedTime || exam.bucketId !== row!.bucketId) throw codeError('invalid');
    return { row: row as UploadCodeRow & { purpose: AttachmentKind; examId: string }, exam };
  }

  async describe(code: string): Promise<ServiceAttachment> {
    const { row, exam } = await this.openCode(code);
    const rule = uploadRules[attachmentUploadKind[row.purpose]];
    const uploads = await store.listForCode(this.db, row.id);
    return {
      kind: row.purpose,
      organizationName: exam.organizationName,
      exam: { modality: exam.modality, studyDate: exam.studyDate, patientName: maskPatientName(exam.patientName) },
      accept: [...rule.accept],
      maxBytes: rule.maxBytes,
      maxFiles: MAX_FILES_PER_UPLOAD_CODE,
      expiresAt: Math.floor(row.expiresAt.getTime() / 1000),
      uploads: uploads.map(presentCodeUpload),
    };
  }

  /** An upload URL for one file of the code's kind, under a key only this code can hand in. */
  async policy(query: CodeUploadPolicyQuery): Promise<UploadPolicy> {
    const { row } = await this.openCode(query.code);
    if ((await store.countForCode(this.db, row.id)) >= MAX_FILES_PER_UPLOAD_CODE) throw tooManyFiles();
    return this.policies.issue(codeOwner(row.id), attachmentUploadKind[row.purpose], query);
  }

  /** Records the code's upload on its exam; sending the same key again answers the same file. */
  async uploadByCode(input: UploadByCodeRequest, ctx: AuditContext): Promise<CodeUpload> {
    const { row, exam } = await this.openCode(input.code);
    const upload = await this.policies.assertOwnedUpload(
      codeOwner(row.id),
      attachmentUploadKind[row.purpose],
      input.key,
    );
    const recorded = await this.db.transaction(async (tx) => {
      // One upload through a code at a time, so the count holds under concurrent sends.
      await codes.lockCode(tx, row.id);
      const existing = await store.attachmentByKey(tx, upload.key);
      if (existing) return existing;
      if ((await store.countForCode(tx, row.id)) >= MAX_FILES_PER_UPLOAD_CODE) throw tooManyFiles();
      const inserted = await store.insertAttachment(
        tx,
        {
          examId: row.examId,
          bucketId: exam.bucketId,
          kind: row.purpose,
          blobKey: upload.key,
          fileName: cleanFileName(input.fileName),
          contentType: upload.contentType,
          size: upload.size,
          uploadedBy: null,
          source: 'code',
          uploadCodeId: row.id,
        },
        this.now(),
      );
      await auditExam(tx, ctx, null, 'attachment_upload', exam, {
        attachmentId: inserted.id,
        kind: row.purpose,
        fileName: inserted.fileName,
        size: inserted.size,
        via: 'code',
        codeIssuedBy: row.accountId,
      });
      return inserted;
    });
    return presentCodeUpload(recorded);
  }

  /** The same link all through a window, so browsers cache the file (see PoliciesService.readUrl). */
  private downloadUrl(a: ExamAttachmentRow): Promise<string | null> {
    return this.policies.readUrl(a.blobKey, { windowSeconds: DOWNLOAD_WINDOW_SECONDS, fileName: a.fileName });
  }

  async list(caller: CallerAccess, bucket: BucketFacts, examId: string): Promise<ExamAttachmentList> {
    const withUrls = decide(caller, 'attachment_presigned_url', bucket) === 'allow';
    const rows = await store.listForExam(this.db, examId);
    const attachments: ExamAttachment[] = [];
    for (const { attachment: a, uploaderName } of rows) {
      attachments.push(presentAttachment(a, uploaderName, withUrls ? await this.downloadUrl(a) : null));
    }
    return { attachments };
  }

  /**
   * Records a member's own upload (GET policies/attachments, or policies/forms for a form) on the
   * exam (spec 001 §7 POST reports/{id}/attachments/upload). Only a per-code limit exists for code
   * uploads, so members have none beyond the policy's size and type. Sending the same key again
   * answers the same file; a key already recorded elsewhere is refused.
   */
  async upload(
    member: Member,
    examId: string,
    input: ReportAttachmentUpload,
    ctx: AuditContext,
  ): Promise<ExamAttachment> {
    const { account, access, bucket } = member;
    const exam = await store.examForCode(this.db, examId);
    if (!exam || exam.deletedTime) throw errors.notFound('Exam');
    const upload = await this.policies.assertOwnedUpload(account.id, attachmentUploadKind[input.kind], input.key);
    const claimed = input.contentType ? resolveUploadType(input.contentType, input.name) : '';
    if (claimed && claimed !== upload.contentType) {
      throw invalidUpload('typeMismatch', `The uploaded file is a ${upload.contentType} file, not ${claimed}`);
    }
    const recorded = await this.db.transaction(async (tx) => {
      const inserted = await store.insertAttachmentOnce(
        tx,
        {
          examId,
          bucketId: exam.bucketId,
          kind: input.kind,
          blobKey: upload.key,
          fileName: cleanFileName(input.name),
          contentType: upload.contentType,
          size: upload.size,
          uploadedBy: account.id,
          source: 'account',
          uploadCodeId: null,
        },
        this.now(),
      );
      if (!inserted) {
        const existing = await store.attachmentByKey(tx, upload.key);
        if (existing?.examId !== examId || existing.kind !== input.kind) {
          throw invalidUpload('alreadyUsed', 'This upload is already recorded elsewhere');
        }
        return existing;
      }
      await auditExam(tx, ctx, account, 'attachment_upload', exam, {
        attachmentId: inserted.id,
        kind: input.kind,
        fileName: inserted.fileName,
        size: inserted.size,
        via: 'account',
      });
      return inserted;
    });
    const withUrl = decide(access, 'attachment_presigned_url', bucket) === 'allow';
    return presentAttachment(recorded, account.name, withUrl ? await this.downloadUrl(recorded) : null);
  }

  /** A 10-minute download link for one attachment (GET reports/{id}/attachments/{id}/presign-url). */
  async presignUrl(
    account: AccountRow,
    examId: string,
    attachmentId: string,
    ctx: AuditContext,
  ): Promise<AttachmentDownloadUrl> {
    const row = await store.findForExam(this.db, examId, attachmentId);
    if (!row) throw errors.notFound('Attachment');
    const url = await this.downloadUrl(row);
    if (!url) throw cannotSign();
    const exam = await store.examForCode(this.db, examId);
    await auditExam(
      this.db,
      ctx,
      account,
      'attachment_presigned_url',
      attachmentExam(row, exam),
      attachmentDetails(row),
    );
    // readUrl signs from the last window boundary for two windows.
    const windowMs = DOWNLOAD_WINDOW_SECONDS * 1000;
    const signedAt = Math.floor(this.now().getTime() / windowMs) * windowMs;
    return { url, expiresAt: Math.floor((signedAt + 2 * windowMs) / 1000) };
  }

  async remove(account: AccountRow, examId: string, attachmentId: string, ctx: AuditContext): Promise<void> {
    const exam = await store.examForCode(this.db, examId);
    const deleted = await this.db.transaction(async (tx) => {
      const row = await store.findForExam(tx, examId, attachmentId);
      if (!row) throw errors.notFound('Attachment');
      await store.deleteAttachment(tx, row.id);
      await auditExam(tx, ctx, account, 'attachment_delete', attachmentExam(row, exam), attachmentDetails(row));
      return row;
    });
    // The row is gone in the same commit as its audit; a failed file removal only leaves a stray blob.
    await this.policies.discard(deleted.blobKey).catch(() => undefined);
  }
}
