import {
  MAX_MATCH_CANDIDATES,
  REGISTRY_ACTION_NEEDS,
  registryActionNeeds,
  registryTarget,
  type BindCode,
  type ExamStatus,
  type MatchCandidate,
  type MatchResult,
} from '@yyp/contracts';
import type { AccountRow, RegistrationRow, RegistryPatientRow, ScheduledExamRow } from '../../db/schema.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import type { BlobStore } from '../../platform/blobs.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { errors } from '../../platform/errors.js';
import {
  applyRegistrationFields,
  auditExam,
  bindImages,
  findBindableExam,
  lockBindableExam,
  takeScheduledIdentity,
  type BindableExam,
  type RegistrationFields,
} from '../exams/index.js';
import { DeskAccess } from './registry.access.js';
import { statusRefusal } from './registry.moves.js';
import * as store from './registry-match.store.js';

/** Who asks, with the actions the route's authorization found in the exam's organization. */
export interface MatchCaller {
  account: AccountRow;
  actions: ReadonlySet<string>;
  /** the group of the exam's organization (its registry may be turned off) */
  groupId: string;
  ctx: AuditContext;
}

type Found = NonNullable<Awaited<ReturnType<typeof store.scheduledWithRegistration>>>;

/** The desk's fields an exam takes from its registration (as on store, registry-dicom.service.ts). */
function registrationFields(row: ScheduledExamRow, r: RegistrationRow, p: RegistryPatientRow): RegistrationFields {
  return {
    patientSource: r.patientSource,
    inpatientId: r.inpatientId,
    outpatientId: r.outpatientId,
    bedNum: r.bedNum,
    physicalExamId: r.physicalExamId,
    patientPhone: p.phone,
    applyDept: r.applyDept,
    orderPlacer: r.orderPlacer,
    clinicImpression: r.clinicImpression,
    urgentFlag: r.urgent,
    bodyPartCount: row.bodyPartCount,
    weight: r.weight,
    height: r.height,
    extensions: row.extensions,
  };
}

/**
 * Image binding (contracts binding.ts; issue 22): a study that arrived without its scheduled exam
 * is tied to one by hand. `match` is the desk's (the machine's 'match', registry_arrive); `bind`
 * is the admins' (exam_bind), which may also replace the images of the exam a scheduled exam
 * holds, confirmed by typing its accession number. Every write is one transaction; replaced files
 * are deleted after it commits.
 */
export class RegistryMatch {
  private readonly access: DeskAccess;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly blobs: BlobStore,
    private readonly calledAeTitle: string,
  ) {
    this.access = new DeskAccess(db);
  }

  /** GET exams/{id}/schedules: for the desk (registry_arrive) and for admins (exam_bind). */
  async candidates(caller: MatchCaller, examId: string, q: string | undefined): Promise<MatchCandidate[]> {
    const exam = await this.exam(examId);
    const needs = ['exam_bind', REGISTRY_ACTION_NEEDS.match];
    if (!needs.some((a) => caller.actions.has(a))) return this.access.deny(caller, exam.bucketId, needs, 'forbidden');
    if (!caller.actions.has('exam_bind')) await this.deskOpen(caller, exam.bucketId);
    const rows = await store.matchCandidates(this.db, exam.bucketId, exam.id, q, MAX_MATCH_CANDIDATES);
    await auditExam(this.db, caller.ctx, caller.account, 'exam.match_candidates', exam, {
      patientId: exam.patientId,
      details: { q: q ?? null, results: rows.length },
    });
    return rows.map(({ exam: s, patient, heldInstances }) => ({
      id: s.id,
      status: s.status as ExamStatus,
      accessionNumber: s.accessionNumber,
      modality: s.modality,
      procedureName: s.procedureName,
      studyDesc: s.studyDesc,
      scheduledDate: s.scheduledDate,
      scheduledTime: s.scheduledTime,
      patientName: patient.name,
      patientId: patient.patientId,
      patientGender: patient.gender,
      patientBirthDate: patient.birthDate,
      examId: s.examId,
      instanceCount: s.examId ? (heldInstances ?? 0) : 0,
      created: s.created.toISOString(),
    }));
  }

  /**
   * POST exams/{id}/schedules/{scheduledId}: the exam becomes the scheduled exam's exam, takes its
   * registration, and the scheduled exam is Performed (the machine's 'match'). A scheduled exam
   * Performed without images (confirmed by hand) is only tied, as a study stored after the
   * modality's MPPS "completed" is. One that holds an exam already is refused: bind replaces.
   */
  async match(caller: MatchCaller, examId: string, scheduledId: string): Promise<MatchResult> {
    const { exam, found } = await this.pair(examId, scheduledId);
    if (found.exam.examId) {
      throw errors.conflict('This scheduled exam has its images already; binding replaces them');
    }
    return this.tie(caller, exam, found, 'registry.match');
  }

  /**
   * POST exams/{id}/match/{scheduledId}: as match when the scheduled exam holds no exam; otherwise
   * these images replace that exam's images and what was derived from them, the exam keeps its
   * registration and report, and the emptied exam {id} goes. `confirm` must be the scheduled
   * exam's accession number; a wrong one changes nothing and is audited as a security event.
   */
  async bind(caller: MatchCaller, examId: string, scheduledId: string, confirm: string): Promise<MatchResult> {
    const { exam, found } = await this.pair(examId, scheduledId);
    const target = found.exam;
    if (confirm.trim() !== target.accessionNumber) {
      await this.security(caller, exam, 'exam.bind.refused', 'denied', { scheduledId, reason: 'confirm' });
      throw errors.validation('Type the accession number of the scheduled exam to confirm', { field: 'confirm' });
    }
    if (!target.examId) return this.tie(caller, exam, found, 'registry.bind');
    // Binding removes the emptied exam {id}; a report written on it would go with it unseen.
    if (exam.reportStatus !== 'none') {
      throw errors.conflict('This exam has a report; binding would delete it. Delete the report first');
    }
    const into = await findBindableExam(this.db, target.examId);
    if (!into) throw errors.conflict('The exam of this scheduled exam was deleted; restore it first');
    const now = this.clock.now();
    const keys = await this.db.transaction(async (tx) => {
      if (!(await lockBindableExam(tx, exam.id))) throw errors.notFound('Exam');
      // The scheduled exam still holds that exam (nobody rebound it meanwhile): touched only to say so.
      const held = await store.moveScheduledExam(
        tx,
        target.id,
        { status: target.status as ExamStatus, examId: into.id },
        {},
        now,
      );
      if (!held) throw errors.conflict('The scheduled exam was changed by someone else; reload it');
      const replaced = await bindImages(tx, into.id, exam.id, now);
      await auditExam(tx, caller.ctx, caller.account, 'exam.bind', into, {
        patientId: into.patientId || exam.patientId,
        details: {
          from: exam.id,
          scheduledId: target.id,
          accessionNumber: target.accessionNumber,
          storeUid: exam.storeUid,
          replacedStoreUid: into.hasImage ? into.storeUid : null,
          replacedInstances: into.instanceCount,
        },
      });
      await this.security(
        caller,
        into,
        'exam.bind.replaced',
        'success',
        { from: exam.id, scheduledId: target.id, replacedInstances: into.instanceCount },
        tx,
      );
      return replaced;
    });
    for (const key of keys) await this.blobs.delete(key).catch(() => undefined);
    const bound = (await findBindableExam(this.db, into.id))!;
    return this.result(bound, target, target.status as ExamStatus, into.instanceCount);
  }

  /** GET buckets/{id}/bind-code (contracts bindCodeSchema). */
  async bindCode(bucketId: string): Promise<BindCode> {
    const facts = await store.bindCodeFacts(this.db, bucketId);
    if (!facts) throw errors.notFound('Organization');
    return {
      bucketId,
      code: facts.code,
      calledAeTitle: this.calledAeTitle,
      deviceAeTitles: facts.aeTitles,
      uploadPath: facts.uploadToken ? `/upload?token=${facts.uploadToken}` : null,
    };
  }

  private async exam(examId: string): Promise<BindableExam> {
    const exam = await findBindableExam(this.db, examId);
    if (!exam) throw errors.notFound('Exam');
    return exam;
  }

  /** The exam with its images and a scheduled exam of the same organization, or 404 / 400 / 409. */
  private async pair(examId: string, scheduledId: string): Promise<{ exam: BindableExam; found: Found }> {
    const exam = await this.exam(examId);
    const found = await store.scheduledWithRegistration(this.db, scheduledId);
    // Another organization's scheduled exam is not there for this caller (spec 000 §5: binding
    // stays within the exam's organization).
    if (!found || found.exam.bucketId !== exam.bucketId) throw errors.notFound('Scheduled exam');
    if (found.exam.examId === exam.id) throw errors.conflict('These images are this scheduled exam’s already');
    if (!exam.hasImage || exam.instanceCount === 0) {
      throw errors.validation('This exam has no images to bind', { field: 'examId' });
    }
    const holder = await store.scheduledOfExam(this.db, exam.id);
    if (holder) {
      throw errors.conflict(`These images belong to scheduled exam ${holder.accessionNumber} already`);
    }
    if (found.exam.status === 'Cancelled') {
      throw errors.conflict('A cancelled scheduled exam takes no images');
    }
    return { exam, found };
  }

  /**
   * Ties the exam to a scheduled exam holding none: the machine's 'match' (Performed; one
   * Performed already, confirmed by hand or completed by its MPPS, stays so). The desk needs what the machine names for 'match'; an admin
   * binding (exam_bind, checked by the route) needs nothing more.
   */
  private async tie(
    caller: MatchCaller,
    exam: BindableExam,
    found: Found,
    action: 'registry.match' | 'registry.bind',
  ): Promise<MatchResult> {
    const row = found.exam;
    const from = row.status as ExamStatus;
    const to = registryTarget(from, 'match');
    if (!to) throw statusRefusal(row, 'match');
    const needs = registryActionNeeds(from, 'match');
    if (action === 'registry.match') {
      if (!needs.every((a) => caller.actions.has(a))) return this.access.deny(caller, row.bucketId, needs, 'forbidden');
      await this.deskOpen(caller, row.bucketId);
    }
    const now = this.clock.now();
    await this.db.transaction(async (tx) => {
      // The exam's row locked first: a second match of the same exam waits, then finds it tied.
      if (!(await lockBindableExam(tx, exam.id))) throw errors.notFound('Exam');
      if (await store.scheduledOfExam(tx, exam.id)) throw errors.conflict('These images were matched meanwhile');
      const moved = await store.moveScheduledExam(
        tx,
        row.id,
        { status: from, examId: null },
        { status: to, examId: exam.id, performedAt: row.performedAt ?? now, arrivedAt: row.arrivedAt ?? now },
        now,
      );
      if (!moved) throw errors.conflict('The scheduled exam was changed by someone else; reload it');
      await applyRegistrationFields(tx, exam.id, registrationFields(row, found.registration, found.patient), now);
      await takeScheduledIdentity(
        tx,
        exam.id,
        {
          patientName: found.patient.name,
          patientId: found.patient.patientId,
          patientGender: found.patient.gender,
          patientDob: found.patient.birthDate,
          accessionNumber: row.accessionNumber,
        },
        now,
      );
      await writeAudit(tx, caller.ctx, {
        action,
        category: 'phi',
        outcome: 'success',
        actorId: caller.account.id,
        actorUsername: caller.account.username,
        targetType: 'scheduled_exam',
        targetId: row.id,
        bucketId: row.bucketId,
        patientId: found.patient.patientId,
        details: { accessionNumber: row.accessionNumber, examId: exam.id, storeUid: exam.storeUid, from, to },
      });
    });
    const matched = (await findBindableExam(this.db, exam.id))!;
    return this.result(matched, row, to, 0);
  }

  /**
   * The desk's calls obey the group setting enableRegistry (registry.access.ts); an admin's bind
   * (exam_bind) repairs images of scheduled exams that exist whatever the setting.
   */
  private deskOpen(caller: MatchCaller, bucketId: string): Promise<void> {
    return this.access.requireOn(caller, bucketId, caller.groupId);
  }

  private result(exam: BindableExam, row: ScheduledExamRow, status: ExamStatus, replaced: number): MatchResult {
    return {
      examId: exam.id,
      scheduledId: row.id,
      status,
      accessionNumber: row.accessionNumber,
      storeUid: exam.storeUid,
      seriesCount: exam.seriesCount,
      instanceCount: exam.instanceCount,
      replacedInstances: replaced,
    };
  }

  private security(
    caller: MatchCaller,
    exam: { id: string; bucketId: string },
    action: string,
    outcome: 'success' | 'denied',
    details: Record<string, unknown>,
    db: Db = this.db,
  ) {
    return writeAudit(db, caller.ctx, {
      action,
      category: 'security',
      outcome,
      actorId: caller.account.id,
      actorUsername: caller.account.username,
      targetType: 'exam',
      targetId: exam.id,
      bucketId: exam.bucketId,
      details,
    });
  }
}
