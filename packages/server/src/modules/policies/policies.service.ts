import {
  checkUpload,
  DOWNLOAD_URL_SECONDS,
  type DownloadPolicy,
  resolveUploadType,
  UPLOAD_URL_SECONDS,
  uploadRules,
  type UploadKind,
  type UploadPolicy,
  type UploadPolicyQuery,
  type UploadType,
} from '@yyp/contracts';
import type { AuditContext } from '../../platform/audit.js';
import type { BlobStore } from '../../platform/blobs.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import { auditExam, type FilesCaller, refuseMaskedFiles } from '../exams/index.js';
import * as store from './policies.store.js';
import { contentMatchesType, parseUploadKey, SNIFF_BYTES, uploadKey } from './upload-keys.js';

const notConfigured = () =>
  new AppError('ServiceNotConfigured', 'The blob store of this server cannot issue upload or download URLs');
const invalidUpload = (problem: string, message: string) => new AppError('InvalidUpload', message, { problem });

/** Uploaded file a later call may use: checked to be the caller's, present, in size and of its type. */
export interface OwnedUpload {
  key: string;
  size: number;
  contentType: UploadType;
}

async function readHead(blobs: BlobStore, key: string, size: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of blobs.stream(key, { start: 0, end: Math.min(size, SNIFF_BYTES) - 1 })) {
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * Upload policies (spec 001 §7 GET policies/avatars|forms|attachments|images): a URL for one
 * file of an allowed type and size, under a key the server picks, and the check a later call
 * makes before it uses such a key.
 */
export class PoliciesService {
  constructor(
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
    private readonly db: Db,
  ) {}

  async issue(accountId: string, kind: UploadKind, query: UploadPolicyQuery): Promise<UploadPolicy> {
    const rule = uploadRules[kind];
    const contentType = resolveUploadType(query.contentType, query.fileName);
    const size = query.size;
    const problem = checkUpload(kind, contentType, size);
    if (problem === 'FileTypeNotAllowed') {
      throw new AppError('FileTypeNotAllowed', `Files of type "${contentType || 'unknown'}" cannot be uploaded here`, {
        contentType,
        accept: rule.accept,
      });
    }
    if (problem === 'FileTooLarge') {
      throw new AppError('FileTooLarge', `The file is larger than ${rule.maxBytes} bytes`, {
        size,
        maxBytes: rule.maxBytes,
      });
    }
    if (problem === 'EmptyFile') throw errors.validation('The file is empty', { field: 'size', problem: 'EmptyFile' });
    if (!this.blobs.presignPut) throw notConfigured();
    const type = contentType as UploadType;
    const key = uploadKey(kind, accountId, type);
    const put = await this.blobs.presignPut(key, {
      contentType: type,
      maxBytes: rule.maxBytes,
      size,
      expiresSeconds: UPLOAD_URL_SECONDS,
    });
    return {
      key,
      upload: { method: put.method, url: put.url, headers: put.headers },
      expiresAt: put.expiresAt,
      maxBytes: rule.maxBytes,
      accept: [...rule.accept],
    };
  }

  /**
   * The check before a call uses an uploaded key: it must be a key this caller was given for this
   * kind, the upload must have arrived, and what arrived must be within the kind's size and of the
   * type the key says (a store that does not enforce signed headers is caught here).
   */
  async assertOwnedUpload(accountId: string, kind: UploadKind, key: string): Promise<OwnedUpload> {
    const parsed = parseUploadKey(key);
    if (!parsed || parsed.kind !== kind || parsed.accountId !== accountId) {
      throw invalidUpload('notYours', `This is not a ${kind} upload of yours`);
    }
    const size = await this.blobs.size(key);
    if (size === null || size === 0) throw invalidUpload('missing', 'The file was not uploaded');
    if (size > uploadRules[kind].maxBytes) throw invalidUpload('tooLarge', 'The uploaded file is too large');
    if (!contentMatchesType(parsed.type, await readHead(this.blobs, key, size))) {
      throw invalidUpload('typeMismatch', `The uploaded file is not a ${parsed.type} file`);
    }
    return { key, size, contentType: parsed.type };
  }

  /**
   * A download URL for an uploaded file. Signed for a window that starts at the last multiple of
   * `windowSeconds`: the same URL comes back all through the window, so browsers cache the file,
   * and it stays valid for at least one more window.
   */
  async readUrl(key: string, options: { windowSeconds: number; fileName?: string }): Promise<string | null> {
    const parsed = parseUploadKey(key);
    if (!parsed || !this.blobs.presignGet) return null;
    const windowMs = options.windowSeconds * 1000;
    const issuedAt = new Date(Math.floor(this.clock.now().getTime() / windowMs) * windowMs);
    return this.blobs.presignGet(key, {
      expiresSeconds: options.windowSeconds * 2,
      issuedAt,
      contentType: parsed.type,
      ...(options.fileName ? { fileName: options.fileName } : {}),
    });
  }

  /** Removes an uploaded file no longer referenced; other keys are never touched. */
  async discard(key: string | null): Promise<void> {
    if (key && parseUploadKey(key)) await this.blobs.delete(key);
  }

  /**
   * GET policies/download-token: a URL per stored instance of the study, straight from the blob
   * store, all valid DOWNLOAD_URL_SECONDS. The route authorized study_package in the organization;
   * a study not there (or deleted) is 404; a caller who sees the exam masked is refused
   * (refuseMaskedFiles). Handing out the files is a PHI disclosure: audited.
   */
  async downloadPolicy(
    caller: FilesCaller,
    bucketId: string,
    storeUid: string,
    ctx: AuditContext,
  ): Promise<DownloadPolicy> {
    const found = await store.studyFiles(this.db, bucketId, storeUid);
    if (!found) throw errors.notFound('Exam');
    await refuseMaskedFiles(this.db, ctx, caller, found.exam, 'GET policies/download-token');
    const actor = caller.account;
    const presign = this.blobs.presignGet?.bind(this.blobs);
    if (!presign) throw notConfigured();
    const issuedAt = this.clock.now();
    const files = await Promise.all(
      found.files.map(async (f) => ({
        seriesInstanceUid: f.seriesInstanceUid,
        sopInstanceUid: f.sopInstanceUid,
        size: f.size,
        url: await presign(f.blobKey, {
          expiresSeconds: DOWNLOAD_URL_SECONDS,
          issuedAt,
          contentType: 'application/dicom',
          fileName: `${f.sopInstanceUid}.dcm`,
        }),
      })),
    );
    await auditExam(
      this.db,
      ctx,
      actor,
      'exam.download-policy',
      { id: found.exam.id, bucketId },
      {
        patientId: found.exam.patientId,
        details: { files: files.length },
      },
    );
    return { storeUid, expiresAt: Math.floor(issuedAt.getTime() / 1000) + DOWNLOAD_URL_SECONDS, files };
  }
}
