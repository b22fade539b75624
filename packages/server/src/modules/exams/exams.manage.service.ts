import {
  ACTION_CATALOGUE,
  maskIdentifier,
  type ExamDetail,
  type ExamItem,
  type ExamTag,
  type ExamUpdate,
  type Reporter,
} from '@yyp/contracts';
import type { AccountRow } from '../../db/schema.js';
import { loadCallerAccess, findBucketsFacts } from '../../platform/access.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import { effectiveActions, examMasked, privacyOf, type BucketFacts, type CallerAccess } from '../../platform/authz.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import { nameInitials } from '../archive/index.js';
import { hiddenConsultationCopies } from './exams.copy-gate.js';
import type { ExamListService } from './exams.list.service.js';
import * as listStore from './exams.list.store.js';
import * as store from './exams.manage.store.js';
import { classKeyChanges, extensionProblems, missingRequired, privateFieldsIn } from './exams.manage.rules.js';
import { presentExam } from './exams.presenter.js';
import type { ReadOnlyGate } from '../reports/index.js';

const MAX_TAGS_PER_EXAM = 20;
const EXAM_ACTIONS = new Set<string>([
  ...ACTION_CATALOGUE.exam,
  ...ACTION_CATALOGUE.report,
  ...ACTION_CATALOGUE.attachment,
]);

type Actor = { account: AccountRow; access: CallerAccess; bucket: BucketFacts; ctx: AuditContext };

/**
 * The exam detail drawer (spec 000 §2 "Exam detail: assignment and sharing"): one exam's every
 * field, its edit, assignment to a reporter, tags and co-written exams. Routes authorize the
 * action in the exam's bucket first; each method checks the exam really is there.
 */
export class ExamManageService {
  /** The reports' read-only check (app.ts): an exam's report published back by the experts takes no co-exam. */
  private reportGate: Pick<ReadOnlyGate, 'refuseReadOnly'> = {
    refuseReadOnly: () => Promise.resolve(),
  };

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly list: ExamListService,
  ) {}

  /** Told by app.ts: the reports module's refusal of a write to a read-only report (409 ReportNotEditable). */
  gateReportsWith(gate: Pick<ReadOnlyGate, 'refuseReadOnly'>): void {
    this.reportGate = gate;
  }

  private async liveRow(examId: string, bucket: BucketFacts) {
    const row = await listStore.examRow(this.db, examId);
    if (!row || row.deletedTime || row.bucketId !== bucket.id) throw errors.notFound('Exam');
    return row;
  }

  private audit(actor: Actor, action: string, examId: string, details: Record<string, unknown>, phi = false) {
    return writeAudit(this.db, actor.ctx, {
      action,
      outcome: 'success',
      category: phi ? 'phi' : 'operation',
      actorId: actor.account.id,
      actorUsername: actor.account.username,
      bucketId: actor.bucket.id,
      targetType: 'exam',
      targetId: examId,
      details,
    });
  }

  /**
   * GET exams/{id}/detail: private fields masked as the list masks them (contracts
   * privateFieldsMasked); an unmasked answer is audited as PHI disclosed.
   */
  async detail(actor: Actor, examId: string): Promise<ExamDetail> {
    const row = await this.liveRow(examId, actor.bucket);
    const fields = await store.examFields(this.db, examId);
    if (!fields) throw errors.notFound('Exam');
    const actions = effectiveActions(actor.access, actor.bucket);
    const masked = examMasked(actor.access, actor.bucket, row);
    const [seriesRows, attachments, primary] = await Promise.all([
      store.examSeries(this.db, examId),
      store.attachmentCount(this.db, examId),
      store.primaryOf(this.db, examId),
    ]);
    const others = [primary, ...(await store.coExamIds(this.db, primary))].filter((id) => id !== examId);
    const hide = (v: string) => (masked ? maskIdentifier(v) : v);
    if (!masked) await this.audit(actor, 'exam.detail', examId, { storeUid: row.storeUid }, true);
    return {
      ...presentExam(row, masked),
      patientPhone: hide(fields.patientPhone),
      inpatientId: hide(fields.inpatientId),
      outpatientId: hide(fields.outpatientId),
      bedNum: fields.bedNum,
      physicalExamId: hide(fields.physicalExamId),
      clinicImpression: fields.clinicImpression,
      scanTech: fields.scanTech,
      physician: fields.physician,
      bodyPartCount: fields.bodyPartCount,
      weight: fields.weight,
      height: fields.height,
      institution: fields.institution,
      referringPhysician: fields.referringPhysician,
      source: fields.source,
      extensions: fields.extensions,
      series: seriesRows,
      attachmentCount: attachments,
      coExamIds: others,
      aiResult: fields.aiResult ?? null,
      actions: [...actions].filter((a) => EXAM_ACTIONS.has(a)).sort(),
    };
  }

  /**
   * POST exams/{id}: the editable fields (spec 000 §3). Private fields need them shown unmasked
   * to the caller too (contracts privateFieldsMasked: nobody edits what they cannot see); extension values must fit the organization's configs;
   * the patient-class identifiers follow the patient source. Audited with the changed field names.
   */
  async update(actor: Actor, examId: string, input: ExamUpdate): Promise<ExamDetail> {
    const before = await this.liveRow(examId, actor.bucket);
    const fields = await store.examFields(this.db, examId);
    if (!fields) throw errors.notFound('Exam');
    const privateOnes = privateFieldsIn(input);
    // Nobody edits what they cannot see: private fields only where they show unmasked.
    if (privateOnes.length > 0 && examMasked(actor.access, actor.bucket, before)) {
      throw errors.forbidden('view_privacy');
    }
    const change: store.ExamChange = {};
    const { extensions, patientSource, ...plain } = input;
    for (const [key, value] of Object.entries(plain)) {
      if (!['inpatientId', 'outpatientId', 'bedNum', 'physicalExamId'].includes(key)) {
        (change as Record<string, unknown>)[key] = value;
      }
    }
    const source = patientSource ?? fields.patientSource;
    if (patientSource !== undefined) change.patientSource = patientSource;
    Object.assign(change, classKeyChanges(source, input));
    if (input.patientName !== undefined) change.patientNamePinyin = nameInitials(input.patientName);
    if (extensions !== undefined) {
      const configs = (await store.dictionaryItems(this.db, actor.bucket.id, 'extension-configs')).filter(
        (c) => c.data.scope !== 'report',
      );
      const merged = { ...fields.extensions, ...extensions };
      const problems = extensionProblems(configs, extensions);
      const missing = missingRequired(configs, merged);
      if (Object.keys(problems).length > 0 || missing.length > 0) {
        throw errors.validation('Some extension values do not fit the organization’s extensions', {
          extensions: problems,
          required: missing,
        });
      }
      change.extensions = Object.fromEntries(Object.entries(merged).filter(([, v]) => v !== ''));
    }
    const changed = Object.keys(change).filter((k) => k !== 'patientNamePinyin');
    if (changed.length > 0) {
      await this.db.transaction(async (tx) => {
        if (!(await store.updateExam(tx, examId, { ...change, updated: this.clock.now() }))) {
          throw errors.notFound('Exam');
        }
        await writeAudit(tx, actor.ctx, {
          action: 'exam.update',
          outcome: 'success',
          category: privateOnes.length > 0 ? 'phi' : 'operation',
          actorId: actor.account.id,
          actorUsername: actor.account.username,
          bucketId: actor.bucket.id,
          targetType: 'exam',
          targetId: examId,
          patientId: before.patientId,
          details: { fields: changed },
        });
      });
    }
    return this.detail(actor, examId);
  }

  /** Of the caller's organizations among `bucketIds` where it sees exams, who may write reports (report_upsert). */
  async reporters(account: AccountRow, bucketIds: string[]): Promise<Reporter[]> {
    const access = await loadCallerAccess(this.db, account.id);
    const facts = await findBucketsFacts(this.db, [...new Set(bucketIds)]);
    const visible = facts.filter((b) => effectiveActions(access, b).has('exam_get')).map((b) => b.id);
    const people = await store.membersWithAccess(this.db, visible);
    return people
      .map((p) => ({
        id: p.id,
        username: p.username,
        name: p.name,
        bucketIds: visible.filter((b) => {
          const f = p.facts.get(b);
          return f !== undefined && effectiveActions(p.access, f).has('report_upsert');
        }),
      }))
      .filter((p) => p.bucketIds.length > 0)
      .sort((a, b) => a.name.localeCompare(b.name, 'zh-Hans-CN') || a.username.localeCompare(b.username));
  }

  /** Accounts that may report in this bucket. */
  async reportersOf(bucketId: string): Promise<Set<string>> {
    const people = await store.membersWithAccess(this.db, [bucketId]);
    return new Set(
      people
        .filter((p) => {
          const f = p.facts.get(bucketId);
          return f !== undefined && effectiveActions(p.access, f).has('report_upsert');
        })
        .map((p) => p.id),
    );
  }

  /** POST reports/{id}/assign and assign-remove (a report's id is its primary exam's id). */
  async assign(actor: Actor, examId: string, accountId: string | null) {
    const row = await this.liveRow(examId, actor.bucket);
    if (accountId !== null && !(await this.reportersOf(actor.bucket.id)).has(accountId)) {
      throw errors.validation('Only a member who may write reports in this organization can be assigned', {
        accountId,
      });
    }
    await this.db.transaction(async (tx) => {
      if (!(await store.setAssignee(tx, examId, accountId, this.clock.now()))) throw errors.notFound('Exam');
    });
    await this.audit(actor, accountId ? 'exam.assign' : 'exam.unassign', examId, {
      from: row.assigneeId,
      to: accountId,
    });
    return {
      id: examId,
      assigneeId: accountId,
      assigneeName: accountId ? await store.accountName(this.db, accountId) : null,
    };
  }

  private async tags(examId: string): Promise<ExamTag[]> {
    return (await store.examTagList(this.db, examId)).map((t) => ({
      id: t.id,
      name: t.name,
      color: typeof t.data.color === 'string' ? t.data.color : null,
    }));
  }

  /** POST reports/{id}/tags {tagId}: one of the organization's tags; adding it twice changes nothing. */
  async addTag(actor: Actor, examId: string, tagId: string): Promise<ExamTag[]> {
    await this.liveRow(examId, actor.bucket);
    const [tag] = await store.dictionaryItems(this.db, actor.bucket.id, 'tags', [tagId]);
    if (!tag) throw errors.validation('Not a tag of this organization', { tagId });
    const current = await this.tags(examId);
    if (!current.some((t) => t.id === tagId)) {
      if (current.length >= MAX_TAGS_PER_EXAM) {
        throw errors.validation(`An exam has at most ${MAX_TAGS_PER_EXAM} tags`, { limit: MAX_TAGS_PER_EXAM });
      }
      await store.addExamTag(this.db, examId, tagId, this.clock.now());
      await this.audit(actor, 'exam.tag_add', examId, { tagId });
    }
    return this.tags(examId);
  }

  /** DELETE reports/{id}/tags/{tagId} */
  async removeTag(actor: Actor, examId: string, tagId: string): Promise<ExamTag[]> {
    await this.liveRow(examId, actor.bucket);
    if (!(await store.removeExamTag(this.db, examId, tagId))) throw errors.notFound('Tag');
    await this.audit(actor, 'exam.tag_remove', examId, { tagId });
    return this.tags(examId);
  }

  /** GET exams/{id}/co-exams: the co-written set this exam is in, primary first; masked and audited like the list. */
  async coExams(actor: Actor, examId: string): Promise<{ primaryExamId: string; exams: ExamItem[] }> {
    await this.liveRow(examId, actor.bucket);
    const primary = await store.primaryOf(this.db, examId);
    const ids = [primary, ...(await store.coExamIds(this.db, primary))];
    const rows = (await Promise.all(ids.map((id) => listStore.examRow(this.db, id)))).filter(
      (r): r is NonNullable<typeof r> => r !== undefined && r.deletedTime === null && r.bucketId === actor.bucket.id,
    );
    const privacy = new Map([[actor.bucket.id, privacyOf(actor.access, actor.bucket)]]);
    return {
      primaryExamId: primary,
      exams: await this.list.present(actor.account, rows, privacy, actor.ctx, 'exam.co_exams'),
    };
  }

  /**
   * POST reports/{id}/co-exams/add {examIds}: other live exams of the same patient in the same
   * organization are reported together with this one, for good (spec 000 §4: cannot be undone).
   * An exam already in a co-written set, or leading one, is a CoExamConflict naming it.
   */
  async addCoExams(actor: Actor, examId: string, examIds: string[]) {
    const row = await this.liveRow(examId, actor.bucket);
    const wanted = [...new Set(examIds)];
    if (wanted.includes(examId)) throw errors.validation('An exam cannot be co-written with itself', { examId });
    // A consultation's copy the caller takes no part in is not there for it (exams.copy-gate.ts).
    const hidden = await hiddenConsultationCopies(this.db, actor.account, [actor.bucket.id]);
    if (wanted.some((id) => hidden.includes(id))) throw errors.notFound('Exam');
    // The experts' report published back here covers its exam alone: it neither takes nor joins others.
    for (const id of [examId, ...wanted]) await this.reportGate.refuseReadOnly(id, actor.bucket.id);
    await this.db.transaction(async (tx) => {
      const found = await store.liveExamsIn(tx, actor.bucket.id, wanted);
      const missing = wanted.filter((id) => !found.some((f) => f.id === id));
      if (missing.length > 0) throw errors.notFound('Exam');
      const otherPatient = found.filter((f) => !row.patientId || f.patientId !== row.patientId).map((f) => f.id);
      if (otherPatient.length > 0) {
        throw errors.validation('Co-written exams must be of the same patient (patient ID)', { examIds: otherPatient });
      }
      if ((await store.primaryOf(tx, examId)) !== examId) {
        throw new AppError('CoExamConflict', 'This exam is already reported together with another exam', {
          examIds: [examId],
        });
      }
      const taken = await store.alreadyCombined(tx, wanted);
      if (taken.length > 0) {
        throw new AppError('CoExamConflict', 'Some exams are already reported together with another exam', {
          examIds: taken,
        });
      }
      await store.insertCoExams(tx, examId, wanted, actor.account.id, this.clock.now());
    });
    await this.audit(actor, 'exam.co_exams_add', examId, { examIds: wanted });
    return this.coExams(actor, examId);
  }
}
