import type { Readable } from 'node:stream';
import { LANGUAGES, type Language, type StudyPackagesLink } from '@yyp/contracts';
import type { AccountRow } from '../../db/schema.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import type { BlobStore } from '../../platform/blobs.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import type { Signer } from '../../platform/signed.js';
import { seesConsultationCopy } from './exams.copy-gate.js';
import { refuseMaskedFiles, type FilesCaller } from './files-privacy.js';
import { packageName } from './package.js';
import { buildMediaPackage, mediaZip } from './package-media.js';
import { mediaFiles } from './package-media.store.js';
import { authorizeStudyPackages } from './study-packages.js';
import * as store from './exams.store.js';

const VIEWER_TTL_S = 12 * 3600;
const SHARE_TTL_S = 7 * 24 * 3600;
const DOWNLOAD_TTL_S = 10 * 60;
const REPACKAGE_INTERVAL_MS = 3600_000;

/** The PHI audit row of what a caller (none for a signed link) did to an exam. */
export function auditExam(
  db: Db,
  ctx: AuditContext,
  actor: Pick<AccountRow, 'id' | 'username'> | null,
  action: string,
  exam: { id: string; bucketId: string },
  more: { patientId?: string; details?: Record<string, unknown> },
) {
  return writeAudit(db, ctx, {
    action,
    outcome: 'success',
    category: 'phi',
    actorId: actor?.id ?? null,
    actorUsername: actor?.username ?? null,
    targetType: 'exam',
    targetId: exam.id,
    bucketId: exam.bucketId,
    ...more,
  });
}

/** Exam-level archive calls: viewer paths, study packages and their download links, merging. */
export class ExamsService {
  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
    private readonly signer: Signer,
  ) {}

  private async exam(examId: string) {
    const exam = await store.findExam(this.db, examId);
    if (!exam || exam.deletedTime) throw errors.notFound('Exam');
    return exam;
  }

  /** A signed path the viewer opens; `share` paths work without an account, read-only, until they expire. */
  async viewerPath(
    actor: AccountRow,
    examId: string,
    kind: 'viewer' | 'share',
    input: { reportId?: string | undefined; issuerId?: string | undefined },
    ctx: AuditContext,
  ) {
    const exam = await this.exam(examId);
    const ttl = kind === 'share' ? SHARE_TTL_S : VIEWER_TTL_S;
    const { token, expires } = this.signer.sign(
      kind,
      { e: exam.id, b: exam.bucketId, s: exam.storeUid, u: actor.id, r: input.reportId ?? null },
      new Date(this.clock.now().getTime() + ttl * 1000),
    );
    if (kind === 'share') {
      await auditExam(this.db, ctx, actor, 'exam.share_path', exam, {
        patientId: exam.patientId,
        details: { expires },
      });
    }
    return {
      openpath: token,
      rsuid: exam.storeUid,
      expires,
      url: `/viewer/${token}?rsuid=${encodeURIComponent(exam.storeUid)}`,
    };
  }

  /**
   * The study as a zip of DICOM media (package-media.ts): the cached package, rebuilt when the exam
   * changed or (at most hourly) on request. A caller who sees the exam masked is refused
   * (refuseMaskedFiles) before anything is built; `actor` null is a download link, checked when it
   * was issued. Its index page speaks `language` (null: whichever the cached package speaks).
   */
  async studyPackage(
    actor: FilesCaller | null,
    examId: string,
    repackage: boolean,
    ctx: AuditContext,
    language: Language | null = null,
  ): Promise<{ stream: Readable; size: number; filename: string }> {
    const exam = await this.exam(examId);
    if (actor) await refuseMaskedFiles(this.db, ctx, actor, exam, 'GET exams/:examId/study-package');
    const now = this.clock.now();
    let pkg = await store.findPackage(this.db, exam.id);
    if (repackage && pkg && now.getTime() - pkg.builtAt.getTime() < REPACKAGE_INTERVAL_MS) {
      const retryAfterSeconds = Math.ceil((REPACKAGE_INTERVAL_MS - (now.getTime() - pkg.builtAt.getTime())) / 1000);
      throw new AppError('TooManyRequests', 'A study can be repackaged once per hour', { retryAfterSeconds });
    }
    const root = packageName(exam);
    // Packages built before their names were free of patient values (v1), before every file's
    // preamble was zeroed as it is packed (v2), or before they were DICOM media (v3), are built
    // again; so is one whose index page speaks another language than the caller's.
    const keyIn = (lang: Language) => `packages/${exam.bucketId}/${exam.id}.v4-${lang}.zip`;
    const cached = LANGUAGES.find((lang) => pkg?.blobKey === keyIn(lang));
    const key = keyIn(language ?? cached ?? 'chs');
    if (
      !pkg ||
      repackage ||
      pkg.blobKey !== key ||
      pkg.builtAt < exam.updated ||
      (await this.blobs.size(pkg.blobKey)) === null
    ) {
      const size = await buildMediaPackage(this.blobs, key, await mediaFiles(this.db, [exam.id]), {
        root,
        language: language ?? cached ?? 'chs',
        now,
      });
      await store.savePackage(this.db, exam.id, key, size, now);
      if (pkg && pkg.blobKey !== key) await this.blobs.delete(pkg.blobKey);
      pkg = { examId: exam.id, blobKey: key, size, builtAt: now };
    }
    await auditExam(this.db, ctx, actor?.account ?? null, 'exam.download', exam, { patientId: exam.patientId });
    return { stream: this.blobs.stream(pkg.blobKey), size: pkg.size, filename: `${root}.zip` };
  }

  /**
   * Merges exam `fromId` into `examId` (spec 001 §7 merge-study): both in the same organization and
   * of the same patient; the images move, the emptied exam goes, all in one transaction.
   */
  async merge(actor: AccountRow, examId: string, fromId: string, ctx: AuditContext) {
    if (examId === fromId) throw errors.validation('An exam cannot be merged into itself', { field: 'id2' });
    const into = await this.exam(examId);
    const from = await store.findExam(this.db, fromId);
    if (!from || from.deletedTime || from.bucketId !== into.bucketId || !(await this.sees(actor.id, from))) {
      throw errors.notFound('Exam');
    }
    if (from.patientId !== into.patientId) {
      throw errors.validation('Only exams of the same patient can be merged', {
        field: 'id2',
        patientIds: [into.patientId, from.patientId],
      });
    }
    await this.db.transaction(async (tx) => {
      await store.mergeExams(tx, into.id, from.id, this.clock.now());
      await auditExam(tx, ctx, actor, 'exam.merge', into, {
        patientId: into.patientId,
        details: { merged: from.id, mergedStoreUid: from.storeUid },
      });
    });
    const merged = await this.exam(into.id);
    return {
      id: merged.id,
      storeUid: merged.storeUid,
      seriesCount: merged.seriesCount,
      instanceCount: merged.instanceCount,
    };
  }

  /**
   * A short-lived link that downloads the package without the bearer token (for the browser);
   * refused to a caller who sees the exam masked (the link carries no caller).
   */
  /** Whether the account may see the exam: a consultation's copy only its participants (exams.copy-gate.ts). */
  private async sees(accountId: string, exam: { id: string; bucketId: string; source: string }): Promise<boolean> {
    return exam.source !== 'consultation' || seesConsultationCopy(this.db, accountId, exam.bucketId, exam.id);
  }

  async downloadToken(actor: FilesCaller, bucketId: string, storeUid: string, ctx: AuditContext) {
    const exam = await store.examByStoreUid(this.db, bucketId, storeUid);
    if (!exam || !(await this.sees(actor.account.id, exam))) throw errors.notFound('Exam');
    await refuseMaskedFiles(this.db, ctx, actor, exam, 'GET studies/download-token');
    const { token, expires } = this.signer.sign(
      'download',
      { e: exam.id, u: null },
      new Date(this.clock.now().getTime() + DOWNLOAD_TTL_S * 1000),
    );
    return { token, expires, url: `/yyp/api/v1/studies/download?token=${encodeURIComponent(token)}` };
  }

  async download(token: string, ctx: AuditContext) {
    const payload = this.signer.verify('download', token, this.clock.now());
    if (!payload || typeof payload.e !== 'string') throw errors.notFound('Download');
    return this.studyPackage(null, payload.e, false, ctx);
  }

  /**
   * POST exams/study-packages: several studies as one DICOM media zip (one DICOMDIR), each exam
   * authorized as studyPackage authorizes one (study-packages.ts); answers a 10-minute link.
   */
  async studyPackagesLink(
    account: AccountRow,
    examIds: string[],
    language: Language | undefined,
    ctx: AuditContext,
  ): Promise<StudyPackagesLink> {
    const exams = await authorizeStudyPackages(this.db, account, examIds, ctx, (e) => this.sees(account.id, e));
    const { token, expires } = this.signer.sign(
      'media',
      { i: exams.map((e) => e.id), l: language ?? account.preferences.language ?? 'chs' },
      new Date(this.clock.now().getTime() + DOWNLOAD_TTL_S * 1000),
    );
    const url = `/yyp/api/v1/exams/study-packages/download?token=${encodeURIComponent(token)}`;
    return { token, expires, url, count: exams.length };
  }

  /** The media zip of a study-packages link, streamed as it is built; each exam audited as downloaded. */
  async studyPackagesDownload(token: string, ctx: AuditContext): Promise<{ stream: Readable; filename: string }> {
    const now = this.clock.now();
    const payload = this.signer.verify('media', token, now);
    const ids = payload?.i;
    const language = LANGUAGES.find((l) => l === payload?.l) ?? 'chs';
    if (!Array.isArray(ids) || !ids.every((id): id is string => typeof id === 'string')) {
      throw errors.notFound('Download');
    }
    const exams = [];
    for (const id of ids) exams.push(await this.exam(id));
    const root = `studies-${now.toISOString().slice(0, 10).replace(/-/g, '')}`;
    const stream = await mediaZip(this.blobs, await mediaFiles(this.db, ids), { root, language, now });
    for (const exam of exams) {
      await auditExam(this.db, ctx, null, 'exam.download', exam, {
        patientId: exam.patientId,
        details: { media: true, exams: exams.length },
      });
    }
    return { stream, filename: `${root}.zip` };
  }
}
