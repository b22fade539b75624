import crypto from 'node:crypto';
import {
  PUBLISH_PAGE_DEFAULT,
  PUBLISH_PAGE_MAX,
  type PublishDetail,
  type PublishPage,
  type PublishPageQuery,
  type PublishRefusal,
  type PublishReportsRequest,
  type PublishResult,
  type ShareLinkCreated,
} from '@yyp/contracts';
import type { AccountRow } from '../../db/schema.js';
import { callerScope, findBucketsFacts } from '../../platform/access.js';
import { actorAudit, writeAudit, type AuditContext } from '../../platform/audit.js';
import { decide, effectiveActions, examMasked, type BucketFacts, type CallerAccess } from '../../platform/authz.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { errors } from '../../platform/errors.js';
import { shownPatient } from '../exams/index.js';
import { createdOut, hashLinkId, linkState, newLinkId, type ReportSharingService } from './report-sharing.service.js';
import { sharedState, type SharedReportBuilder } from './shared-report.js';
import * as store from './report-sharing.store.js';

const DAY_MS = 24 * 3600_000;
const ACTION = 'order_report_publish';

/**
 * Publishing approved reports (spec 001 §7 orders/publish-reports, spec 000 §2 /report-publish):
 * a publish link per report, for the patient; the organization's list of what it published.
 * Everything needs order_report_publish in the exam's organization.
 */
export class ReportPublishService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly builder: SharedReportBuilder,
    private readonly sharing: ReportSharingService,
  ) {}

  /** POST orders/publish-reports: a publish link per approved report, or why not, per exam asked. */
  async publish(
    account: AccountRow,
    body: Required<Omit<PublishReportsRequest, 'token'>>,
    ctx: AuditContext,
  ): Promise<PublishResult> {
    const { access } = await callerScope(this.db, account);
    const examIds = [...new Set(body.examIds)];
    const rows = new Map((await store.examsWithReports(this.db, examIds)).map((r) => [r.examId, r]));
    const facts = new Map(
      (await findBucketsFacts(this.db, [...new Set([...rows.values()].map((r) => r.bucketId))])).map((f) => [f.id, f]),
    );
    const refused = new Map<string, PublishRefusal>();
    const toPublish = new Map<string, string>(); // reportId → bucketId
    for (const id of examIds) {
      const row = rows.get(id);
      const decision = row ? decide(access, ACTION, facts.get(row.bucketId)) : 'notFound';
      if (decision !== 'allow') refused.set(id, decision === 'notFound' ? 'notFound' : 'forbidden');
      else if (!(store.APPROVED as readonly string[]).includes(row!.status ?? '')) refused.set(id, 'notApproved');
      else toPublish.set(row!.reportId, row!.bucketId);
    }
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + body.expiresInDays * DAY_MS);
    const links = new Map<string, ShareLinkCreated>();
    if (toPublish.size > 0) {
      await this.db.transaction(async (tx) => {
        for (const [reportId, bucketId] of toPublish) {
          // Checked again under the report row's lock: a recall between the two reads wins.
          const report = await store.lockReport(tx, reportId);
          if (!report || !(store.APPROVED as readonly string[]).includes(report.status)) continue;
          await store.revokeLivePublishLinks(tx, reportId, account.id, now);
          const linkId = newLinkId();
          const row = await store.insertLink(tx, {
            id: crypto.randomUUID(),
            tokenHash: hashLinkId(linkId),
            kind: 'publish',
            reportId,
            bucketId,
            reportVersion: report.version,
            allowImages: false,
            createdBy: account.id,
            createdAt: now,
            expiresAt,
          });
          links.set(reportId, createdOut(row, linkId));
          await writeAudit(
            tx,
            ctx,
            actorAudit(account, {
              action: 'report.publish',
              category: 'phi',
              targetType: 'report',
              targetId: reportId,
              bucketId,
              details: { shareId: row.id, expiresAt: expiresAt.toISOString() },
            }),
          );
        }
      });
    }
    const denied = [...refused].filter(([, r]) => r !== 'notApproved').map(([id]) => id);
    if (denied.length > 0) {
      await writeAudit(this.db, ctx, {
        action: 'report.publish',
        outcome: 'denied',
        category: 'security',
        actorId: account.id,
        actorUsername: account.username,
        details: { examIds: denied },
      });
    }
    return {
      results: examIds.map((examId) => {
        const row = rows.get(examId);
        const link = row && !refused.has(examId) ? links.get(row.reportId) : undefined;
        const reason = refused.get(examId) ?? (link ? null : 'notApproved');
        return {
          examId,
          ok: link !== undefined,
          // Another organization's exam says nothing about its report.
          reportId: row && reason !== 'notFound' ? row.reportId : null,
          link: link ?? null,
          reason: link ? null : reason,
        };
      }),
    };
  }

  /** The organizations the caller may publish in, or the one asked for (404/403 otherwise). */
  private async scope(account: AccountRow, bucketId: string | undefined, ctx: AuditContext) {
    const { access, facts } = await callerScope(this.db, account);
    if (bucketId === undefined) {
      return { access, buckets: facts.filter((f) => effectiveActions(access, f).has(ACTION)) };
    }
    const known = facts.find((f) => f.id === bucketId) ?? (await findBucketsFacts(this.db, [bucketId]))[0];
    await this.require(account, access, known, bucketId, ctx);
    return { access, buckets: [known!] };
  }

  /** The route-level check of a bucket route, for calls whose organization comes with the input. */
  private async require(
    account: AccountRow,
    access: CallerAccess,
    bucket: BucketFacts | undefined,
    bucketId: string,
    ctx: AuditContext,
  ): Promise<void> {
    const decision = decide(access, ACTION, bucket);
    if (decision === 'allow') return;
    await writeAudit(this.db, ctx, {
      action: 'permission.denied',
      outcome: 'denied',
      actorId: account.id,
      actorUsername: account.username,
      bucketId,
      details: { action: ACTION, decision },
    });
    throw decision === 'notFound' ? errors.notFound() : errors.forbidden(ACTION);
  }

  /** POST report-publish/page-query: the published reports, newest first. */
  async page(account: AccountRow, body: PublishPageQuery, ctx: AuditContext): Promise<PublishPage> {
    const { access, buckets } = await this.scope(account, body.bucketId, ctx);
    const skip = Math.max(0, Math.floor(body.skip ?? 0));
    const limit =
      body.limit && body.limit > 0 ? Math.min(Math.floor(body.limit), PUBLISH_PAGE_MAX) : PUBLISH_PAGE_DEFAULT;
    const now = this.clock.now();
    const { rows, count } = await store.publishPage(this.db, {
      bucketIds: buckets.map((b) => b.id),
      filters: body.filters ?? [],
      skip,
      limit,
      now,
    });
    const byId = new Map(buckets.map((b) => [b.id, b]));
    return {
      count,
      data: rows.map(({ link, exam, status, version, bucketName, publisherName, publisherUsername }) => {
        const bucket = byId.get(exam.bucketId);
        const masked = !bucket || examMasked(access, bucket, exam);
        return {
          id: link.id,
          examId: exam.id,
          reportId: link.reportId,
          bucketId: link.bucketId,
          bucketName,
          ...shownPatient(exam, masked),
          modality: exam.modality,
          bodyPart: exam.bodyPart,
          studyDate: exam.studyDate,
          accessionNumber: exam.accessionNumber,
          state: linkState(link, now),
          superseded: sharedState({ status, version }, link.reportVersion) !== 'current',
          publishedBy: publisherName || publisherUsername || '',
          publishedAt: link.createdAt.toISOString(),
          expiresAt: link.expiresAt.toISOString(),
          viewCount: link.viewCount,
          lastViewedAt: link.lastViewedAt?.toISOString() ?? null,
        };
      }),
    };
  }

  /** GET report-publish/detail: the report as its publish link shows it now, and its links. */
  async detail(account: AccountRow, examId: string, reportId: string, ctx: AuditContext): Promise<PublishDetail> {
    const target = await store.reportIdOfExam(this.db, examId);
    const { access, facts } = await callerScope(this.db, account);
    const bucket = target
      ? (facts.find((f) => f.id === target.bucketId) ?? (await findBucketsFacts(this.db, [target.bucketId]))[0])
      : undefined;
    await this.require(account, access, target ? bucket : undefined, target?.bucketId ?? '', ctx);
    if (!target || target.reportId !== reportId) throw errors.notFound('Report');
    const now = this.clock.now();
    const built = await this.builder.build({
      kind: 'publish',
      reportId,
      sharedVersion: (await store.livePublishVersion(this.db, reportId, now)) ?? null,
      masked: (exam) => examMasked(access, bucket!, exam),
      viewer: null,
      expiresAt: null,
    });
    if (!built) throw errors.notFound('Report');
    await writeAudit(
      this.db,
      ctx,
      actorAudit(account, {
        action: 'report.publish_detail',
        category: 'phi',
        targetType: 'report',
        targetId: reportId,
        bucketId: built.exam.bucketId,
        patientId: built.exam.patientId,
      }),
    );
    return { report: built.view, links: await this.sharing.linksOf(reportId) };
  }
}
