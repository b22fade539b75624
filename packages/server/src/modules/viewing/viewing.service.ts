import {
  privateFieldsMasked,
  type PrivacyContext,
  type ReportImage,
  type ViewerContext,
  type ViewerPrior,
} from '@yyp/contracts';
import type { AccountRow, ExamRow } from '../../db/schema.js';
import { findBucketsFacts, loadCallerAccess, scopeFromColumns } from '../../platform/access.js';
import type { AuditContext } from '../../platform/audit.js';
import { effectiveActions, privacyOf, type BucketAction } from '../../platform/authz.js';
import type { BlobStore } from '../../platform/blobs.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import type { Signer } from '../../platform/signed.js';
import type { DicomWebService } from '../dicomweb/index.js';
import { auditExam, shownPatient, type ExamListService } from '../exams/index.js';
import { maskMetadata } from './mask.js';
import { ReportImages } from './report-images.js';
import { ViewerObjects } from './viewer-objects.service.js';
import { examById, seriesOfExam, viewerAccount } from './viewing.store.js';

/** What a verified viewer path grants: one study, read-only for share paths. */
export interface ViewerGrant {
  kind: 'viewer' | 'share';
  examId: string;
  bucketId: string;
  studyUid: string;
  /** the issuing account (a viewer path acts for it; a share path shows nothing private) */
  accountId: string | null;
  reportId: string | null;
  /** seconds since the epoch */
  expires: number;
}

/**
 * The viewer's calls (/viewer/{openpath}): every one is authorized by the signed path alone, sent
 * in a header. A viewer path acts for the account that opened it, re-checked at each call (a
 * disabled account or a lost right closes the viewer); a share path reaches its one study,
 * read-only and masked, until it expires.
 */
export class ViewingService {
  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
    private readonly signer: Signer,
    private readonly web: DicomWebService,
    private readonly list: ExamListService,
  ) {
    this.keyImages = new ReportImages(db, blobs);
    this.objects = new ViewerObjects(db, blobs, clock, signer, this);
  }

  /** The study's SR documents, encapsulated PDFs, key object selections (viewer-objects.service.ts). */
  readonly objects: ViewerObjects;

  /** The reports' key images (the viewer captures into them; the editor adds, orders and describes). */
  readonly keyImages: ReportImages;

  /** The grant of a viewer or share path; a missing, forged or expired one is a 401. */
  verify(token: string | undefined): ViewerGrant {
    if (!token) throw errors.unauthenticated();
    const now = this.clock.now();
    for (const kind of ['viewer', 'share'] as const) {
      const p = this.signer.verify(kind, token, now);
      if (!p) continue;
      if (typeof p.e !== 'string' || typeof p.b !== 'string' || typeof p.s !== 'string') break;
      return {
        kind,
        examId: p.e,
        bucketId: p.b,
        studyUid: p.s,
        accountId: typeof p.u === 'string' ? p.u : null,
        reportId: typeof p.r === 'string' ? p.r : null,
        expires: p.x,
      };
    }
    throw new AppError('LinkInvalid', 'The viewer link is invalid or has expired');
  }

  /** The actions the grant's account holds in the study's organization (none for share paths). */
  private async held(grant: ViewerGrant): Promise<{
    account: AccountRow | null;
    actions: Set<BucketAction>;
    privacy: PrivacyContext | null;
  }> {
    if (grant.kind === 'share' || !grant.accountId) return { account: null, actions: new Set(), privacy: null };
    const account = await viewerAccount(this.db, grant.accountId);
    if (!account || account.disabled !== 0) throw errors.accountDisabled();
    const access = await loadCallerAccess(this.db, account.id);
    const [facts] = await findBucketsFacts(this.db, [grant.bucketId]);
    const actions = facts && access.memberships.has(grant.bucketId) ? effectiveActions(access, facts) : new Set();
    if (!facts || !actions.has('exam_get')) throw errors.forbidden('exam_get');
    return { account, actions: actions as Set<BucketAction>, privacy: privacyOf(access, facts) };
  }

  /** The live exam the grant names, still in its organization and with its study. */
  private async exam(grant: ViewerGrant): Promise<ExamRow> {
    const exam = await examById(this.db, grant.examId);
    if (!exam || exam.deletedTime || exam.bucketId !== grant.bucketId || exam.storeUid !== grant.studyUid) {
      throw errors.notFound('Exam');
    }
    return exam;
  }

  /** Authorizes a call: the grant, its account's rights, and the exam. */
  async open(token: string | undefined) {
    return this.openGrant(this.verify(token));
  }

  /** open() for a grant already verified (a document link carries its viewer path's grant). */
  async openGrant(grant: ViewerGrant) {
    const { account, actions, privacy } = await this.held(grant);
    const exam = await this.exam(grant);
    // A share path has no caller and stays masked; a viewer path masks as the list does.
    const masked = privacy === null || privateFieldsMasked(privacy, exam);
    return { grant, account, actions, exam, masked };
  }

  /** GET viewer/context */
  async context(token: string | undefined, ctx: AuditContext): Promise<ViewerContext> {
    const { grant, account, actions, exam, masked } = await this.open(token);
    const rows = await seriesOfExam(this.db, exam.id);
    await auditExam(this.db, ctx, account ?? null, 'exam.view_images', exam, {
      patientId: exam.patientId,
      details: { share: grant.kind === 'share', masked },
    });
    return {
      kind: grant.kind,
      examId: exam.id,
      bucketId: exam.bucketId,
      studyUid: exam.storeUid,
      masked,
      ...shownPatient(exam, masked),
      studyDate: exam.studyDate,
      studyDescription: exam.studyDesc,
      modality: exam.modality,
      bodyPart: exam.bodyPart,
      institution: exam.institution,
      series: rows.map((s) => ({
        seriesUid: s.seriesUid,
        seriesNumber: s.seriesNumber,
        modality: s.modality,
        description: s.description,
        instanceCount: s.instanceCount,
      })),
      reportId: grant.reportId,
      canCapture:
        grant.kind === 'viewer' &&
        grant.reportId !== null &&
        actions.has('report_upsert') &&
        (await this.keyImages.writable(grant.reportId, exam.bucketId)),
      canCompare: grant.kind === 'viewer',
      expires: grant.expires,
    };
  }

  /** WADO-RS metadata of the grant's study (or one series), masked as the context is. */
  async metadata(token: string | undefined, root: string, studyUid: string, seriesUid?: string) {
    const { grant, masked, exam } = await this.open(token);
    if (studyUid !== grant.studyUid) throw errors.notFound('Study');
    const json = await this.web.metadataIn(
      [grant.bucketId],
      (instancePath, tagPath) => `${root}${instancePath}/bulkdata/${tagPath}`,
      studyUid,
      seriesUid,
    );
    return masked ? json.map((j) => maskMetadata(j, exam.patientName)) : json;
  }

  /**
   * Frames of an instance of the grant's study. The checks of open() (the account live and holding
   * exam_get in the organization, the exam live with its study) and the instance's file are one
   * prepared look-up (issue 20 item 16: a viewer asks for every slice of a series at once).
   */
  async frames(token: string | undefined, studyUid: string, seriesUid: string, sopUid: string, numbers: number[]) {
    const grant = this.verify(token);
    if (studyUid !== grant.studyUid) throw errors.notFound('Study');
    const x = { examId: grant.examId, bucketId: grant.bucketId, studyUid, seriesUid, sopUid };
    let file: { blobKey: string; size: number } | undefined;
    if (grant.kind === 'share' || !grant.accountId) {
      file = await this.web.examInstanceFile(x);
    } else {
      const row = await this.web.viewerFrameFile(grant.accountId, x);
      if (!row || row.disabled !== 0) throw errors.accountDisabled();
      const { access, facts } = scopeFromColumns(grant.accountId, row);
      const bucket = facts.find((b) => b.id === grant.bucketId);
      if (!bucket || !effectiveActions(access, bucket).has('exam_get')) throw errors.forbidden('exam_get');
      if (row.blobKey !== null && row.size !== null) file = { blobKey: row.blobKey, size: row.size };
    }
    if (!file) throw errors.notFound('Instance');
    return this.web.readFrames(file, numbers);
  }

  async bulkData(token: string | undefined, studyUid: string, seriesUid: string, sopUid: string, tag: string) {
    const { grant, masked } = await this.open(token);
    if (studyUid !== grant.studyUid) throw errors.notFound('Study');
    // A masked context is refused the raw values of the fields its metadata masks.
    return this.web.bulkDataIn([grant.bucketId], studyUid, seriesUid, sopUid, tag, () => masked);
  }

  /** A viewer path's account, or 403 for a share path (read-only, one study). */
  private viewerOnly(grant: ViewerGrant, account: AccountRow | null): AccountRow {
    if (grant.kind !== 'viewer' || !account) throw errors.forbidden();
    return account;
  }

  /** GET viewer/priors: the patient's other exams with images, as exams/{id}/past lists them. */
  async priors(token: string | undefined, ctx: AuditContext): Promise<ViewerPrior[]> {
    const { grant, account } = await this.open(token);
    const actor = this.viewerOnly(grant, account);
    const [facts] = await findBucketsFacts(this.db, [grant.bucketId]);
    if (!facts) throw errors.notFound('Exam');
    const page = await this.list.past(actor, facts, grant.examId, {}, ctx);
    return page.exams
      .filter((e) => e.hasImage)
      .map((e) => ({
        examId: e.id,
        studyUid: e.storeUid,
        studyDate: e.studyDate,
        modality: e.modality,
        bodyPart: e.bodyPart,
        studyDescription: e.studyDesc,
      }));
  }

  /** POST viewer/priors/{examId}: a viewer path for one of those priors, expiring with this one. */
  async priorPath(token: string | undefined, examId: string, ctx: AuditContext) {
    const { grant, account } = await this.open(token);
    const actor = this.viewerOnly(grant, account);
    const prior = (await this.priors(token, ctx)).find((p) => p.examId === examId);
    if (!prior) throw errors.notFound('Exam');
    const row = await examById(this.db, examId);
    if (!row) throw errors.notFound('Exam');
    const { token: openpath, expires } = this.signer.sign(
      'viewer',
      { e: row.id, b: row.bucketId, s: row.storeUid, u: actor.id, r: null },
      new Date(grant.expires * 1000),
    );
    return { openpath, rsuid: row.storeUid, expires };
  }

  /** POST viewer/key-images: a captured image into the viewer's report, at most KEY_IMAGE_MAX_COUNT. */
  async addKeyImage(token: string | undefined, bytes: Buffer, desc: string, ctx: AuditContext): Promise<ReportImage> {
    const { grant, account, actions, exam } = await this.open(token);
    const actor = this.viewerOnly(grant, account);
    if (!grant.reportId || !actions.has('report_upsert')) throw errors.forbidden('report_upsert');
    // A report's id is its primary exam's id: the viewer's report is the opened exam's.
    if (grant.reportId !== exam.id) throw errors.notFound('Report');
    return this.keyImages.storeImage(exam, actor, bytes, desc, ctx);
  }
}
