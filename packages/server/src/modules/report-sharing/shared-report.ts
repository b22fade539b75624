import { maskPatientName, type SharedReport, type SharedReportState, type ViewerPath } from '@yyp/contracts';
import type { ReportRow } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';
import type { Signer } from '../../platform/signed.js';
import { examAge } from '../exams/index.js';
import { accountNames } from '../reports/index.js';
import type { ViewingService } from '../viewing/index.js';
import { APPROVED, reportWithExam, type ExamRow } from './report-sharing.store.js';

/**
 * What a link (or a hospital system's signed entry) shows of a report: the one presenter of
 * share/report, web-report and report-publish/detail, so no page shows more than another.
 */

/** A link pins the version it was made at; what it shows depends on the report now. */
export function sharedState(
  report: { status: string; version: number },
  sharedVersion: number | null,
): SharedReportState {
  if (!(APPROVED as readonly string[]).includes(report.status)) return 'withdrawn';
  if (sharedVersion !== null && sharedVersion !== report.version) return 'updated';
  return 'current';
}

const HINTS: Record<SharedReportState, string> = {
  current: '',
  updated:
    'This report was corrected and approved again after the link was made; this is the current approved version.',
  withdrawn:
    'This report was withdrawn for correction after the link was made; its content shows again once it is approved.',
};

export interface BuildOptions {
  kind: SharedReport['kind'];
  reportId: string;
  /** the version the link was made at (null: whatever is approved now) */
  sharedVersion: number | null;
  /** patient name masked (maskPatientName), or a rule on the exam */
  masked: boolean | ((exam: ExamRow) => boolean);
  showExtra?: boolean;
  /** a read-only viewer share path for the report's study, until this time */
  viewer: { accountId: string | null; until: Date } | null;
  expiresAt: Date | null;
}

export interface Built {
  view: SharedReport;
  exam: ExamRow;
  report: ReportRow;
}

export class SharedReportBuilder {
  constructor(
    private readonly db: Db,
    private readonly signer: Signer,
    private readonly viewing: ViewingService,
  ) {}

  /** The view of a live report; undefined when its exam is gone. */
  async build(opts: BuildOptions): Promise<Built | undefined> {
    const row = await reportWithExam(this.db, opts.reportId);
    if (!row) return undefined;
    const { report, exam } = row;
    const state = sharedState(report, opts.sharedVersion);
    const shown = state !== 'withdrawn';
    const masked = typeof opts.masked === 'function' ? opts.masked(exam) : opts.masked;
    const [names, images] = await Promise.all([
      accountNames(this.db, [report.creatorId, report.approverId]),
      shown ? this.viewing.keyImages.images(report.id) : Promise.resolve({ images: [] }),
    ]);
    const view: SharedReport = {
      kind: opts.kind,
      state,
      superseded: state !== 'current',
      hint: HINTS[state],
      supersededAt:
        state === 'withdrawn'
          ? report.updatedAt.toISOString()
          : state === 'updated'
            ? (report.approvedAt?.toISOString() ?? null)
            : null,
      examId: exam.id,
      reportId: report.id,
      // The print template's hospital name when the organization set one, else group and department.
      organizationName: row.hospitalName || [row.groupName, row.bucketName].filter(Boolean).join(' '),
      patientName: masked ? maskPatientName(exam.patientName) : exam.patientName,
      patientSex: exam.patientGender,
      patientAge: examAge(exam.patientDob, exam.studyDate, exam.created) ?? '',
      exam: {
        modality: exam.modality,
        bodyPart: exam.bodyPart,
        studyDate: exam.studyDate,
        studyDescription: exam.studyDesc,
        accessionNumber: exam.accessionNumber,
        extra: opts.showExtra
          ? {
              applyDept: exam.applyDept,
              clinicImpression: exam.clinicImpression,
              physician: exam.physician,
              patientSource: exam.patientSource,
            }
          : null,
      },
      report: shown
        ? {
            findings: report.content.findings,
            conclusion: report.content.conclusion,
            reporter: report.creatorId ? (names.get(report.creatorId) ?? '') : '',
            approver: report.approverId ? (names.get(report.approverId) ?? '') : '',
            approvedAt: report.approvedAt?.toISOString() ?? null,
            version: report.version,
          }
        : null,
      images: images.images
        .filter((i) => i.isPrinted)
        .map((i) => ({ id: i.id, url: i.url, desc: i.desc, index: i.index })),
      viewerPath: shown && opts.viewer && exam.hasImage ? this.sharePath(exam, report.id, opts.viewer) : null,
      expiresAt: opts.expiresAt?.toISOString() ?? null,
    };
    return { view, exam, report };
  }

  /**
   * A read-only viewer share path, in the token format ViewingService.verify reads (the one
   * viewers/{id}/share-path issues), expiring with the link or sooner.
   */
  private sharePath(exam: ExamRow, reportId: string, viewer: { accountId: string | null; until: Date }): ViewerPath {
    const { token, expires } = this.signer.sign(
      'share',
      { e: exam.id, b: exam.bucketId, s: exam.storeUid, u: viewer.accountId, r: reportId },
      viewer.until,
    );
    return {
      openpath: token,
      rsuid: exam.storeUid,
      expires,
      url: `/viewer/${token}?rsuid=${encodeURIComponent(exam.storeUid)}`,
    };
  }
}
