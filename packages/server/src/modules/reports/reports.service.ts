import crypto from 'node:crypto';
import {
  EMPTY_REPORT_CONTENT,
  isEditable,
  STATE_ONLY_ACTIONS,
  type Report,
  type ReportAction,
  type ReportActionBody,
  type ReportContent,
  type ReportState,
  type ReportStatus,
  type TraceAction,
} from '@yyp/contracts';
import type { AccountRow, ReportRow } from '../../db/schema.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import { effectiveActions, type BucketAction, type BucketFacts, type CallerAccess } from '../../platform/authz.js';
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
import {
  allowedActions,
  applyAction,
  APPROVED_STATUSES,
  canEdit,
  canReset,
  CONTENT_ACTIONS,
  isProblem,
  visibleStatus,
  type ActorFacts,
  type ReportFacts,
} from './report-machine.js';
import * as store from './reports.store.js';

/** Actions after which the report leaves its writer: required extension fields must be filled. */
const RELEASING: ReadonlySet<ReportAction> = new Set(['submit', 'approve', 'approveAndPrint', 'preliminaryIssue']);

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

export type Actor = { account: AccountRow; access: CallerAccess; bucket: BucketFacts; ctx: AuditContext };

/** Actions any one of which lets a caller read a report of the organization. */
const READ_ACTIONS: BucketAction[] = ['exam_get', 'report_upsert', 'report_approval', 'report_advice', 'report_trace'];
const REPORT_ROLE_ACTIONS = [
  'report_upsert',
  'report_approval',
  'report_advice',
  'report_recall',
  'report_preliminary',
];

type Tx = Db;

/**
 * The report lifecycle (spec 000 §4, issue "Reporting workstation"): every write runs in one
 * transaction holding the report row's lock, checks the caller's transitions from the pure
 * machine first, refuses a save based on an old version, and writes its trace step with it.
 */
export class ReportsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly lockSeconds: number,
  ) {}

  /* ---------- reading ---------- */

  private actorFacts(actor: Actor): ActorFacts {
    return { id: actor.account.id, actions: effectiveActions(actor.access, actor.bucket) };
  }

  /** The caller may read the organization's reports (any of READ_ACTIONS). */
  assertRead(actor: Actor): Set<BucketAction> {
    const actions = effectiveActions(actor.access, actor.bucket);
    if (!READ_ACTIONS.some((a) => actions.has(a))) throw errors.forbidden('exam_get');
    return actions;
  }

  /** The report id of an exam of the caller's (route-authorized) bucket: its primary exam's id. */
  async reportIdOf(actor: Actor, examId: string): Promise<string> {
    const reportId = await store.reportOfExam(this.db, examId, actor.bucket.id);
    if (!reportId) throw errors.notFound('Report');
    return reportId;
  }

  private liveLock(row: ReportRow | undefined, now: Date): boolean {
    return !!row?.lockedBy && !!row.lockedAt && row.lockedAt.getTime() + this.lockSeconds * 1000 > now.getTime();
  }

  private facts(row: ReportRow | undefined, now: Date): ReportFacts {
    if (!row) return { status: 'none', creatorId: null, lockedBy: null, adviceExpertIds: [] };
    const live = this.liveLock(row, now);
    return {
      status: visibleStatus(row.status as ReportStatus, live),
      creatorId: row.creatorId,
      lockedBy: live ? row.lockedBy : null,
      adviceExpertIds: row.adviceExpertIds,
    };
  }

  private async present(actor: Actor, reportId: string, row: ReportRow | undefined): Promise<Report> {
    const now = this.clock.now();
    const facts = this.facts(row, now);
    const actions = effectiveActions(actor.access, actor.bucket);
    const transitions = allowedActions(facts, { id: actor.account.id, actions });
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
    const person = (id: string | null | undefined) => (id ? { id, name: names.get(id) ?? '' } : null);
    return {
      id: reportId,
      examId: reportId,
      bucketId: actor.bucket.id,
      status: facts.status,
      transitions,
      creator: person(row?.creatorId),
      lastUpdater: person(row?.lastUpdaterId),
      issuer: person(row?.issuerId),
      approver: person(row?.approverId),
      noteTaker: person(row?.noteTakerId),
      rejectReason: row?.rejectReason ?? '',
      recallReason: row?.recallReason ?? '',
      version: row?.version ?? 0,
      content: row?.content ?? EMPTY_REPORT_CONTENT,
      lock:
        facts.lockedBy && row?.lockedAt
          ? {
              lockedBy: { id: facts.lockedBy, name: names.get(facts.lockedBy) ?? '' },
              since: row.lockedAt.toISOString(),
              expires: new Date(row.lockedAt.getTime() + this.lockSeconds * 1000).toISOString(),
              mine: facts.lockedBy === actor.account.id,
            }
          : null,
      adviceExperts: (row?.adviceExpertIds ?? []).map((id) => ({ id, name: names.get(id) ?? '' })),
      savedAt: row?.savedAt?.toISOString() ?? null,
      submittedAt: row?.submittedAt?.toISOString() ?? null,
      approvedAt: row?.approvedAt?.toISOString() ?? null,
      printApprovedAt: row?.printApprovedAt?.toISOString() ?? null,
      examIds: [reportId, ...coExams],
      autoCheckCombineReport: combinable.length > 0,
      combinable,
      canTrace: actions.has('report_trace'),
      canForceUnlock: actions.has('bucket_manage'),
    };
  }

  private stateOf(report: Report): ReportState {
    const { id, status, transitions, creator, lastUpdater, issuer, rejectReason, recallReason } = report;
    return { id, status, transitions, creator, lastUpdater, issuer, rejectReason, recallReason };
  }

  audit(actor: Actor, action: string, reportId: string, details: Record<string, unknown> = {}) {
    return writeAudit(this.db, actor.ctx, {
      action,
      outcome: 'success',
      category: 'phi',
      actorId: actor.account.id,
      actorUsername: actor.account.username,
      bucketId: actor.bucket.id,
      targetType: 'report',
      targetId: reportId,
      details,
    });
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

  /**
   * Runs `fn` on the report row under its lock. A live lock held by someone else refuses first:
   * "Report locked by {name}" (spec 001 §8).
   */
  private async write<T>(
    actor: Actor,
    examId: string,
    fn: (tx: Tx, row: ReportRow, facts: ReportFacts, reportId: string) => Promise<T>,
  ): Promise<T> {
    const reportId = await this.reportIdOf(actor, examId);
    return this.db.transaction(async (tx) => {
      const row = await store.ensureReport(tx, reportId, actor.bucket.id, this.clock.now());
      const facts = this.facts(row, this.clock.now());
      if (facts.lockedBy && facts.lockedBy !== actor.account.id) {
        const names = await store.accountNames(tx, [facts.lockedBy]);
        const name = names.get(facts.lockedBy) ?? '';
        throw new AppError('ReportLocked', `Report locked by ${name}`, { lockedBy: { id: facts.lockedBy, name } });
      }
      return fn(tx, row, facts, reportId);
    });
  }

  private refuse(actor: Actor, facts: ReportFacts): AppError {
    const actions = effectiveActions(actor.access, actor.bucket);
    if (!REPORT_ROLE_ACTIONS.some((a) => actions.has(a as BucketAction))) {
      return new AppError('NoPermissionToEdit', 'No permission to edit this report');
    }
    return new AppError('ReportNotEditable', 'This report is not editable now', {
      status: facts.status,
      transitions: allowedActions(facts, this.actorFacts(actor)),
    });
  }

  private async trace(
    tx: Tx,
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
    const needsConfigs = RELEASING.has(action) || Object.keys(body.content?.extensions ?? {}).length > 0;
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
      if (RELEASING.has(action)) checkExtensions(configs, content, true);
      const out = applyAction(facts, actorFacts, action, { content, reason: body.reason, expertIds: body.expertIds });
      if (isProblem(out)) {
        if (out.kind === 'notAllowed') throw this.refuse(actor, facts);
        if (out.kind === 'reasonRequired') throw errors.validation('A reason is required', { field: 'reason' });
        if (out.kind === 'textRequired') {
          throw errors.validation('Findings or conclusion must not be empty', { field: 'findings' });
        }
        throw errors.validation('Choose at least one expert', { field: 'expertIds' });
      }
      const now = this.clock.now();
      const mineLocked = facts.lockedBy === actor.account.id;
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
        // A save renews the saver's lock; every other action hands the report on and releases it.
        ...(out.releaseLock
          ? mineLocked || !facts.lockedBy
            ? { lockedBy: null, lockedAt: null }
            : {}
          : mineLocked
            ? { lockedAt: now }
            : {}),
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
    const report = await this.present(actor, reportId, updated);
    return STATE_ONLY_ACTIONS.includes(action) ? this.stateOf(report) : report;
  }

  /** Advice experts must hold report_advice in the report's organization. */
  private async checkExperts(actor: Actor, ids: string[]): Promise<void> {
    const allowed = new Set((await this.adviceExperts(actor)).map((e) => e.id));
    const bad = ids.filter((id) => !allowed.has(id));
    if (bad.length > 0) {
      throw errors.validation('Advice experts must hold advice rights in this organization', { expertIds: bad });
    }
  }

  /** GET reports/{id}/advice-experts: the organization's members holding report_advice, the caller excluded. */
  async adviceExperts(actor: Actor): Promise<{ id: string; name: string }[]> {
    const people = await membersWithAccess(this.db, [actor.bucket.id]);
    return people
      .filter((p) => {
        const f = p.facts.get(actor.bucket.id);
        return p.id !== actor.account.id && f !== undefined && effectiveActions(p.access, f).has('report_advice');
      })
      .map((p) => ({ id: p.id, name: p.name || p.username }))
      .sort((a, b) => a.name.localeCompare(b.name, 'zh-Hans-CN'));
  }

  /**
   * POST reports/{id}/lock: the editor's first edit (issue 20 item 5: opening to read takes no
   * lock). Taken when the caller may edit now; renewed when it already holds it. A report nobody
   * wrote yet shows as locked while it is held. Taking a lock changes nothing in the report, so it
   * writes no trace step; the study list still shows the report as being edited.
   */
  async lock(actor: Actor, examId: string): Promise<Report> {
    const reportId = await this.write(actor, examId, async (tx, _row, facts, id) => {
      if (!canEdit({ ...facts, lockedBy: null }, this.actorFacts(actor))) throw this.refuse(actor, facts);
      const status: ReportStatus = facts.status === 'none' ? 'locked' : facts.status;
      await store.updateReport(tx, id, { lockedBy: actor.account.id, lockedAt: this.clock.now(), status });
      if (status !== facts.status) await store.setExamsReportStatus(tx, id, status, this.clock.now());
      return id;
    });
    return this.present(actor, reportId, await store.findReport(this.db, reportId));
  }

  /** POST reports/{id}/unlock: the holder lets go; a never-saved report is none again. */
  async unlock(actor: Actor, examId: string): Promise<Report> {
    const reportId = await this.write(actor, examId, async (tx, _row, facts, id) => {
      if (facts.lockedBy !== actor.account.id) return id;
      await this.release(tx, id, facts);
      return id;
    });
    return this.present(actor, reportId, await store.findReport(this.db, reportId));
  }

  /** Frees the lock; no trace step (nothing in the report changed), the audit log keeps a forced one. */
  private async release(tx: Tx, id: string, facts: ReportFacts) {
    const status: ReportStatus = facts.status === 'locked' ? 'none' : facts.status;
    await store.updateReport(tx, id, { lockedBy: null, lockedAt: null, status });
    if (status !== facts.status) await store.setExamsReportStatus(tx, id, status, this.clock.now());
  }

  /** POST reports/{id}/force-unlock: an organization or group admin clears anyone's lock. */
  async forceUnlock(actor: Actor, examId: string): Promise<Report> {
    const reportId = await this.reportIdOf(actor, examId);
    const holder = await this.db.transaction(async (tx) => {
      const row = await store.findReport(tx, reportId, true);
      const facts = this.facts(row, this.clock.now());
      if (!row || !facts.lockedBy) return null;
      await this.release(tx, reportId, facts);
      return facts.lockedBy;
    });
    if (holder) await this.audit(actor, 'report.force_unlock', reportId, { lockedBy: holder });
    return this.present(actor, reportId, await store.findReport(this.db, reportId));
  }

  /** POST reports/{id}/reset: clears a never-submitted draft (spec 000 §4); the trace keeps what it was. */
  async reset(actor: Actor, examId: string): Promise<Report> {
    const reportId = await this.write(actor, examId, async (tx, row, facts, id) => {
      if (!canReset(facts, this.actorFacts(actor))) throw this.refuse(actor, facts);
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
    const now = this.clock.now();
    let row = await store.findReport(this.db, reportId);
    if (row && this.facts(row, now).lockedBy === actor.account.id) {
      row = await store.updateReport(this.db, reportId, { lockedAt: now });
    }
    const report = await this.present(actor, reportId, row);
    return { ...this.stateOf(report), version: report.version, lock: report.lock, savedAt: report.savedAt };
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
      const facts = this.facts(row, this.clock.now());
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
   * Key images change with the report's text: the caller must be able to edit it now (its
   * transitions allow save, submit or approve) and no one else may hold its lock.
   */
  async assertEditing(actor: Actor, examId: string): Promise<string> {
    const reportId = await this.reportIdOf(actor, examId);
    const row = await store.findReport(this.db, reportId);
    const facts = this.facts(row, this.clock.now());
    if (facts.lockedBy && facts.lockedBy !== actor.account.id) {
      const name = (await store.accountNames(this.db, [facts.lockedBy])).get(facts.lockedBy) ?? '';
      throw new AppError('ReportLocked', `Report locked by ${name}`, { lockedBy: { id: facts.lockedBy, name } });
    }
    if (!canEdit(facts, this.actorFacts(actor))) throw this.refuse(actor, facts);
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
