import fs from 'node:fs/promises';
import type { UploadCorrection } from '@yyp/contracts';
import type { AccountRow } from '../../db/schema.js';
import { isZip, zipEntries } from '../../dicom/archive.js';
import { DicomError } from '../../dicom/parse.js';
import { isPart10 } from '../../dicom/preamble.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import { bucketsWith } from '../../platform/access.js';
import { type ArchiveService, IngestRefused, type IngestResult, uploadBlock } from '../archive/index.js';
import { bucketsByIds, findBucket } from '../organizations/index.js';
import type { Signer } from '../../platform/signed.js';
import { findAccountById } from '../accounts/index.js';
import { correctionDiff, isEmptyCorrection } from './upload-corrections.js';
import * as store from './uploads.store.js';

export const UPLOAD_ENDPOINT = '/yyp/api/v1/uploads/files/';
const SESSION_TTL_S = 24 * 3600;
/** Largest single file: a multi-frame clip or a large mammogram fits; anything bigger is refused. */
export const MAX_UPLOAD_FILE_BYTES = 2 * 1024 * 1024 * 1024;

/** The first `n` bytes of a file (fewer when it is shorter). */
async function head(path: string, n: number): Promise<Buffer> {
  const fh = await fs.open(path, 'r');
  try {
    const buf = Buffer.alloc(n);
    const { bytesRead } = await fh.read(buf, 0, n, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

export interface SessionClaims {
  uploadId: string;
  bucketId: string;
}

function summary(row: NonNullable<Awaited<ReturnType<typeof store.findSession>>>) {
  return {
    uploadId: row.id,
    status: row.status as 'open' | 'completed',
    stored: row.stored,
    duplicates: row.duplicates,
    skipped: row.skipped,
    examIds: row.examIds,
  };
}

/**
 * Upload sessions. The signed session token is the only credential the tus endpoint accepts: it
 * can add files to its organization and read its own summary, nothing else.
 */
export class UploadsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly signer: Signer,
    private readonly archive: ArchiveService,
  ) {}

  /** Organizations the caller may upload into, each saying whether its plan refuses uploads now. */
  async uploadable(accountId: string) {
    const now = this.clock.now();
    return (await bucketsByIds(this.db, await bucketsWith(this.db, accountId, 'exam_upload'))).map((b) => ({
      id: b.id,
      name: b.name,
      groupId: b.groupId,
      blocked: uploadBlock(b, now, 1),
    }));
  }

  /**
   * GET buckets/{id}/studies/refresh-upload-credentials: a new session token, valid `delta`
   * seconds, for an upload session of the caller's that is still open in this organization (a
   * long upload outlives its first credentials). The old token keeps working until it expires.
   */
  async refresh(account: AccountRow, bucketId: string, uploadId: string, delta: number) {
    const row = await store.findSession(this.db, uploadId);
    if (!row || row.bucketId !== bucketId || row.accountId !== account.id) throw errors.notFound('Upload');
    if (row.status !== 'open') throw new AppError('Conflict', 'This upload is already complete');
    return this.credentials(row.id, bucketId, delta);
  }

  /** POST exams/{id}/uploaded: the sender says the exam's images are all there. */
  async markUploaded(examId: string) {
    const row = await store.markExamUploaded(this.db, examId);
    if (!row) throw errors.notFound('Exam');
    return { id: row.id, uploadStatus: row.uploadStatus as 'processing' | 'completed' };
  }

  private async open(bucketId: string, account: AccountRow | null, source: 'web' | 'token') {
    const now = this.clock.now();
    const plan = await findBucket(this.db, bucketId);
    const block = plan && uploadBlock(plan, now, 1);
    if (block) {
      throw new AppError(
        block,
        block === 'BucketFull'
          ? 'This organization has used its whole plan quota; uploads resume when the plan is renewed'
          : 'This organization has no valid subscription; uploads resume when the plan is renewed',
      );
    }
    const row = await store.createSession(this.db, bucketId, account?.id ?? null, source, now);
    return this.credentials(row.id, bucketId, SESSION_TTL_S);
  }

  /** The signed session token of an upload, valid `seconds`: the only credential the tus endpoint takes. */
  private async credentials(uploadId: string, bucketId: string, seconds: number) {
    const { token, expires } = this.signer.sign(
      'upload',
      { u: uploadId, b: bucketId },
      new Date(this.clock.now().getTime() + seconds * 1000),
    );
    return {
      uploadId,
      sessionToken: token,
      endpoint: UPLOAD_ENDPOINT,
      expires,
      bucketName: await store.bucketName(this.db, bucketId),
    };
  }

  startForAccount(account: AccountRow, bucketId: string) {
    return this.open(bucketId, account, 'web');
  }

  /** Public: an upload link (organization upload token) opens a session into that organization only. */
  async startWithToken(token: string, ctx: AuditContext) {
    const bucket = await store.bucketByUploadToken(this.db, token);
    if (!bucket) {
      await writeAudit(this.db, ctx, { action: 'upload.token.refused', outcome: 'denied', category: 'security' });
      throw errors.notFound('Upload link');
    }
    return this.open(bucket.id, null, 'token');
  }

  claims(sessionToken: string | null | undefined): SessionClaims | null {
    if (!sessionToken) return null;
    const p = this.signer.verify('upload', sessionToken, this.clock.now());
    return p && typeof p.u === 'string' && typeof p.b === 'string' ? { uploadId: p.u, bucketId: p.b } : null;
  }

  /** Claims of a session that still accepts files. */
  async openClaims(sessionToken: string | null | undefined): Promise<SessionClaims | null> {
    const claims = this.claims(sessionToken);
    if (!claims) return null;
    const row = await store.findSession(this.db, claims.uploadId);
    return row?.status === 'open' ? claims : null;
  }

  /**
   * One finished tus file: ingest it (or, for a zip, each of its entries, each inflated into a
   * temporary file of its own), record each outcome by name, remove the temporary files. Entries
   * of an archive are reported as "archive.zip/path".
   */
  async ingestFile(claims: SessionClaims, path: string, name: string): Promise<void> {
    const session = await store.findSession(this.db, claims.uploadId);
    try {
      if (!session || session.status !== 'open') return;
      const source = session.source === 'token' ? 'token' : 'web';
      if (isZip(await head(path, 4))) {
        for await (const entry of zipEntries(path, name)) {
          if ('skipped' in entry) {
            await store.recordFile(this.db, claims.uploadId, { skipped: { name: entry.name, reason: entry.skipped } });
          } else {
            await this.ingestPath(claims, entry.path, entry.name, source);
          }
        }
        return;
      }
      await this.ingestPath(claims, path, name, source);
    } finally {
      await fs.rm(path, { force: true });
      await fs.rm(`${path}.json`, { force: true });
    }
  }

  /**
   * One file from its path (the archive reads a large one from disk, never whole: it may move it
   * away). A file that is no DICOM Part 10 file (no "DICM" after the 128-byte preamble) is
   * reported from its first bytes, without reading the rest.
   */
  private async ingestPath(claims: SessionClaims, path: string, name: string, source: 'web' | 'token') {
    const prefix = await head(path, 132);
    await this.ingestOne(claims, name, () =>
      isPart10(prefix)
        ? this.archive.ingestFile(claims.bucketId, path, source)
        : this.archive.ingest(claims.bucketId, prefix, source),
    );
  }

  private async ingestOne(claims: SessionClaims, name: string, ingest: () => Promise<IngestResult>) {
    try {
      const r = await ingest();
      await store.recordFile(
        this.db,
        claims.uploadId,
        r.duplicate ? { duplicate: true, examId: r.examId } : { stored: true, examId: r.examId },
      );
    } catch (err) {
      if (!(err instanceof DicomError) && !(err instanceof IngestRefused)) throw err;
      await store.recordFile(this.db, claims.uploadId, { skipped: { name, reason: err.reason } });
    }
  }

  async summary(sessionToken: string) {
    const claims = this.claims(sessionToken);
    const row = claims && (await store.findSession(this.db, claims.uploadId));
    if (!row) throw errors.notFound('Upload');
    return summary(row);
  }

  /**
   * Closes the session; further files are refused. Audited with what arrived. `corrections`
   * (the wizard's step 2) are written on every exam the upload stored, each with an audit row of
   * its old and new values, in the same transaction; the stored files stay as received. Refused
   * whole (nothing changed, the session stays open) when the caller may not make them.
   */
  async complete(sessionToken: string, ctx: AuditContext, corrections?: UploadCorrection) {
    const claims = this.claims(sessionToken);
    const session = claims && (await store.findSession(this.db, claims.uploadId));
    if (!session) throw errors.notFound('Upload');
    const plan = isEmptyCorrection(corrections) ? [] : await this.correctionPlan(session, corrections!);
    const now = this.clock.now();
    const row = await this.db.transaction(async (tx) => {
      for (const fix of plan) {
        await store.correctExam(tx, fix.examId, fix.change, now);
        await writeAudit(tx, ctx, {
          action: 'exam.upload-correction',
          outcome: 'success',
          category: 'phi',
          actorId: fix.actor.id,
          actorUsername: fix.actor.username,
          bucketId: session.bucketId,
          targetType: 'exam',
          targetId: fix.examId,
          patientId: fix.change.patientId ?? fix.patientId,
          details: { uploadId: session.id, fields: fix.fields },
        });
      }
      const done = await store.completeSession(tx, session.id, now);
      if (!done) throw errors.notFound('Upload');
      await store.markExamsUploaded(tx, done.examIds);
      await writeAudit(tx, ctx, {
        action: 'upload.completed',
        outcome: 'success',
        category: 'phi',
        actorId: done.accountId,
        bucketId: done.bucketId,
        targetType: 'upload',
        targetId: done.id,
        details: {
          source: done.source,
          stored: done.stored,
          duplicates: done.duplicates,
          skipped: done.skipped.length,
          exams: done.examIds.length,
          corrected: plan.length,
        },
      });
      return done;
    });
    return summary(row);
  }

  /**
   * Which exams a correction changes, and the check that the sender may: only a signed-in upload
   * corrects (a link uploader has no account to answer for it), its account must still upload
   * into the organization, and an exam that existed before this upload (the files added to a
   * stored study) also needs exam_update there, as POST exams/{id} does. An accession number names
   * one study: it is refused for an upload that stored several.
   */
  private async correctionPlan(
    session: NonNullable<Awaited<ReturnType<typeof store.findSession>>>,
    c: UploadCorrection,
  ) {
    const actor = session.accountId ? await findAccountById(this.db, session.accountId) : undefined;
    if (!actor) throw errors.forbidden('exam_upload');
    if (!(await bucketsWith(this.db, actor.id, 'exam_upload')).includes(session.bucketId)) {
      throw errors.forbidden('exam_upload');
    }
    const targets = await store.sessionExams(this.db, session.bucketId, session.examIds);
    if (c.accessionNumber !== undefined && targets.length > 1) {
      throw errors.validation('An accession number names one study; this upload stored several', {
        field: 'accessionNumber',
        exams: targets.length,
      });
    }
    if (
      targets.some((e) => e.created < session.createdAt) &&
      !(await bucketsWith(this.db, actor.id, 'exam_update')).includes(session.bucketId)
    ) {
      throw errors.forbidden('exam_update');
    }
    return targets
      .map((e) => ({ examId: e.id, patientId: e.patientId, actor, ...correctionDiff(e, c) }))
      .filter((fix) => Object.keys(fix.fields).length > 0);
  }
}
