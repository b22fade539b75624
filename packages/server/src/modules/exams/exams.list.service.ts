import {
  EXAM_FALLBACK_LIMIT,
  EXAM_QUERY_MAX_LIMIT,
  NEWLY_DAYS,
  NEWLY_LIMIT,
  PAST_EXAMS_PAGE,
  RECOVERY_DAYS,
  type ExamDeleted,
  type ExamFilter,
  type ExamItem,
  type ExamPage,
  type ExamSort,
  type GroupSettings,
} from '@yyp/contracts';
import type { AccountRow } from '../../db/schema.js';
import { findGroup } from '../groups/index.js';
import { bucketsOfGroup } from '../organizations/index.js';
import { callerScope } from '../../platform/access.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import {
  effectiveActions,
  privacyOf,
  type BucketAction,
  type BucketFacts,
  type CallerAccess,
} from '../../platform/authz.js';
import type { BlobStore } from '../../platform/blobs.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { errors } from '../../platform/errors.js';
import { listMasked, presentExam, type ExamListRow, type PrivacyByBucket } from './exams.presenter.js';
import { listColorRules } from '../rules/index.js';
import { rowColor, type ColorRuleLike } from '@yyp/contracts';
import * as lifecycle from './exams.lifecycle.store.js';
import * as store from './exams.list.store.js';
import { listPage } from './exams.list.page.store.js';
import { paintReportColors, type ReportColorRules } from '../report-safety/index.js';
import { withRemoteReads } from './exams.remote.store.js';
import { hiddenConsultationCopies } from './exams.copy-gate.js';

const DAY_MS = 86_400_000;
const PURGE_BATCH = 100;

export interface ExamQueryInput {
  filters: ExamFilter[];
  sorts: ExamSort[];
  skip?: number | undefined;
  limit?: number | undefined;
}

/** Spec 000 §5: skip floored at 0; a limit that is missing or not positive falls back to 50; capped at 200. */
export function pageWindow(skip: number | undefined, limit: number | undefined): { skip: number; limit: number } {
  const s = Number.isFinite(skip) ? Math.max(0, Math.floor(skip!)) : 0;
  const l = Number.isFinite(limit) && limit! >= 1 ? Math.floor(limit!) : EXAM_FALLBACK_LIMIT;
  return { skip: s, limit: Math.min(l, EXAM_QUERY_MAX_LIMIT) };
}

/**
 * The study list and the life of an exam in it: list, count, one exam, soft delete, the
 * deleted-exams view, recovery within 30 days and the purge after. Every read is scoped to the
 * buckets where the caller holds exam_get (exam_delete for the deleted view); private fields are
 * masked per exam by the one rule (contracts privateFieldsMasked: the group's enablePrivacy, the
 * caller's view_privacy in the bucket, the exam's confidential mark).
 */
export class ExamListService {
  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
  ) {}

  /** Of the caller's visible buckets: those where it holds all `actions`, its privacy facts, the exams hidden there. */
  async scope(account: { id: string }, ...actions: BucketAction[]) {
    const { access, facts } = await callerScope(this.db, account);
    const allowed: string[] = [];
    const privacy = new Map<string, ReturnType<typeof privacyOf>>();
    for (const b of facts) {
      const held = effectiveActions(access, b);
      if (actions.every((a) => held.has(a))) allowed.push(b.id);
      privacy.set(b.id, privacyOf(access, b));
    }
    const hidden = await hiddenConsultationCopies(this.db, account, allowed);
    return { allowed, privacy: privacy as PrivacyByBucket, hidden };
  }

  private recoveryCutoff(): Date {
    return new Date(this.clock.now().getTime() - RECOVERY_DAYS * DAY_MS);
  }

  /** POST exams/page-query */
  async page(account: AccountRow, input: ExamQueryInput, ctx: AuditContext): Promise<ExamPage> {
    const { allowed, privacy, hidden } = await this.scope(account, 'exam_get');
    return this.pageIn(account, { bucketIds: allowed, deleted: false, hidden }, privacy, input, ctx, 'exam.list');
  }

  /** POST exams/deleted-query: exams deleted in the last 30 days where the caller holds exam_delete. */
  async deletedPage(account: AccountRow, input: ExamQueryInput, ctx: AuditContext): Promise<ExamPage> {
    const { allowed, privacy, hidden } = await this.scope(account, 'exam_delete');
    const scope = { bucketIds: allowed, deleted: { after: this.recoveryCutoff() }, hidden };
    return this.pageIn(account, scope, privacy, input, ctx, 'exam.list_deleted');
  }

  private async pageIn(
    account: AccountRow,
    scope: store.ListScope,
    privacy: PrivacyByBucket,
    input: ExamQueryInput,
    ctx: AuditContext,
    action: string,
  ): Promise<ExamPage> {
    const { skip, limit } = pageWindow(input.skip, input.limit);
    // The page's statements also read the colour rules and the report table colours.
    const { rows, count, rules, reportRules } = await listPage(this.db, {
      scope,
      filters: input.filters,
      sorts: input.sorts,
      skip,
      limit,
    });
    return { exams: await this.present(account, rows, privacy, ctx, action, rules, reportRules), count };
  }

  /**
   * List rows as the contract shapes them: masked as listMasked says, painted by the first matching colour rule of its group; the unmasked
   * ones audited as PHI disclosed.
   */
  async present(
    account: AccountRow,
    rows: ExamListRow[],
    privacy: PrivacyByBucket,
    ctx: AuditContext,
    action: string,
    knownRules?: Map<string, ColorRuleLike[]>,
    knownReportRules?: ReportColorRules,
  ): Promise<ExamItem[]> {
    const rules = knownRules ?? new Map<string, ColorRuleLike[]>();
    if (!knownRules) {
      for (const groupId of new Set(rows.map((r) => r.groupId))) {
        rules.set(groupId, await listColorRules(this.db, groupId));
      }
    }
    const reportColors = await paintReportColors(
      this.db,
      rows.map((r) => ({ ...r, critical: r.criticalFlag, urgent: r.urgentFlag })),
      knownReportRules,
    );
    const items = await withRemoteReads(
      this.db,
      rows.map((r) =>
        presentExam(r, listMasked(r, privacy), rowColor(rules.get(r.groupId) ?? [], r), reportColors.get(r.id) ?? null),
      ),
    );
    const disclosed = rows.filter((r) => !listMasked(r, privacy));
    await this.auditDisclosed(account, disclosed, ctx, action);
    return items;
  }

  /**
   * POST exams/newly: the new-exam poll (every 30 s, spec 000 §9). Exams created within the last
   * 7 days, strictly after `since` when the client passes the newest it has seen, newest first, at
   * most 5; masked and audited like the list.
   */
  async newly(account: AccountRow, since: string | undefined, ctx: AuditContext): Promise<ExamPage> {
    const weekAgo = this.clock.now().getTime() - NEWLY_DAYS * DAY_MS;
    const after = since ? Math.max(weekAgo, Date.parse(since) + 1) : weekAgo;
    return this.page(
      account,
      {
        filters: [{ field: 'created', operator: 'range', values: [new Date(after).toISOString(), ''] }],
        sorts: [{ field: 'created', direction: 'desc' }],
        skip: 0,
        limit: NEWLY_LIMIT,
      },
      ctx,
    );
  }

  /**
   * POST exams/{id}/past (and past/count): the patient's other exams, matched by patient ID and
   * the group's birth-date mode, in the exam's organization, or in every organization of the group
   * where the caller holds exam_get when the group searches history across organizations. Study
   * date descending, 15 to a page; masked and audited like the list.
   */
  async past(
    account: AccountRow,
    bucket: BucketFacts,
    examId: string,
    input: { skip?: number | undefined; limit?: number | undefined },
    ctx: AuditContext,
    countOnly = false,
  ): Promise<ExamPage> {
    const exam = await store.examRow(this.db, examId);
    if (!exam || exam.deletedTime) throw errors.notFound('Exam');
    const { allowed, privacy, hidden } = await this.scope(account, 'exam_get');
    const settings = ((await findGroup(this.db, bucket.groupId))?.settings ?? {}) as Partial<GroupSettings>;
    const inGroup = new Set((await bucketsOfGroup(this.db, bucket.groupId)).map((b) => b.id));
    const bucketIds = settings.crossOrgHistorySearch ? allowed.filter((id) => inGroup.has(id)) : [bucket.id];
    if (!exam.patientId) return { exams: [], count: 0 };
    const scope: store.ListScope = {
      bucketIds,
      deleted: false,
      hidden,
      samePatient: {
        examId,
        patientId: exam.patientId,
        dob: exam.patientDob,
        mode: settings.dobMatchMode ?? 'shift_off',
      },
    };
    if (countOnly) return { exams: [], count: await store.countExams(this.db, scope, []) };
    const skip = Math.max(0, Math.floor(input.skip ?? 0));
    const limit = input.limit && input.limit > 0 ? Math.min(Math.floor(input.limit), PAST_EXAMS_PAGE) : PAST_EXAMS_PAGE;
    return this.pageIn(
      account,
      scope,
      privacy,
      { filters: [], sorts: [{ field: 'studyDate', direction: 'desc' }], skip, limit },
      ctx,
      'exam.past',
    );
  }

  /** POST exams/modify-print-status: all the studies must be live exams where the caller holds exam_update. */
  async modifyPrintStatus(account: AccountRow, storeUids: string[], printed: boolean, ctx: AuditContext) {
    const { allowed, hidden } = await this.scope(account, 'exam_update');
    const rows = await lifecycle.setPrinted(this.db, allowed, storeUids, printed, hidden);
    if (!rows) throw errors.notFound('Exam');
    await writeAudit(this.db, ctx, {
      action: 'exam.print_status',
      outcome: 'success',
      category: 'operation',
      actorId: account.id,
      actorUsername: account.username,
      targetType: 'exam',
      details: { printed, exams: rows.map((r) => r.id) },
    });
    return { updated: rows.length };
  }

  /** POST exams/query/count */
  async count(account: AccountRow, filters: ExamFilter[]): Promise<number> {
    const { allowed, hidden } = await this.scope(account, 'exam_get');
    return store.countExams(this.db, { bucketIds: allowed, deleted: false, hidden }, filters);
  }

  /** GET exams/{id}: the route authorized exam_get in the exam's bucket (live exams only). */
  async get(account: AccountRow, access: CallerAccess, bucket: BucketFacts, examId: string, ctx: AuditContext) {
    const row = await store.examRow(this.db, examId);
    if (!row || row.deletedTime || row.bucketId !== bucket.id) throw errors.notFound('Exam');
    const privacy = new Map([[bucket.id, privacyOf(access, bucket)]]);
    const [item] = await this.present(account, [row], privacy, ctx, 'exam.get');
    return item!;
  }

  /** DELETE exams/{id}/delete: soft delete (recoverable for 30 days), audited with the change. */
  async softDelete(account: AccountRow, bucket: BucketFacts, examId: string, ctx: AuditContext): Promise<ExamDeleted> {
    const now = this.clock.now();
    const row = await store.examRow(this.db, examId);
    if (!row || row.deletedTime || row.bucketId !== bucket.id) throw errors.notFound('Exam');
    await this.db.transaction(async (tx) => {
      if (!(await lifecycle.softDelete(tx, examId, now))) throw errors.notFound('Exam');
      await writeAudit(tx, ctx, this.entry(account, row, 'exam.delete'));
    });
    return {
      id: examId,
      deletedTime: now.toISOString(),
      recoverableUntil: new Date(now.getTime() + RECOVERY_DAYS * DAY_MS).toISOString(),
    };
  }

  /** POST reports/{id}/recovery: an exam deleted in the last 30 days comes back to the list. */
  async recover(
    account: AccountRow,
    access: CallerAccess,
    bucket: BucketFacts,
    examId: string,
    ctx: AuditContext,
  ): Promise<ExamItem> {
    const row = await store.examRow(this.db, examId);
    if (!row || row.bucketId !== bucket.id) throw errors.notFound('Exam');
    if (!row.deletedTime) throw errors.conflict('The exam is not deleted');
    const cutoff = this.recoveryCutoff();
    if (row.deletedTime <= cutoff) {
      throw errors.validation(
        `Deleted exams can be recovered within ${RECOVERY_DAYS} days; this one can no longer be`,
        {
          deletedTime: row.deletedTime.toISOString(),
        },
      );
    }
    await this.db.transaction(async (tx) => {
      if (!(await lifecycle.recover(tx, examId, cutoff, this.clock.now()))) {
        throw errors.conflict('The exam is not deleted');
      }
      await writeAudit(tx, ctx, this.entry(account, row, 'exam.recover'));
    });
    const privacy = new Map([[bucket.id, privacyOf(access, bucket)]]);
    const [item] = await this.present(account, [{ ...row, deletedTime: null }], privacy, ctx, 'exam.recover_view');
    return item!;
  }

  /**
   * POST reports/{id}/delete: removes a deleted exam for good now, from the deleted-exams view
   * (the purge would after 30 days). A live exam must be deleted first (DELETE exams/{id}/delete).
   */
  async destroy(account: AccountRow, bucket: BucketFacts, examId: string, ctx: AuditContext): Promise<void> {
    const row = await store.examRow(this.db, examId);
    if (!row || row.bucketId !== bucket.id) throw errors.notFound('Exam');
    if (!row.deletedTime) throw errors.conflict('Only a deleted exam can be removed for good; delete it first');
    const keys = await this.db.transaction(async (tx) => {
      const gone = await lifecycle.destroyDeleted(tx, [examId]);
      if (gone.examIds.length === 0) throw errors.conflict('The exam is not deleted');
      await writeAudit(tx, ctx, this.entry(account, row, 'exam.destroy'));
      return gone.blobKeys;
    });
    await this.deleteBlobs(keys);
  }

  /**
   * Removes exams deleted more than 30 days ago, with their rows and files (run hourly from app
   * start, and by tests). Rows go in one transaction per batch; files after it commits, so a
   * failed commit never leaves rows without files. Answers how many exams it removed.
   */
  async purge(): Promise<number> {
    let removed = 0;
    for (;;) {
      const ids = await lifecycle.expiredDeleted(this.db, this.recoveryCutoff(), PURGE_BATCH);
      if (ids.length === 0) return removed;
      const gone = await this.db.transaction(async (tx) => {
        const result = await lifecycle.destroyDeleted(tx, ids);
        if (result.examIds.length > 0) {
          await writeAudit(
            tx,
            { ip: null, userAgent: 'purge' },
            {
              action: 'exam.purge',
              outcome: 'success',
              category: 'phi',
              targetType: 'exam',
              details: { examIds: result.examIds, files: result.blobKeys.length },
            },
          );
        }
        return result;
      });
      await this.deleteBlobs(gone.blobKeys);
      removed += gone.examIds.length;
      if (ids.length < PURGE_BATCH) return removed;
    }
  }

  private async deleteBlobs(keys: string[]): Promise<void> {
    // A file that is already gone is fine; one that fails stays for `yyp reindex` to report.
    for (const key of keys) await this.blobs.delete(key).catch(() => undefined);
  }

  private entry(account: AccountRow, row: ExamListRow, action: string) {
    return {
      action,
      outcome: 'success' as const,
      category: 'phi' as const,
      actorId: account.id,
      actorUsername: account.username,
      targetType: 'exam',
      targetId: row.id,
      bucketId: row.bucketId,
      patientId: row.patientId,
      details: { storeUid: row.storeUid },
    };
  }

  /**
   * One PHI audit row per answer that shows unmasked patient data (`rows` are those shown
   * unmasked): the exams and their organizations in its details, the organization and patient
   * in its columns when there is only one. One insert, whatever the page size.
   */
  private async auditDisclosed(
    account: AccountRow,
    rows: ExamListRow[],
    ctx: AuditContext,
    action: string,
  ): Promise<void> {
    if (rows.length === 0) return;
    const bucketIds = [...new Set(rows.map((r) => r.bucketId))];
    await writeAudit(this.db, ctx, {
      action,
      outcome: 'success',
      category: 'phi',
      actorId: account.id,
      actorUsername: account.username,
      targetType: 'exam',
      ...(bucketIds.length === 1 ? { bucketId: bucketIds[0]! } : {}),
      ...(rows.length === 1 ? { targetId: rows[0]!.id, patientId: rows[0]!.patientId } : {}),
      details: { examIds: rows.map((r) => r.id), ...(bucketIds.length > 1 ? { bucketIds } : {}) },
    });
  }
}
