import crypto from 'node:crypto';
import {
  SHARE_LINK_BYTES,
  SHARE_LINK_ID_PATTERN,
  shareReportUrl,
  type PublishedCoExam,
  type PublishedPastExam,
  type SharedReport,
  type ShareLink,
  type ShareLinkCreated,
  type ShareReportRequest,
} from '@yyp/contracts';
import type { AccountRow } from '../../db/schema.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import { effectiveActions } from '../../platform/authz.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import { auditReport, type Actor } from '../reports/index.js';
import { sharedState, type SharedReportBuilder } from './shared-report.js';
import * as store from './report-sharing.store.js';

const DAY_MS = 24 * 3600_000;
/** A viewer share path from a link lives a day at most (a new one comes with every view). */
const VIEWER_PATH_MS = DAY_MS;

export const hashLinkId = (linkId: string): string => crypto.createHash('sha256').update(linkId).digest('hex');

/** One answer for an unknown, malformed, expired or revoked link: nothing tells them apart. */
export const linkInvalid = () => new AppError('LinkInvalid', 'The link is invalid or has expired');

export function linkState(link: store.ShareLinkRow, now: Date): ShareLink['state'] {
  if (link.revokedAt) return 'revoked';
  return link.expiresAt.getTime() <= now.getTime() ? 'expired' : 'live';
}

/** A new link id (the credential) and its row id. */
export function newLinkId(): string {
  return crypto.randomBytes(SHARE_LINK_BYTES).toString('base64url');
}

export function createdOut(row: store.ShareLinkRow, linkId: string): ShareLinkCreated {
  return {
    id: row.id,
    kind: row.kind as ShareLinkCreated['kind'],
    linkId,
    url: shareReportUrl(linkId),
    expiresAt: row.expiresAt.toISOString(),
    allowImages: row.allowImages,
  };
}

/**
 * Share links of approved reports (spec 000 §3 share link, §6 "anonymous visitors may open shared
 * reports by link"): made by a doctor who may print the report (sharing hands the approved report
 * out, as printing does), opened by anyone holding the link until it expires or is revoked.
 */
export class ReportSharingService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly builder: SharedReportBuilder,
  ) {}

  /** The report of an exam in the caller's (route-authorized) organization, and exam_get. */
  private async reportOf(actor: Actor, examId: string): Promise<string> {
    if (!effectiveActions(actor.access, actor.bucket).has('exam_get')) throw errors.forbidden('exam_get');
    const target = await store.reportIdOfExam(this.db, examId);
    if (!target || target.bucketId !== actor.bucket.id) throw errors.notFound('Report');
    return target.reportId;
  }

  /** POST reports/{id}/share: a link to the approved report, answered once. */
  async create(actor: Actor, examId: string, body: Required<ShareReportRequest>): Promise<ShareLinkCreated> {
    const reportId = await this.reportOf(actor, examId);
    if (body.allowImages && !effectiveActions(actor.access, actor.bucket).has('study_package')) {
      throw errors.forbidden('study_package');
    }
    const now = this.clock.now();
    const linkId = newLinkId();
    const row = await this.db.transaction(async (tx) => {
      // The report row's lock: the version recorded is the approved one, not one a recall is writing.
      const report = await store.lockReport(tx, reportId);
      if (!report || !(store.APPROVED as readonly string[]).includes(report.status)) {
        throw errors.conflict('Only an approved report can be shared');
      }
      const inserted = await store.insertLink(tx, {
        id: crypto.randomUUID(),
        tokenHash: hashLinkId(linkId),
        kind: 'share',
        reportId,
        bucketId: actor.bucket.id,
        reportVersion: report.version,
        allowImages: body.allowImages,
        createdBy: actor.account.id,
        createdAt: now,
        expiresAt: new Date(now.getTime() + body.expiresInDays * DAY_MS),
      });
      await auditReport(tx, actor, 'report.share', reportId, {
        shareId: inserted.id,
        expiresAt: inserted.expiresAt.toISOString(),
        allowImages: body.allowImages,
      });
      return inserted;
    });
    return createdOut(row, linkId);
  }

  /** GET reports/{id}/shares: the report's share and publish links, never their ids. */
  async list(actor: Actor, examId: string): Promise<{ links: ShareLink[] }> {
    const reportId = await this.reportOf(actor, examId);
    return { links: await this.linksOf(reportId) };
  }

  async linksOf(reportId: string): Promise<ShareLink[]> {
    const now = this.clock.now();
    const [rows, report] = await Promise.all([
      store.linksOfReport(this.db, reportId),
      store.reportWithExam(this.db, reportId),
    ]);
    return rows.map(({ link, creatorName, creatorUsername }) => ({
      id: link.id,
      kind: link.kind as ShareLink['kind'],
      state: linkState(link, now),
      superseded: !report || sharedState(report.report, link.reportVersion) !== 'current',
      reportVersion: link.reportVersion,
      allowImages: link.allowImages,
      createdBy: link.createdBy ? { id: link.createdBy, name: creatorName || creatorUsername || '' } : null,
      createdAt: link.createdAt.toISOString(),
      expiresAt: link.expiresAt.toISOString(),
      revokedAt: link.revokedAt?.toISOString() ?? null,
      viewCount: link.viewCount,
      lastViewedAt: link.lastViewedAt?.toISOString() ?? null,
    }));
  }

  /** POST reports/{id}/shares/{shareId}/revoke: the link stops working at once. */
  async revoke(actor: Actor, examId: string, shareId: string): Promise<ShareLink> {
    const reportId = await this.reportOf(actor, examId);
    const row = await store.revokeLink(this.db, reportId, shareId, actor.account.id, this.clock.now());
    if (!row) throw errors.notFound('Share link');
    await auditReport(this.db, actor, 'report.share_revoke', reportId, { shareId, kind: row.kind });
    return (await this.linksOf(reportId)).find((l) => l.id === shareId)!;
  }

  /** The live link a visitor holds, or null (unknown, malformed, expired, revoked). */
  private async liveLink(linkId: string | undefined, ctx: AuditContext | null): Promise<store.ShareLinkRow | null> {
    if (!linkId || !SHARE_LINK_ID_PATTERN.test(linkId)) return null;
    const row = await store.linkByHash(this.db, hashLinkId(linkId));
    if (!row) return null;
    if (linkState(row, this.clock.now()) !== 'live') {
      // A real link used after its end: worth a row (a guessed id is not: it matches nothing).
      if (ctx) {
        await writeAudit(this.db, ctx, {
          action: 'report.share_view',
          outcome: 'denied',
          category: 'phi',
          targetType: 'report',
          targetId: row.reportId,
          bucketId: row.bucketId,
          details: { shareId: row.id, kind: row.kind, state: linkState(row, this.clock.now()) },
        });
      }
      return null;
    }
    return row;
  }

  /**
   * GET share/report: the report as the link shows it. `examId` may name an exam written in the
   * same report, or (publish links) one of the patient's other published reports that
   * publishers/find-past-exams lists.
   */
  async view(
    linkId: string | undefined,
    examId: string | undefined,
    caller: AccountRow | null,
    ctx: AuditContext,
  ): Promise<SharedReport> {
    const link = await this.liveLink(linkId, ctx);
    if (!link) throw linkInvalid();
    let reportId = link.reportId;
    let sharedVersion: number | null = link.reportVersion;
    if (examId && examId !== link.reportId) {
      const target = await store.reportIdOfExam(this.db, examId);
      if (!target || target.bucketId !== link.bucketId) throw linkInvalid();
      if (target.reportId !== link.reportId) {
        const past = link.kind === 'publish' ? await this.pastOf(link) : [];
        if (!past.some((p) => p.reportId === target.reportId)) throw linkInvalid();
        reportId = target.reportId;
        sharedVersion = (await store.livePublishVersion(this.db, reportId, this.clock.now())) ?? null;
        if (sharedVersion === null) throw linkInvalid();
      }
    }
    const now = this.clock.now();
    const built = await this.builder.build({
      kind: link.kind as 'share' | 'publish',
      reportId,
      sharedVersion,
      masked: true,
      viewer: link.allowImages
        ? {
            accountId: link.createdBy,
            until: new Date(Math.min(link.expiresAt.getTime(), now.getTime() + VIEWER_PATH_MS)),
          }
        : null,
      expiresAt: link.expiresAt,
    });
    if (!built) throw linkInvalid();
    await store.countView(this.db, link.id, now);
    await writeAudit(this.db, ctx, {
      action: 'report.share_view',
      outcome: 'success',
      category: 'phi',
      actorId: caller?.id ?? null,
      actorUsername: caller?.username ?? null,
      targetType: 'report',
      targetId: reportId,
      bucketId: built.exam.bucketId,
      patientId: built.exam.patientId,
      details: { shareId: link.id, kind: link.kind, state: built.view.state, images: built.view.viewerPath !== null },
    });
    return built.view;
  }

  /** The link, when it is live and the exam is written in its report, and that report is approved. */
  private async linkForExam(examId: string | undefined, linkId: string | undefined) {
    if (!examId) return null;
    const link = await this.liveLink(linkId, null);
    if (!link) return null;
    const target = await store.reportIdOfExam(this.db, examId);
    if (!target || target.reportId !== link.reportId) return null;
    const row = await store.reportWithExam(this.db, link.reportId);
    if (!row || sharedState(row.report, link.reportVersion) === 'withdrawn') return null;
    return { link, row };
  }

  private async pastOf(link: store.ShareLinkRow) {
    const row = await store.reportWithExam(this.db, link.reportId);
    if (!row) return [];
    return store.publishedPast(this.db, {
      bucketId: link.bucketId,
      patientId: row.exam.patientId,
      excludeReportId: link.reportId,
      now: this.clock.now(),
    });
  }

  /** GET publishers/find-co-exams: the other exams written in the linked report; [] on any failure. */
  async coExams(examId: string | undefined, linkId: string | undefined, ctx: AuditContext): Promise<PublishedCoExam[]> {
    const found = await this.linkForExam(examId, linkId);
    if (!found) return [];
    const rows = (await store.examsOfReport(this.db, found.link.reportId)).filter((e) => e.examId !== examId);
    await this.auditList('report.share_co_exams', found.link, found.row.exam, rows.length, ctx);
    return rows;
  }

  /**
   * GET publishers/find-past-exams: for a publish link, the patient's other reports of the
   * organization that are published now; a doctor's share link reaches its one report only.
   */
  async pastExams(
    examId: string | undefined,
    linkId: string | undefined,
    ctx: AuditContext,
  ): Promise<PublishedPastExam[]> {
    const found = await this.linkForExam(examId, linkId);
    if (!found || found.link.kind !== 'publish') return [];
    const rows = await this.pastOf(found.link);
    await this.auditList('report.share_past_exams', found.link, found.row.exam, rows.length, ctx);
    return rows.map((r) => ({
      examId: r.examId,
      reportId: r.reportId,
      modality: r.modality,
      bodyPart: r.bodyPart,
      studyDate: r.studyDate,
      studyDescription: r.studyDescription,
      approvedAt: r.approvedAt?.toISOString() ?? null,
    }));
  }

  private auditList(
    action: string,
    link: store.ShareLinkRow,
    exam: store.ExamRow,
    count: number,
    ctx: AuditContext,
  ): Promise<void> {
    return writeAudit(this.db, ctx, {
      action,
      outcome: 'success',
      category: 'phi',
      targetType: 'report',
      targetId: link.reportId,
      bucketId: link.bucketId,
      patientId: exam.patientId,
      details: { shareId: link.id, count },
    });
  }
}
