import crypto from 'node:crypto';
import {
  maskPatientName,
  type criticalValuePageBodySchema,
  type CriticalValue,
  type CriticalValueList,
  type CriticalValuePage,
  type CriticalValueStats,
  type CriticalValueStatsQuery,
  type HandleCriticalValueBody,
  type ReceiveCriticalValueBody,
  type ReportCriticalValueBody,
} from '@yyp/contracts';
import type { z } from 'zod';
import type { AccountRow } from '../../db/schema.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import { effectiveActions, examMasked, type BucketAction, type BucketFacts } from '../../platform/authz.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import { dictionaryItems, membersWithAccess } from '../exams/index.js';
import { examForNotification, examNotification } from '../notifications/index.js';
import { accountNames, type ReadOnlyGate } from '../reports/index.js';
import { actionsOf, auditReport, listScope, reportIdOf, type Actor } from './report-safety.access.js';
import {
  CRITICAL_FOLLOWERS,
  CRITICAL_READERS,
  CRITICAL_REPORTERS,
  criticalFollowRefusal,
  criticalReadRefusal,
  criticalReportRefusal,
  enforce,
  holdsAny,
  toldOfCriticalValue,
} from './report-safety.policy.js';
import { nextCriticalStatus, roundMinutes, statsPeriod, type CriticalValueAction } from './critical-values.rules.js';
import * as store from './critical-values.store.js';
import { presentCriticalValue } from './report-safety.presenter.js';

type PageInput = z.output<typeof criticalValuePageBodySchema>;

/**
 * Critical values (危急值, spec 000 §3 Report "critical value"; §5 text at most 255): a doctor
 * who may write or approve the report records one; the exam shows the critical flag on the study
 * list and the people who follow it up are notified, in the same transaction. The ordering side's
 * read-back (receiver, confirmor, opinion) and the handling close the loop; the flag stays up
 * until every critical value of the report is handled.
 */
export class CriticalValuesService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly gate: ReadOnlyGate,
  ) {}

  private async present(db: Db, row: store.CriticalValueRow): Promise<CriticalValue> {
    return presentCriticalValue(row, await accountNames(db, [row.reportedBy, row.handlerId]));
  }

  /**
   * POST reports/{id}/critical-value. Refused (409 ReportNotEditable) on a report that is read-only
   * here; the read-back and handling of those recorded before stay the organization's follow-up.
   */
  async report(actor: Actor, examId: string, body: ReportCriticalValueBody): Promise<CriticalValue> {
    enforce(criticalReportRefusal(actionsOf(actor)));
    const reportId = await reportIdOf(this.db, actor, examId);
    // Recording one is the report writers' act: not on the experts' report published back here.
    await this.gate.refuseReadOnly(reportId, actor.bucket.id);
    let level = body.level ?? '';
    if (body.itemId !== undefined) {
      const [item] = await dictionaryItems(this.db, actor.bucket.id, 'critical-values', [body.itemId]);
      if (!item) throw errors.notFound('Critical value item');
      if (!body.level && typeof item.data.level === 'string') level = item.data.level.slice(0, 32);
    }
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const exam = await store.lockReportExam(tx, reportId);
      if (!exam) throw errors.notFound('Report');
      const row = await store.insertCriticalValue(tx, {
        id: crypto.randomUUID(),
        reportId,
        bucketId: actor.bucket.id,
        itemId: body.itemId ?? null,
        text: body.text,
        level,
        status: 'sent',
        notifyDept: exam.applyDept,
        reportedBy: actor.account.id,
        sentAt: now,
      });
      await store.setCriticalFlag(tx, reportId, true, now);
      const notified = await this.notify(tx, actor, reportId, exam.assigneeId, now);
      await auditReport(tx, actor, 'critical_value.report', reportId, { criticalId: row.id, notified }, exam.patientId);
      return this.present(tx, row);
    });
  }

  /**
   * A critical_value notification to the exam's assignee and to the organization's members who
   * approve reports or keep the registry desk; the reporter is not told of its own report.
   */
  private async notify(tx: Db, actor: Actor, reportId: string, assigneeId: string | null, now: Date): Promise<number> {
    const people = await membersWithAccess(tx, [actor.bucket.id]);
    const recipients = people
      .filter((p) =>
        toldOfCriticalValue(p.id, actor.account.id, assigneeId, () =>
          effectiveActions(p.access, p.facts.get(actor.bucket.id) as BucketFacts),
        ),
      )
      .map((p) => p.id);
    if (recipients.length === 0) return 0;
    const exam = await examForNotification(tx, reportId);
    if (!exam) return 0;
    return store.notifyCriticalValue(tx, examNotification(exam, recipients), now);
  }

  /** GET reports/{id}/critical-values, newest first. */
  async list(actor: Actor, examId: string): Promise<CriticalValueList> {
    const actions = actionsOf(actor);
    enforce(criticalReadRefusal(actions));
    const reportId = await reportIdOf(this.db, actor, examId);
    const rows = await store.listCriticalValues(this.db, reportId);
    const names = await accountNames(
      this.db,
      rows.flatMap((r) => [r.reportedBy, r.handlerId]),
    );
    await auditReport(this.db, actor, 'critical_value.list', reportId, { count: rows.length });
    return {
      items: rows.map((r) => presentCriticalValue(r, names)),
      canReport: holdsAny(actions, CRITICAL_REPORTERS) && !(await this.gate.readOnly(reportId, actor.bucket.id)),
      canFollow: holdsAny(actions, CRITICAL_FOLLOWERS),
    };
  }

  /** POST …/critical-values/{criticalId}/receive: the read-back, only from sent. */
  receive(actor: Actor, examId: string, criticalId: string, body: ReceiveCriticalValueBody): Promise<CriticalValue> {
    return this.advance(actor, examId, criticalId, 'receive', (now) => ({
      receiver: body.receiver,
      confirmor: body.confirmor,
      readbackOpinion: body.readbackOpinion,
      receivedAt: now,
    }));
  }

  /** POST …/critical-values/{criticalId}/handle: the caller handled it, only after the read-back. */
  handle(actor: Actor, examId: string, criticalId: string, body: HandleCriticalValueBody): Promise<CriticalValue> {
    return this.advance(actor, examId, criticalId, 'handle', (now) => ({
      handlerId: actor.account.id,
      handledAt: now,
      handleNote: body.handleNote ?? '',
    }));
  }

  private async advance(
    actor: Actor,
    examId: string,
    criticalId: string,
    action: CriticalValueAction,
    change: (now: Date) => Parameters<typeof store.updateCriticalValue>[2],
  ): Promise<CriticalValue> {
    enforce(criticalFollowRefusal(actionsOf(actor)));
    const reportId = await reportIdOf(this.db, actor, examId);
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const exam = await store.lockReportExam(tx, reportId);
      const row = exam ? await store.findCriticalValue(tx, reportId, criticalId, true) : undefined;
      if (!exam || !row) throw errors.notFound('Critical value');
      const status = nextCriticalStatus(row.status, action);
      if (!status) {
        throw new AppError(
          'CriticalValueWrongStatus',
          `This critical value is ${row.status}; it cannot be ${action}d`,
          {
            status: row.status,
          },
        );
      }
      const updated = await store.updateCriticalValue(tx, row.id, { ...change(now), status });
      if (status === 'handled') {
        await store.setCriticalFlag(tx, reportId, await store.hasOpenCriticalValue(tx, reportId), now);
      }
      await auditReport(tx, actor, `critical_value.${action}`, reportId, { criticalId: row.id }, exam.patientId);
      return this.present(tx, updated);
    });
  }

  /**
   * POST critical-values/page-query: the critical values of every organization where the caller
   * reads reports or follows critical values up (the rights of GET reports/{id}/critical-values),
   * or of the one it names; patient names masked as the exam list masks them.
   */
  async page(account: AccountRow, body: PageInput, ctx: AuditContext): Promise<CriticalValuePage> {
    const { access, facts, held, page } = await listScope(this.db, account, CRITICAL_READERS, body.bucketId, body);
    const { rows, counts } = await store.criticalValuePage(this.db, { ...page, status: body.status });
    const names = await accountNames(
      this.db,
      rows.flatMap((r) => [r.value.reportedBy, r.value.handlerId]),
    );
    const data = rows.map((r) => {
      const actions = held.get(r.value.bucketId) ?? new Set<BucketAction>();
      const bucket = facts.find((b) => b.id === r.value.bucketId);
      const shown = actions.size > 0 && bucket !== undefined && !examMasked(access, bucket, r);
      return {
        ...presentCriticalValue(r.value, names),
        bucketName: r.bucketName,
        patientName: shown ? r.patientName : maskPatientName(r.patientName),
        patientGender: r.patientGender,
        modality: r.modality,
        bodyPart: r.bodyPart,
        studyDate: r.studyDate,
        canFollow: holdsAny(actions, CRITICAL_FOLLOWERS),
      };
    });
    await this.auditPage(account, rows, ctx);
    return {
      data,
      count: body.status ? counts[body.status] : counts.sent + counts.received + counts.handled,
      byStatus: counts,
    };
  }

  /** One PHI audit row per page that shows any value: the reports and their organizations. */
  private async auditPage(
    account: AccountRow,
    rows: { value: { reportId: string; bucketId: string } }[],
    ctx: AuditContext,
  ): Promise<void> {
    if (rows.length === 0) return;
    const bucketIds = [...new Set(rows.map((r) => r.value.bucketId))];
    await writeAudit(this.db, ctx, {
      action: 'critical_value.page',
      outcome: 'success',
      category: 'phi',
      actorId: account.id,
      actorUsername: account.username,
      targetType: 'report',
      ...(bucketIds.length === 1 ? { bucketId: bucketIds[0]! } : {}),
      details: { reportIds: [...new Set(rows.map((r) => r.value.reportId))], bucketIds },
    });
  }

  /** GET statistics/critical-value (critical_value_stats, checked by the route). */
  async stats(bucketId: string, query: CriticalValueStatsQuery): Promise<CriticalValueStats> {
    const period = statsPeriod(query.from, query.to);
    if (!period) {
      throw errors.validation('The period must end after it starts and span at most one year', { field: 'to' });
    }
    const row = await store.criticalValueStats(this.db, bucketId, period.from, period.to);
    return {
      bucketId,
      from: period.from.toISOString(),
      to: period.to.toISOString(),
      total: Number(row.total),
      byStatus: { sent: Number(row.sent), received: Number(row.received), handled: Number(row.handled) },
      medianMinutesToReceive: roundMinutes(row.toReceive),
      medianMinutesToHandle: roundMinutes(row.toHandle),
    };
  }
}
