import crypto from 'node:crypto';
import {
  maskPatientName,
  type qualityPageBodySchema,
  type qualityUpsertSchema,
  type reportRatingBodySchema,
  type QualityPage,
  type ReportComment,
  type ReportCommentBody,
  type ReportComments,
  type ReportQuality,
  type ReportQualityAnswer,
  type ReportRating,
  type ReportRatings,
} from '@yyp/contracts';
import type { z } from 'zod';
import type { AccountRow } from '../../db/schema.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import { examMasked } from '../../platform/authz.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import { accountNames } from '../reports/index.js';
import { actionsOf, auditReport, listScope, reportIdOf, type Actor } from './report-safety.access.js';
import {
  commentDeleteRefusal,
  commentsRefusal,
  enforce,
  mayRate,
  QUALITY_REVIEWERS,
  qualityReadRefusal,
  qualityRights,
  reviewReadRefusal,
  reviewRefusal,
} from './report-safety.policy.js';
import { presentComment, presentQuality, presentRating } from './report-safety.presenter.js';
import * as store from './report-review.store.js';

type QualityInput = z.output<typeof qualityUpsertSchema>;
type RatingInput = z.output<typeof reportRatingBodySchema>;
type PageInput = z.output<typeof qualityPageBodySchema>;

/**
 * What reviewers say about a report (spec 000 §3 Report "Rating (cannot be changed once
 * submitted) and comment", "Quality: level, suggestion, creator, unsatisfactory items"; §6
 * quality_upsert, quality_delete). Ratings and grades are for approved or printed reports and
 * never by the report's own writer; comments need the group's allowReportComment.
 */
export class ReportReviewService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /* ---------- quality ---------- */

  /** GET reports/{id}/quality: its readers and the quality reviewers see the grade. */
  async quality(actor: Actor, examId: string): Promise<ReportQualityAnswer> {
    const actions = actionsOf(actor);
    enforce(qualityReadRefusal(actions));
    const reportId = await reportIdOf(this.db, actor, examId);
    const [row, report] = await Promise.all([
      store.findQuality(this.db, reportId),
      store.reportFacts(this.db, reportId),
    ]);
    await auditReport(this.db, actor, 'report_quality.read', reportId);
    return {
      quality: row ? presentQuality(row, await accountNames(this.db, [row.creatorId])) : null,
      ...qualityRights(report, actor.account.id, actions, !!row),
    };
  }

  /** POST reports/{id}/quality (quality_upsert, checked by the route): grade or re-grade. */
  async upsertQuality(actor: Actor, examId: string, body: QualityInput): Promise<ReportQuality> {
    const reportId = await reportIdOf(this.db, actor, examId);
    return this.db.transaction(async (tx) => {
      const report = await store.reportFacts(tx, reportId, true);
      enforce(reviewRefusal(report, actor.account.id, 'grade'));
      const row = await store.upsertQuality(
        tx,
        {
          reportId,
          bucketId: actor.bucket.id,
          level: body.level,
          suggestion: body.suggestion,
          unsatisfactoryItems: body.unsatisfactoryItems,
          creatorId: actor.account.id,
        },
        this.clock.now(),
      );
      await auditReport(tx, actor, 'report_quality.upsert', reportId, {
        level: body.level,
        items: body.unsatisfactoryItems.length,
      });
      return presentQuality(row, await accountNames(tx, [row.creatorId]));
    });
  }

  /** DELETE reports/{id}/quality (quality_delete, checked by the route). */
  async deleteQuality(actor: Actor, examId: string): Promise<void> {
    const reportId = await reportIdOf(this.db, actor, examId);
    await this.db.transaction(async (tx) => {
      if (!(await store.deleteQuality(tx, reportId))) throw errors.notFound('Report quality');
      await auditReport(tx, actor, 'report_quality.delete', reportId);
    });
  }

  /**
   * POST quality/page-query?bucketId: graded reports for review (by grade and grading time), of
   * the organization named or, without one, of every organization where the caller reviews
   * quality (issue 20 item 7: the list opens on all of them).
   */
  async qualityPage(
    account: AccountRow,
    bucketId: string | undefined,
    body: PageInput,
    ctx: AuditContext,
  ): Promise<QualityPage> {
    const { access, facts, page } = await listScope(this.db, account, QUALITY_REVIEWERS, bucketId, body);
    const { rows, count } = await store.qualityPage(this.db, { ...page, level: body.level });
    const names = await accountNames(
      this.db,
      rows.map((r) => r.quality.creatorId),
    );
    // One PHI audit row per organization whose reports the page shows.
    for (const shownBucket of new Set(rows.map((r) => r.quality.bucketId))) {
      await writeAudit(this.db, ctx, {
        action: 'report_quality.list',
        outcome: 'success',
        category: 'phi',
        actorId: account.id,
        actorUsername: account.username,
        bucketId: shownBucket,
        targetType: 'report',
        details: { reportIds: rows.filter((r) => r.quality.bucketId === shownBucket).map((r) => r.quality.reportId) },
      });
    }
    return {
      data: rows.map((r) => {
        const bucket = facts.find((b) => b.id === r.quality.bucketId);
        const masked = !bucket || examMasked(access, bucket, r);
        return {
          ...presentQuality(r.quality, names),
          bucketName: r.bucketName,
          patientName: masked ? maskPatientName(r.patientName) : r.patientName,
          modality: r.modality,
          bodyPart: r.bodyPart,
          studyDate: r.studyDate,
          reportStatus: r.reportStatus,
        };
      }),
      count,
    };
  }

  /* ---------- ratings ---------- */

  /** POST reports/{id}/rating: one per rater, never changed; a second answers 409. */
  async rate(actor: Actor, examId: string, body: RatingInput): Promise<ReportRating> {
    enforce(reviewReadRefusal(actionsOf(actor)));
    const reportId = await reportIdOf(this.db, actor, examId);
    return this.db.transaction(async (tx) => {
      const report = await store.reportFacts(tx, reportId, true);
      enforce(reviewRefusal(report, actor.account.id, 'rate'));
      const row = await store.insertRating(tx, {
        id: crypto.randomUUID(),
        reportId,
        bucketId: actor.bucket.id,
        raterId: actor.account.id,
        score: body.score,
        comment: body.comment,
        createdAt: this.clock.now(),
      });
      if (!row) {
        throw new AppError('RatingAlreadySubmitted', 'You already rated this report; a rating is never changed');
      }
      await auditReport(tx, actor, 'report_rating.create', reportId, { ratingId: row.id, score: row.score });
      return presentRating(row, await accountNames(tx, [row.raterId]), actor.account.id);
    });
  }

  /** GET reports/{id}/ratings, oldest first, with the mean score. */
  async ratings(actor: Actor, examId: string): Promise<ReportRatings> {
    enforce(reviewReadRefusal(actionsOf(actor)));
    const reportId = await reportIdOf(this.db, actor, examId);
    const [rows, report] = await Promise.all([
      store.listRatings(this.db, reportId),
      store.reportFacts(this.db, reportId),
    ]);
    const names = await accountNames(
      this.db,
      rows.map((r) => r.raterId),
    );
    await auditReport(this.db, actor, 'report_rating.list', reportId, { count: rows.length });
    const items = rows.map((r) => presentRating(r, names, actor.account.id));
    const average = items.length ? Math.round((items.reduce((s, r) => s + r.score, 0) / items.length) * 10) / 10 : null;
    return {
      items,
      average,
      canRate: mayRate(
        report,
        actor.account.id,
        items.some((r) => r.mine),
      ),
    };
  }

  /* ---------- comments ---------- */

  /** Comments exist only where the group allows them (report-safety.policy commentsRefusal). */
  private async assertComments(actor: Actor): Promise<void> {
    const settings = await store.groupSettings(this.db, actor.bucket.groupId);
    enforce(commentsRefusal(settings.allowReportComment));
  }

  /** GET reports/{id}/comments, oldest first. */
  async comments(actor: Actor, examId: string): Promise<ReportComments> {
    enforce(reviewReadRefusal(actionsOf(actor)));
    await this.assertComments(actor);
    const reportId = await reportIdOf(this.db, actor, examId);
    const rows = await store.listComments(this.db, reportId);
    const names = await accountNames(
      this.db,
      rows.map((r) => r.authorId),
    );
    await auditReport(this.db, actor, 'report_comment.list', reportId, { count: rows.length });
    return { items: rows.map((r) => presentComment(r, names, actor.account.id)) };
  }

  /** POST reports/{id}/comment */
  async comment(actor: Actor, examId: string, body: ReportCommentBody): Promise<ReportComment> {
    enforce(reviewReadRefusal(actionsOf(actor)));
    await this.assertComments(actor);
    const reportId = await reportIdOf(this.db, actor, examId);
    return this.db.transaction(async (tx) => {
      const row = await store.insertComment(tx, {
        id: crypto.randomUUID(),
        reportId,
        bucketId: actor.bucket.id,
        authorId: actor.account.id,
        text: body.text,
        createdAt: this.clock.now(),
      });
      await auditReport(tx, actor, 'report_comment.create', reportId, { commentId: row.id });
      return presentComment(row, await accountNames(tx, [row.authorId]), actor.account.id);
    });
  }

  /**
   * DELETE reports/{id}/comments/{commentId}: its author only. Allowed even after the group turned
   * comments off, so a writer can always take back what it said.
   */
  async deleteComment(actor: Actor, examId: string, commentId: string): Promise<void> {
    enforce(reviewReadRefusal(actionsOf(actor)));
    const reportId = await reportIdOf(this.db, actor, examId);
    await this.db.transaction(async (tx) => {
      const row = await store.findComment(tx, reportId, commentId);
      if (!row) throw errors.notFound('Comment');
      enforce(commentDeleteRefusal(row.authorId, actor.account.id));
      await store.deleteComment(tx, row.id, this.clock.now());
      await auditReport(tx, actor, 'report_comment.delete', reportId, { commentId: row.id });
    });
  }
}
