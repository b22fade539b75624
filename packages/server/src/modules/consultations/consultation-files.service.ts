import {
  consultationAttachmentUpsertSchema,
  consultationCaseInputSchema,
  CONSULTATION_MAX,
  resolveUploadType,
  uploadRules,
  type ConsultationDetail,
  type ConsultationFile,
} from '@yyp/contracts';
import type { z } from 'zod';
import type { ConsultationRow } from '../../db/schema.js';
import { actorAudit, writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import { parseUploadKey, type PoliciesService } from '../policies/index.js';
import { ConsultationAccess, NO_CONTEXT, type ConsultationActor } from './consultation-access.js';
import { touchConsultation } from './consultation-exams.store.js';
import { addTrace } from './consultations.store.js';
import { underConsultationLock, type ConsultationDetailReader } from './consultation-exams.service.js';
import * as store from './consultation-files.store.js';

/** Download links work 5 to 10 minutes: signed per 5-minute window for two windows. */
const URL_WINDOW_SECONDS = 5 * 60;
const KIND = 'consultations';

const invalidUpload = (problem: string, message: string) => new AppError('InvalidUpload', message, { problem });

/** Control characters and path separators never reach a stored or shown file name. */
function cleanFileName(name: string): string {
  const cleaned = Array.from(name)
    .filter((c) => c.charCodeAt(0) > 0x1f && c.charCodeAt(0) !== 0x7f)
    .join('')
    .replace(/[\\/]/g, '_')
    .trim()
    .slice(0, 255);
  return cleaned || 'file';
}

export function presentFile(f: store.FileRow, createdByName: string): ConsultationFile {
  return {
    id: f.id,
    fileName: f.fileName,
    size: f.size,
    fileType: f.fileType,
    uploadStatus: f.uploadStatus === 'completed' ? 'completed' : 'processing',
    createdAt: f.created.toISOString(),
    createdByName,
  };
}

/**
 * Case documents and their files, and the experts' result attachments (spec 000 §3, §5 "images, PDF,
 * Word, Excel, XPS"). A file is uploaded with the upload policy of kind 'consultations' (GET
 * policies/consultations: the key and the PUT URL), then recorded here: first 'processing', then
 * 'completed' once the server found the blob of that size whose first bytes fit its type. Only a key
 * the policy issued to the caller is taken, and once.
 */
export class ConsultationFilesService {
  private readonly access: ConsultationAccess;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly policies: PoliciesService,
    private readonly detail: ConsultationDetailReader,
  ) {
    this.access = new ConsultationAccess(db);
  }

  private audit(actor: ConsultationActor, action: string, row: ConsultationRow, details: Record<string, unknown>) {
    return writeAudit(
      this.db,
      actor.ctx ?? NO_CONTEXT,
      actorAudit(actor.account, {
        action,
        category: 'phi',
        targetType: 'consultation',
        targetId: row.id,
        bucketId: row.sourceBucketId,
        details,
      }),
    );
  }

  /** POST consultations/{id}/cases (op addCase): at most CONSULTATION_MAX.cases. */
  async addCase(
    actor: ConsultationActor,
    id: string,
    input: z.input<typeof consultationCaseInputSchema>,
  ): Promise<ConsultationDetail> {
    const body = consultationCaseInputSchema.parse(input);
    const now = this.clock.now();
    await underConsultationLock(this.db, this.access, actor, id, 'addCase', async (tx) => {
      const n = await store.countCases(tx, id);
      if (n >= CONSULTATION_MAX.cases) {
        throw errors.validation(`At most ${CONSULTATION_MAX.cases} case documents`, {
          problem: 'tooMany',
          limit: CONSULTATION_MAX.cases,
        });
      }
      const row = await store.insertCase(tx, {
        consultationId: id,
        name: body.name,
        type: body.type,
        note: body.note,
        createdBy: actor.account.id,
        created: now,
      });
      await addTrace(tx, {
        consultationId: id,
        action: 'addCase',
        accountId: actor.account.id,
        detail: { caseId: row.id, name: row.name, type: row.type },
        at: now,
      });
      await touchConsultation(tx, id, now);
    });
    return this.detail(actor, id);
  }

  /** DELETE consultations/{id}/cases/{caseId} (op deleteCase): the case, its files and their blobs. */
  async removeCase(actor: ConsultationActor, id: string, caseId: string): Promise<ConsultationDetail> {
    const now = this.clock.now();
    const { keys, row } = await underConsultationLock(
      this.db,
      this.access,
      actor,
      id,
      'deleteCase',
      async (tx, row) => {
        const found = await store.findCase(tx, id, caseId);
        const keys = found ? await store.deleteCase(tx, id, caseId) : undefined;
        if (!found || !keys) throw errors.notFound('Case');
        await addTrace(tx, {
          consultationId: id,
          action: 'deleteCase',
          accountId: actor.account.id,
          detail: { caseId, name: found.name, files: keys.length },
          at: now,
        });
        await touchConsultation(tx, id, now);
        return { keys, row };
      },
    );
    await this.audit(actor, 'consultation.case_delete', row, { caseId, files: keys.length });
    for (const key of keys) await this.policies.discard(key).catch(() => undefined);
    return this.detail(actor, id);
  }

  /**
   * POST consultations/{id}/attachments/upsert: a case file (caseId, op addCase) or a result
   * attachment (op uploadResult), recorded under the caller's policy key. Sending the key again
   * moves it from processing to completed (after the blob's check) or answers it as it is.
   */
  async upsert(
    actor: ConsultationActor,
    id: string,
    input: z.input<typeof consultationAttachmentUpsertSchema>,
  ): Promise<ConsultationFile> {
    const body = consultationAttachmentUpsertSchema.parse(input);
    const caseId = body.caseId ?? null;
    const op = caseId ? 'addCase' : 'uploadResult';
    await this.access.require(actor, id, op);
    const parsed = parseUploadKey(body.key);
    if (!parsed || parsed.kind !== KIND || parsed.accountId !== actor.account.id) {
      throw invalidUpload('notYours', 'This is not a consultations upload of yours');
    }
    const claimed = body.fileType ? resolveUploadType(body.fileType, body.fileName) : '';
    if (claimed && claimed !== parsed.type) {
      throw invalidUpload('typeMismatch', `The upload is a ${parsed.type} file, not ${claimed}`);
    }
    const maxBytes = uploadRules[KIND].maxBytes;
    if (body.size > maxBytes) {
      throw new AppError('FileTooLarge', `The file is larger than ${maxBytes} bytes`, { size: body.size, maxBytes });
    }
    // The blob's check (presence, size, first bytes) before the row moves to completed.
    let size = body.size;
    if (body.uploadStatus === 'completed') {
      const upload = await this.policies.assertOwnedUpload(actor.account.id, KIND, body.key);
      if (upload.size !== body.size) {
        throw new AppError('InvalidUpload', `The uploaded file has ${upload.size} bytes, not ${body.size}`, {
          problem: 'sizeMismatch',
          size: upload.size,
        });
      }
      size = upload.size;
    }
    const now = this.clock.now();
    const { file, row, changed } = await underConsultationLock(this.db, this.access, actor, id, op, async (tx, row) => {
      const existing = await store.fileByKey(tx, body.key);
      if (existing) {
        if (existing.consultationId !== id || existing.caseId !== caseId) {
          throw invalidUpload('alreadyUsed', 'This upload is already recorded elsewhere');
        }
        if (body.uploadStatus === 'completed' && existing.uploadStatus !== 'completed') {
          const done = await store.completeFile(tx, existing.id, size);
          await this.traceUpload(tx, actor, done, now);
          return { file: done, row, changed: true };
        }
        return { file: existing, row, changed: false };
      }
      if (caseId && !(await store.findCase(tx, id, caseId))) throw errors.notFound('Case');
      const limit = caseId ? CONSULTATION_MAX.filesPerCase : CONSULTATION_MAX.resultAttachments;
      if ((await store.countFiles(tx, id, caseId)) >= limit) {
        throw new AppError('TooManyFiles', `At most ${limit} files here`, { maxFiles: limit });
      }
      const inserted = await store.insertFile(tx, {
        consultationId: id,
        caseId,
        key: body.key,
        fileName: cleanFileName(body.fileName),
        size,
        fileType: parsed.type,
        uploadStatus: body.uploadStatus,
        createdBy: actor.account.id,
        created: now,
      });
      if (!inserted) throw invalidUpload('alreadyUsed', 'This upload is already recorded elsewhere');
      if (inserted.uploadStatus === 'completed') await this.traceUpload(tx, actor, inserted, now);
      await touchConsultation(tx, id, now);
      return { file: inserted, row, changed: true };
    });
    if (changed) {
      await this.audit(actor, 'consultation.file_upload', row, {
        fileId: file.id,
        caseId,
        fileName: file.fileName,
        size: file.size,
        uploadStatus: file.uploadStatus,
      });
    }
    return presentFile(file, await store.accountName(this.db, file.createdBy));
  }

  private traceUpload(tx: Db, actor: ConsultationActor, f: store.FileRow, now: Date) {
    return addTrace(tx, {
      consultationId: f.consultationId,
      action: f.caseId ? 'uploadCaseFile' : 'uploadResult',
      accountId: actor.account.id,
      detail: { fileId: f.id, caseId: f.caseId, fileName: f.fileName, size: f.size },
      at: now,
    });
  }

  /** DELETE consultations/{id}/attachments/{fileId}: deleteCase for a case's file, uploadResult for the result's; the blob goes too. */
  async remove(actor: ConsultationActor, id: string, fileId: string): Promise<void> {
    await this.access.load(actor, id);
    const found = await store.findFile(this.db, id, fileId);
    if (!found) throw errors.notFound('Attachment');
    const op = found.caseId ? 'deleteCase' : 'uploadResult';
    const now = this.clock.now();
    const { file, row } = await underConsultationLock(this.db, this.access, actor, id, op, async (tx, row) => {
      const file = await store.deleteFile(tx, id, fileId);
      if (!file) throw errors.notFound('Attachment');
      await addTrace(tx, {
        consultationId: id,
        action: 'removeFile',
        accountId: actor.account.id,
        detail: { fileId, caseId: file.caseId, fileName: file.fileName },
        at: now,
      });
      await touchConsultation(tx, id, now);
      return { file, row };
    });
    await this.audit(actor, 'consultation.file_delete', row, { fileId, caseId: file.caseId, fileName: file.fileName });
    await this.policies.discard(file.key).catch(() => undefined);
  }

  /** GET consultations/{id}/attachments/{fileId}/url (op view): a link of 5 to 10 minutes to a completed file. Audited. */
  async url(actor: ConsultationActor, id: string, fileId: string): Promise<{ url: string; expiresAt: string }> {
    const { row } = await this.access.require(actor, id, 'view');
    const file = await store.findFile(this.db, id, fileId);
    if (!file) throw errors.notFound('Attachment');
    if (file.uploadStatus !== 'completed') {
      throw invalidUpload('processing', 'The file has not finished uploading');
    }
    const url = await this.policies.readUrl(file.key, { windowSeconds: URL_WINDOW_SECONDS, fileName: file.fileName });
    if (!url) throw new AppError('ServiceNotConfigured', 'The blob store of this server cannot issue download URLs');
    const windowMs = URL_WINDOW_SECONDS * 1000;
    const signedAt = Math.floor(this.clock.now().getTime() / windowMs) * windowMs;
    await this.audit(actor, 'consultation.file_url', row, { fileId, caseId: file.caseId, fileName: file.fileName });
    return { url, expiresAt: new Date(signedAt + 2 * windowMs).toISOString() };
  }
}
