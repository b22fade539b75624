import crypto from 'node:crypto';
import {
  CONTENT_ACTIONS,
  EMPTY_REPORT_CONTENT,
  isEditable,
  RELEASING_ACTIONS,
  STATE_ONLY_ACTIONS,
  type Report,
  type ReportAction,
  type ReportActionBody,
  type ReportContent,
  type ReportState,
  type TraceAction,
} from '@yyp/contracts';
import type { ReportRow } from '../../db/schema.js';
import { auditReport } from './report-actor.js';
import { effectiveActions } from '../../platform/authz.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import {
  dictionaryItems,
  type ExtensionConfig,
  extensionProblems,
  membersWithAccess,
  missingRequired,
} from '../exams/index.js';
import { ReportHooks } from './report-hooks.js';
import { lockAfterAction, ReportLockService } from './report-lock.service.js';
import {
  allowedActions,
  applyAction,
  APPROVED_STATUSES,
  isProblem,
  type ActorFacts,
  type ReportFacts,
} from './report-machine.js';
import {
  actionRefusal,
  expertsRefusal,
  forceUnlockRefusal,
  imageEditRefusal,
  mayAdvise,
  readRefusal,
  resetRefusal,
  TRACE_ACTION,
  type Actor,
} from './reports.policy.js';
import { presentReport, stateOf } from './reports.presenter.js';
import * as store from './reports.store.js';

export type { Actor };

/** The organization's report extension fields (extension-configs of scope report, spec 000 §2 "report extensions"). */
function checkExtensions(configs: ExtensionConfig[], content: ReportContent, releasing: boolean): void {
  const problems = extensionProblems(configs, content.extensions);
  const missing = releasing ? missingRequired(configs, content.extensions) : [];
  if (Object.keys(problems).length > 0 || missing.length > 0) {
    throw errors.validation('Some report extension values do not fit the organization’s report extensions', {
      extensions: problems,
      required: missing,
    });
  }
}

/**
 * The report lifecycle (spec 000 §4, issue "Reporting workstation"): every write runs in one
 * transaction holding the report row's lock (report-lock.service.ts), asks the policy
 * (reports.policy.ts) and the pure machine first, refuses a save based on an old version, and
 * writes its trace step with it.
 */
export class ReportsService {
  private readonly locks: ReportLockService;
  /** other modules' listeners and read-only checks (report-hooks.ts) */
  readonly hooks = new ReportHooks();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    lockSeconds: number,
  ) {
    this.locks = new ReportLockService(db, clock, lockSeconds);
  }

  /* ---------- reading ---------- */

  private actorFacts(actor: Actor): ActorFacts {
    return { id: actor.account.id, actions: effectiveActions(actor.access, actor.bucket) };
  }

  /** The caller may read the organization's reports (reports.policy readRefusal). */
  assertRead(actor: Actor): void {
    const refusal = readRefusal(effectiveActions(actor.access, actor.bucket));
    if (refusal) throw refusal;
  }

  /** The report id of an exam of the caller's (route-authorized) bucket: its primary exam's id. */
  async reportIdOf(actor: Actor, examId: string): Promise<string> {
    const reportId = await store.reportOfExam(this.db, examId, actor.bucket.id);
    if (!reportId) throw errors.notFound('Report');
    return reportId;
  }

  private async present(actor: Actor, reportId: string, row: ReportRow | undefined): Promise<Report> {
    const facts = this.locks.facts(row);
    const actions = effectiveActions(actor.access, actor.bucket);
    const [viewOnly, origin] = await Promise.all([
      this.hooks.readOnly(reportId, actor.bucket.id),
      this.hooks.origin(reportId, actor.bucket.id),
    ]);
    const transitions = allowedActions(facts, { id: actor.account.id, actions, viewOnly });
    const [names, coExams, combinable] = await Promise.all([
      store.accountNames(this.db, [
        row?.creatorId,
        row?.lastUpdaterId,
        row?.issuerId,
        row?.approverId,
        row?.noteTakerId,
        facts.lockedBy,
        ...(row?.adviceExpertIds ?? []),
      ]),
      store.coExamIdsOf(this.db, reportId),
      // Only an editor is offered exams to combine; the list is cheap (patient and day index).
      isEditable(transitions) ? store.combinableExams(this.db, reportId) : Promise.resolve([]),
    ]);
    return presentReport({
      reportId,
      bucketId: actor.bucket.id,
      callerId: actor.account.id,
      row,
      facts,
      transitions,
      names,
      coExams,
      combinable,
      lockExpires: row?.lockedAt ? this.locks.expires(row.lockedAt) : null,
      canTrace: actions.has(TRACE_ACTION),
      canForceUnlock: forceUnlockRefusal(actions) === null,
      origin,
    });
  }

  audit(actor: Actor, action: string, reportId: string, details: Record<string, unknown> = {}) {
    return auditReport(this.db, actor, action, reportId, details);
  }

  /** GET reports/{id}/detail: the report with the caller's transitions (status none before anyone wrote). */
  async detail(actor: Actor, examId: string): Promise<Report> {
    this.assertRead(actor);
    const reportId = await this.reportIdOf(actor, examId);
    const report = await this.present(actor, reportId, await store.findReport(this.db, reportId));
    await this.audit(actor, 'report.read', reportId);
    return report;
  }

  /** GET reports/{id}/content: the content alone, with the version it is at. */
  async content(actor: Actor, examId: string): Promise<{ version: number; content: ReportContent }> {
    this.assertRead(actor);
    const reportId = await this.reportIdOf(actor, examId);
    const row = await store.findReport(this.db, reportId);
    await this.audit(actor, 'report.read', reportId);
    return { version: row?.version ?? 0, content: row?.content ?? EMPTY_REPORT_CONTENT };
  }

  /* ---------- writing ---------- */

  /** Runs `fn` on the report row under its lock (report-lock.service.ts underLock). */
  private async write<T>(
    actor: Actor,
    examId: string,
    fn: (tx: Db, row: ReportRow, facts: ReportFacts, reportId: string) => Promise<T>,
  ): Promise<T> {
    const reportId = await this.reportIdOf(actor, examId);
    await this.hooks.refuseReadOnly(reportId, actor.bucket.id);
    return this.locks.underLock(reportId, actor.bucket.id, this.actorFacts(actor), (tx, row, facts) =>
      fn(tx, row, facts, reportId),
    );
  }

  private async trace(
    tx: Db,
    actor: Actor,
    reportId: string,
    action: TraceAction,
    from: ReportRow,
    to: ReportRow,
    reason = '',
  ): Promise<void> {
    await store.insertTrace(tx, {
      id: crypto.randomUUID(),
      reportId,
      action,
      actorId: actor.account.id,
      actorName: actor.account.name || actor.account.username,
      at: this.clock.now(),
      statusFrom: from.status,
      statusTo: to.status,
      version: to.version,
      reason,
      changed: from.content.findings !== to.content.findings || from.content.conclusion !== to.content.conclusion,
      content: to.content,
    });
    if (from.status !== to.status) await store.setExamsReportStatus(tx, reportId, to.status, this.clock.now());
  }

  /** POST reports/{id}/{action} (spec 000 §4). */
  async act(actor: Actor, examId: string, action: ReportAction, body: ReportActionBody): Promise<Report | ReportState> {
    const actorFacts = this.actorFacts(actor);
    // Checked before the transaction: on the embedded store a query beside an open transaction waits for it.
    if (action === 'advise' && body.expertIds?.length) await this.checkExperts(actor, body.expertIds);
    // A plain save without extension values needs no look at the organization's extension fields.
    const needsConfigs = RELEASING_ACTIONS.has(action) || Object.keys(body.content?.extensions ?? {}).length > 0;
    const configs = needsConfigs
      ? (await dictionaryItems(this.db, actor.bucket.id, 'extension-configs')).filter((c) => c.data.scope === 'report')
      : [];
    const { reportId, experts, updated } = await this.write(actor, examId, async (tx, row, facts, id) => {
      const writesContent = CONTENT_ACTIONS.has(action) && body.content !== undefined;
      if (writesContent) {
        if (body.version === undefined) {
          throw errors.validation('A save names the version it was based on', { field: 'version' });
        }
        if (body.version !== row.version) {
          const names = await store.accountNames(tx, [row.lastUpdaterId]);
          throw new AppError('ReportVersionConflict', 'The report was saved by someone else since this version', {
            currentVersion: row.version,
            rejected: body.content,
            current: row.content,
            lastUpdater: row.lastUpdaterId ? { id: row.lastUpdaterId, name: names.get(row.lastUpdaterId) ?? '' } : null,
          });
        }
      }
      const content = writesContent ? body.content! : row.content;
      if (writesContent) checkExtensions(configs, content, false);
      if (RELEASING_ACTIONS.has(action)) checkExtensions(configs, content, true);
      const out = applyAction(facts, actorFacts, action, { content, reason: body.reason, expertIds: body.expertIds });
      if (isProblem(out)) throw actionRefusal(out, facts, actorFacts);
      const now = this.clock.now();
      const updated = await store.updateReport(tx, id, {
        status: out.status,
        version: row.version + 1,
        content,
        creatorId: out.creatorId,
        lastUpdaterId: actor.account.id,
        ...(out.approverId !== undefined ? { approverId: out.approverId } : {}),
        ...(out.issuerId !== undefined ? { issuerId: out.issuerId } : {}),
        ...(out.rejectReason !== undefined ? { rejectReason: out.rejectReason } : {}),
        ...(out.recallReason !== undefined ? { recallReason: out.recallReason } : {}),
        ...(out.adviceExpertIds !== undefined ? { adviceExpertIds: out.adviceExpertIds } : {}),
        ...Object.fromEntries(out.stamp.map((k) => [k, now])),
        ...lockAfterAction(facts, actor.account.id, out.releaseLock, now),
        updatedAt: now,
      });
      await this.trace(
        tx,
        actor,
        id,
        action,
        { ...row, status: facts.status },
        updated,
        out.rejectReason || out.recallReason || '',
      );
      return { reportId: id, experts: out.adviceExpertIds, updated };
    });
    await this.audit(actor, `report.${action}`, reportId, experts ? { expertIds: experts } : {});
    await this.hooks.tell({ reportId, bucketId: actor.bucket.id, change: action, status: updated.status });
    const report = await this.present(actor, reportId, updated);
    return STATE_ONLY_ACTIONS.includes(action) ? stateOf(report) : report;
  }

  /** Advice experts must be ones the caller may choose (reports.policy mayAdvise). */
  private async checkExperts(actor: Actor, ids: string[]): Promise<void> {
    const refusal = expertsRefusal(ids, new Set((await this.adviceExperts(actor)).map((e) => e.id)));
    if (refusal) throw refusal;
  }

  /** GET reports/{id}/advice-experts: the organization's members holding report_advice, the caller excluded. */
  async adviceExperts(actor: Actor): Promise<{ id: string; name: string }[]> {
    const people = await membersWithAccess(this.db, [actor.bucket.id]);
    return people
      .filter((p) => {
        const f = p.facts.get(actor.bucket.id);
        return f !== undefined && mayAdvise(p.id, effectiveActions(p.access, f), actor.account.id);
      })
      .map((p) => ({ id: p.id, name: p.name || p.username }))
      .sort((a, b) => a.name.localeCompare(b.name, 'zh-Hans-CN'));
  }

  /** POST reports/{id}/lock: the editor's first edit takes or renews the lock (issue 20 item 5; report-lock.service.ts). */
  async lock(actor: Actor, examId: string): Promise<Report> {
    const reportId = await this.reportIdOf(actor, examId);
    await this.hooks.refuseReadOnly(reportId, actor.bucket.id);
    await this.locks.take(reportId, actor.bucket.id, this.actorFacts(actor));
    const row = await store.findReport(this.db, reportId);
    await this.hooks.tell({ reportId, bucketId: actor.bucket.id, change: 'lock', status: row?.status ?? 'none' });
    return this.present(actor, reportId, row);
  }

  /** POST reports/{id}/unlock: the holder lets go; a never-saved report is none again. */
  async unlock(actor: Actor, examId: string): Promise<Report> {
    const reportId = await this.reportIdOf(actor, examId);
    await this.locks.letGo(reportId, actor.bucket.id, this.actorFacts(actor));
    return this.present(actor, reportId, await store.findReport(this.db, reportId));
  }

  /** POST reports/{id}/force-unlock: an organization or group admin clears anyone's lock (audited). */
  async forceUnlock(actor: Actor, examId: string): Promise<Report> {
    const refusal = forceUnlockRefusal(effectiveActions(actor.access, actor.bucket));
    if (refusal) throw refusal;
    const reportId = await this.reportIdOf(actor, examId);
    const holder = await this.locks.forceOpen(reportId);
    if (holder) await this.audit(actor, 'report.force_unlock', reportId, { lockedBy: holder });
    return this.present(actor, reportId, await store.findReport(this.db, reportId));
  }

  /** POST reports/{id}/reset: clears a never-submitted draft (spec 000 §4); the trace keeps what it was. */
  async reset(actor: Actor, examId: string): Promise<Report> {
    const reportId = await this.write(actor, examId, async (tx, row, facts, id) => {
      const refusal = resetRefusal(facts, this.actorFacts(actor));
      if (refusal) throw refusal;
      const updated = await store.updateReport(tx, id, {
        status: 'none',
        version: row.version + 1,
        content: EMPTY_REPORT_CONTENT,
        creatorId: null,
        lastUpdaterId: actor.account.id,
        lockedBy: null,
        lockedAt: null,
        updatedAt: this.clock.now(),
      });
      await this.trace(tx, actor, id, 'reset', { ...row, status: facts.status }, updated);
      return id;
    });
    await this.audit(actor, 'report.reset', reportId);
    return this.present(actor, reportId, await store.findReport(this.db, reportId));
  }

  /**
   * POST reports/{id}/sync: the editor's heartbeat. Renews the caller's lock and answers the state
   * fields with the version and lock, so the editor sees who holds it and whether its text is current,
   * and the last save time by anyone, so its "saved at" follows saves made elsewhere.
   */
  async sync(actor: Actor, examId: string) {
    this.assertRead(actor);
    const reportId = await this.reportIdOf(actor, examId);
    const row = await this.locks.renew(reportId, this.actorFacts(actor));
    const report = await this.present(actor, reportId, row);
    return { ...stateOf(report), version: report.version, lock: report.lock, savedAt: report.savedAt };
  }

  /**
   * POST reports/{id}/update-print-time (the route checked report_print): a print of the approved
   * report stamps printApprovedAt and leaves it printed, with a trace step; a print before
   * approval stamps printSubmittedAt. The version stays: printing changes nothing in the report.
   */
  async recordPrint(actor: Actor, examId: string): Promise<ReportRow> {
    const reportId = await this.reportIdOf(actor, examId);
    const { row, from } = await this.db.transaction(async (tx) => {
      const row = await store.findReport(tx, reportId, true);
      const facts = this.locks.facts(row);
      if (!row || facts.status === 'none' || facts.status === 'locked') throw errors.notFound('Report');
      const now = this.clock.now();
      if (!APPROVED_STATUSES.includes(facts.status)) {
        return { row: await store.updateReport(tx, reportId, { printSubmittedAt: now }), from: facts.status };
      }
      const updated = await store.updateReport(tx, reportId, { status: 'printed', printApprovedAt: now });
      await this.trace(tx, actor, reportId, 'print', { ...row, status: facts.status }, updated);
      return { row: updated, from: facts.status };
    });
    await this.audit(actor, 'report.print', reportId, { statusFrom: from, statusTo: row.status });
    return row;
  }

  /**
   * Key images and sample graphs change with the report's text: the caller must be able to edit it
   * now (not read-only here, its transitions allow save, submit or approve), no one else holding its lock.
   */
  async assertEditing(actor: Actor, examId: string): Promise<string> {
    const reportId = await this.reportIdOf(actor, examId);
    await this.hooks.refuseReadOnly(reportId, actor.bucket.id);
    const row = await store.findReport(this.db, reportId);
    const facts = this.locks.facts(row);
    const caller = this.actorFacts(actor);
    await this.locks.refuseIfHeldByOther(this.db, facts, caller);
    const refusal = imageEditRefusal(facts, caller);
    if (refusal) throw refusal;
    return reportId;
  }

  /** The exam a new key image of the report belongs to (checked as assertEditing). */
  async imageTarget(actor: Actor, examId: string): Promise<{ id: string; bucketId: string; patientId: string }> {
    const reportId = await this.assertEditing(actor, examId);
    const exam = await store.liveExam(this.db, reportId);
    if (!exam) throw errors.notFound('Report');
    return { id: reportId, bucketId: exam.bucketId, patientId: exam.patientId };
  }
}
