import type { z } from 'zod';
import {
  hospitalDate,
  type ExamStatus,
  type registryQuerySchema,
  type Registration,
  type RegistryBucket,
  type RegistryPage,
  type ScheduledExam,
} from '@yyp/contracts';
import type { AccountRow, RegistrationRow, RegistryPatientRow, ScheduledExamRow } from '../../db/schema.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { errors } from '../../platform/errors.js';
import type { ExamListService } from '../exams/index.js';
import { findGroup } from '../groups/index.js';
import { bucketsByIds } from '../organizations/index.js';
import { DESK_ACTIONS, DeskAccess, type DeskCaller } from './registry.access.js';
import { presentPatient, presentRegistryRow, presentScheduledExam } from './registry.presenter.js';
import {
  checkPatient,
  deskFields,
  registerPatient,
  planExams,
  resolvePatient,
  scheduleChanged,
  stripIdentity,
  type CreateInput,
  type UpdateInput,
} from './registration.js';
import { allow, allowOrDeny, applyTo, raced } from './registry.moves.js';
import { deskAudit, present, presentExam } from './registry.record.js';
import { findRegistrationByExternalOrder } from './registry-orders.store.js';
import * as store from './registry.store.js';

type QueryInput = z.output<typeof registryQuerySchema>;

/** What arrival hands on (the calling capability checks the patient into the organization's queue). */
export type ArrivalHook = (arrived: {
  bucketId: string;
  scheduledExam: ScheduledExam;
  patientName: string;
}) => Promise<void>;

/** What an undone arrival hands on (the calling capability takes the exam out of today's queue). */
export type ArrivalUndoneHook = (undone: { bucketId: string; scheduledExamId: string }) => Promise<void>;

/** The statuses of a patient who came (arrived, or performed at once); leaving them undoes the arrival. */
const CAME: ReadonlySet<string> = new Set<ExamStatus>(['Arrived', 'Performed']);

/**
 * The front desk (issue 22): registrations and their scheduled exams, moved only as
 * contracts/registry-rules.ts's machine allows; every write and every list of patients is audited.
 */
export class RegistryService {
  private readonly access: DeskAccess;
  private readonly arrivalHooks: ArrivalHook[] = [];
  private readonly undoneHooks: ArrivalUndoneHook[] = [];

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly examList: ExamListService,
  ) {
    this.access = new DeskAccess(db);
  }

  /** Called after each arrival (the calling module's queue check-in). */
  onArrival(hook: ArrivalHook): void {
    this.arrivalHooks.push(hook);
  }

  /** Called after the desk's change commits for each scheduled exam that left Arrived/Performed (cancelled arrival). */
  onArrivalUndone(hook: ArrivalUndoneHook): void {
    this.undoneHooks.push(hook);
  }

  /** GET registry-buckets: the organizations where the caller works at the desk. */
  async buckets(account: AccountRow): Promise<RegistryBucket[]> {
    const found = await this.access.deskBuckets(account);
    const rows = await bucketsByIds(
      this.db,
      found.map((f) => f.bucket.id),
    );
    const groups = new Map<string, string>();
    for (const groupId of new Set(rows.map((r) => r.groupId))) {
      groups.set(groupId, (await findGroup(this.db, groupId))?.displayName ?? '');
    }
    const held = new Map(found.map((f) => [f.bucket.id, f.actions]));
    return rows.map((b) => ({
      id: b.id,
      name: b.name,
      groupId: b.groupId,
      groupName: groups.get(b.groupId) ?? '',
      actions: [...(held.get(b.id) ?? [])].filter((a) => a.startsWith('registry_') || a === 'exam_delete').sort(),
    }));
  }

  /** POST buckets/{id}/registry/query */
  async query(caller: DeskCaller, bucketId: string, query: QueryInput): Promise<RegistryPage> {
    await this.access.require(caller, bucketId, DESK_ACTIONS);
    const { rows, count } = await store.queryRegistry(this.db, bucketId, query);
    await deskAudit(this.db, caller, 'registry.query', bucketId, undefined, {
      details: { q: query.q || null, statuses: query.statuses, results: rows.length },
    });
    return { items: rows.map(presentRegistryRow), count };
  }

  /** POST registry: a registration with its scheduled exams (Scheduled; Arrived at once for a walk-in). */
  async create(caller: DeskCaller, input: CreateInput): Promise<Registration> {
    const { bucket, actions } = await this.access.require(caller, input.bucketId, ['registry_create']);
    if (input.arrive && !actions.has('registry_arrive')) {
      return this.access.deny(caller, bucket.id, ['registry_arrive'], 'forbidden');
    }
    await checkPatient(this.db, input.patient);
    const today = hospitalDate(this.clock.now());
    const planned = await planExams(this.db, bucket.id, input.exams, today, new Map());
    const now = this.clock.now();
    const { registration, patient, exams } = await this.db.transaction(async (tx) => {
      const { patient, registration } = await registerPatient(
        tx,
        bucket,
        input.patient,
        { source: 'internal', createdBy: caller.account.id, ...deskFields(input) },
        now,
      );
      let exams = await store.insertScheduledExams(
        tx,
        planned.map((p) => ({ ...p, registrationId: registration.id, bucketId: bucket.id, status: 'Scheduled' })),
        now,
      );
      if (input.arrive) {
        exams = await Promise.all(exams.map((e) => applyTo(tx, e, 'arrive', caller.account.id, now)));
      }
      await deskAudit(this.db, caller, 'registry.create', bucket.id, patient, {
        db: tx,
        targetId: registration.id,
        details: { exams: exams.map((e) => e.accessionNumber), arrived: input.arrive },
      });
      return { registration, patient, exams };
    });
    if (input.arrive) for (const e of exams) await this.afterArrival(e, patient);
    return present(this.db, registration, patient, exams);
  }

  /** PUT registry: the registration as edited, at the version it was read. */
  async update(caller: DeskCaller, input: UpdateInput): Promise<Registration> {
    const current = await store.findRegistration(this.db, input.id);
    if (!current) throw errors.notFound('Registration');
    const { bucket, actions } = await this.access.require(caller, current.bucketId, ['registry_update']);
    await checkPatient(this.db, input.patient);
    const existing = await store.scheduledExamsOf(this.db, [current.id]);
    const byId = new Map(existing.map((e) => [e.id, e]));
    for (const e of input.exams) {
      if (e.id && !byId.has(e.id)) {
        throw errors.validation('A scheduled exam of another registration', { field: 'exams' });
      }
    }
    const kept = new Set(input.exams.map((e) => e.id).filter(Boolean));
    const removed = existing.filter((e) => !kept.has(e.id));
    const person = { kind: 'person' as const, actions };
    for (const e of removed) allow(e, 'delete', person);
    const today = hospitalDate(this.clock.now());
    const planned = await planExams(this.db, bucket.id, input.exams, today, byId);
    const now = this.clock.now();
    const result = await this.db.transaction(async (tx) => {
      const registration = await store.updateRegistration(tx, current.id, input.version, deskFields(input), now);
      if (!registration) throw errors.conflict('The registration was changed by someone else; reload it');
      const patient = await resolvePatient(tx, current.groupId, { ...input.patient, id: current.patientRef }, now);
      for (const e of removed) {
        if (!(await store.deleteScheduledExam(tx, e.id, e.status as ExamStatus))) throw raced();
      }
      const fresh: ScheduledExamRow[] = [];
      for (const [i, p] of planned.entries()) {
        const id = input.exams[i]!.id;
        const before = id ? byId.get(id) : undefined;
        if (!before) {
          fresh.push(
            ...(await store.insertScheduledExams(
              tx,
              [{ ...p, registrationId: current.id, bucketId: bucket.id, status: 'Scheduled' }],
              now,
            )),
          );
          continue;
        }
        const reschedules = scheduleChanged(before, p);
        const outcome = allow(before, reschedules ? 'schedule' : 'update', person);
        const changes = reschedules
          ? { ...p, status: outcome.to! }
          : { bodyPart: p.bodyPart, studyDesc: p.studyDesc, bodyPartCount: p.bodyPartCount };
        const moved = await store.transitionScheduledExam(
          tx,
          before.id,
          before.status as ExamStatus,
          stripIdentity(changes),
          now,
        );
        if (!moved) throw raced();
        fresh.push(moved);
      }
      await deskAudit(this.db, caller, 'registry.update', bucket.id, patient, {
        db: tx,
        targetId: current.id,
        details: { removed: removed.map((e) => e.accessionNumber), exams: fresh.map((e) => e.accessionNumber) },
      });
      return { registration, patient, exams: fresh };
    });
    return present(this.db, result.registration, result.patient, result.exams);
  }

  /** POST registry/arrive: the arrival of several scheduled exams (all or none). */
  async arrive(caller: DeskCaller, ids: string[]): Promise<ScheduledExam[]> {
    return this.actOnMany(caller, ids, 'arrive');
  }

  /** POST registry/exam/confirm, POST scheduled-exams/{id}/confirm: performed, confirmed by hand. */
  async confirm(caller: DeskCaller, ids: string[]): Promise<ScheduledExam[]> {
    return this.actOnMany(caller, ids, 'confirm');
  }

  /** POST registry/exam/status, POST scheduled-exams/{id}/revoke: one desk action on one scheduled exam. */
  async act(
    caller: DeskCaller,
    id: string,
    action: 'arrive' | 'cancelArrival' | 'revoke' | 'confirm',
    reason = '',
  ): Promise<ScheduledExam> {
    if (action === 'revoke' && !reason) throw errors.validation('A reason is required to revoke', { field: 'reason' });
    const exam = await store.findScheduledExam(this.db, id);
    if (!exam) throw errors.notFound('Scheduled exam');
    const { bucket, actions } = await this.access.require(caller, exam.bucketId, DESK_ACTIONS);
    const outcome = allowOrDeny(exam, action, actions);
    if (!outcome.ok) return this.access.deny(caller, bucket.id, outcome.needs, 'forbidden');
    const now = this.clock.now();
    if (outcome.deletesExam && exam.examId) {
      // The exam and its report go to the recycle bin (recoverable for 30 days), audited there.
      await this.examList.softDelete(caller.account, bucket, exam.examId, caller.ctx).catch((err: unknown) => {
        if (!(err instanceof Error && 'code' in err && (err as { code: string }).code === 'NotFound')) throw err;
      });
    }
    const moved = await this.db.transaction(async (tx) => {
      const row = await applyTo(tx, exam, action, caller.account.id, now, reason);
      const registration = await store.findRegistration(tx, exam.registrationId);
      const patient = registration ? await store.findPatientById(tx, registration.patientRef) : undefined;
      await deskAudit(this.db, caller, `registry.${action}`, bucket.id, patient, {
        db: tx,
        targetId: exam.id,
        details: {
          accessionNumber: exam.accessionNumber,
          from: exam.status,
          to: row.status,
          ...(reason ? { reason } : {}),
          ...(outcome.deletesExam ? { deletedExam: exam.examId } : {}),
        },
      });
      return { row, patient };
    });
    if (action === 'arrive' && moved.patient) await this.afterArrival(moved.row, moved.patient);
    if (CAME.has(exam.status) && !CAME.has(moved.row.status)) {
      for (const hook of this.undoneHooks) await hook({ bucketId: exam.bucketId, scheduledExamId: exam.id });
    }
    return presentExam(this.db, moved.row);
  }

  /** DELETE scheduled-exams/{id}: a scheduled exam not yet arrived; its registration goes with its last one. */
  async remove(caller: DeskCaller, id: string): Promise<void> {
    const exam = await store.findScheduledExam(this.db, id);
    if (!exam) throw errors.notFound('Scheduled exam');
    const { bucket, actions } = await this.access.require(caller, exam.bucketId, DESK_ACTIONS);
    const outcome = allowOrDeny(exam, 'delete', actions);
    if (!outcome.ok) return this.access.deny(caller, bucket.id, outcome.needs, 'forbidden');
    await this.db.transaction(async (tx) => {
      if (!(await store.deleteScheduledExam(tx, exam.id, exam.status as ExamStatus))) throw raced();
      await store.deleteEmptyRegistration(tx, exam.registrationId);
      await deskAudit(this.db, caller, 'registry.delete', bucket.id, undefined, {
        db: tx,
        targetId: exam.id,
        details: { accessionNumber: exam.accessionNumber, status: exam.status },
      });
    });
  }

  /** GET registry/findbyorderid: one registration with its scheduled exams. */
  /**
   * GET registry/findbyorderid: the registration (the order) by its own id, else by the order id a
   * placing system gave it (POST service-order) in the organizations the caller works at.
   */
  async findByOrderId(caller: DeskCaller, id: string): Promise<Registration> {
    const registration =
      (await store.findRegistration(this.db, id)) ??
      (await findRegistrationByExternalOrder(
        this.db,
        (await this.access.deskBuckets(caller.account)).map((d) => d.bucket.id),
        id,
      ));
    if (!registration) throw errors.notFound('Registration');
    await this.access.require(caller, registration.bucketId, DESK_ACTIONS);
    return this.read(caller, registration);
  }

  /** GET pass-codes/{code}: the registration a label's or referral form's code names. */
  async byPassCode(caller: DeskCaller, code: string): Promise<Registration> {
    const registration = await store.findRegistrationByPassCode(this.db, code.trim().toUpperCase());
    if (!registration) throw errors.notFound('Registration');
    const found = await this.access.actionsIn(caller.account, registration.bucketId);
    if (!found || !DESK_ACTIONS.some((a) => found.actions.has(a))) throw errors.notFound('Registration');
    return this.read(caller, registration);
  }

  /* ---------- patients ---------- */

  /** POST patients/query: the patients of the organization's group. */
  async patients(caller: DeskCaller, bucketId: string, q: string, page: { skip: number; limit: number }) {
    const { bucket } = await this.access.require(caller, bucketId, DESK_ACTIONS);
    const { rows, count } = await store.queryPatients(this.db, [bucket.groupId], q, page);
    await deskAudit(this.db, caller, 'registry.patients', bucket.id, undefined, {
      details: { q: q || null, results: rows.length },
    });
    return { patients: rows.map(presentPatient), count };
  }

  /** GET patients/{id}/past: the patient's registrations in the organizations where the caller works at the desk. */
  async past(caller: DeskCaller, patientRef: string): Promise<Registration[]> {
    const patient = await store.findPatientById(this.db, patientRef);
    if (!patient) throw errors.notFound('Patient');
    const desks = (await this.access.deskBuckets(caller.account)).filter((d) => d.bucket.groupId === patient.groupId);
    if (desks.length === 0) throw errors.notFound('Patient');
    const registrations = await store.registrationsOfPatient(
      this.db,
      patient.id,
      desks.map((d) => d.bucket.id),
    );
    const exams = await store.scheduledExamsOf(
      this.db,
      registrations.map((r) => r.id),
    );
    await deskAudit(this.db, caller, 'registry.past', desks[0]!.bucket.id, patient, {
      details: { registrations: registrations.length },
    });
    return Promise.all(
      registrations.map((r) =>
        present(
          this.db,
          r,
          patient,
          exams.filter((e) => e.registrationId === r.id),
        ),
      ),
    );
  }

  private async actOnMany(caller: DeskCaller, ids: string[], action: 'arrive' | 'confirm'): Promise<ScheduledExam[]> {
    const unique = [...new Set(ids)];
    const exams = await store.findScheduledExams(this.db, unique);
    if (exams.length !== unique.length) throw errors.notFound('Scheduled exam');
    const byBucket = new Map<string, Set<string>>();
    for (const bucketId of new Set(exams.map((e) => e.bucketId))) {
      byBucket.set(bucketId, (await this.access.require(caller, bucketId, DESK_ACTIONS)).actions);
    }
    for (const e of exams) {
      const outcome = allowOrDeny(e, action, byBucket.get(e.bucketId)!);
      if (!outcome.ok) return this.access.deny(caller, e.bucketId, outcome.needs, 'forbidden');
    }
    const now = this.clock.now();
    const moved = await this.db.transaction(async (tx) => {
      const out: { row: ScheduledExamRow; patient?: RegistryPatientRow }[] = [];
      for (const e of exams) {
        const row = await applyTo(tx, e, action, caller.account.id, now);
        const registration = await store.findRegistration(tx, e.registrationId);
        const patient = registration ? await store.findPatientById(tx, registration.patientRef) : undefined;
        await deskAudit(this.db, caller, `registry.${action}`, e.bucketId, patient, {
          db: tx,
          targetId: e.id,
          details: { accessionNumber: e.accessionNumber, from: e.status, to: row.status },
        });
        out.push({ row, patient });
      }
      return out;
    });
    if (action === 'arrive') for (const m of moved) if (m.patient) await this.afterArrival(m.row, m.patient);
    return Promise.all(moved.map((m) => presentExam(this.db, m.row)));
  }

  private async afterArrival(row: ScheduledExamRow, patient: RegistryPatientRow): Promise<void> {
    for (const hook of this.arrivalHooks) {
      await hook({ bucketId: row.bucketId, scheduledExam: presentScheduledExam(row), patientName: patient.name });
    }
  }

  private async read(caller: DeskCaller, registration: RegistrationRow): Promise<Registration> {
    const patient = await store.findPatientById(this.db, registration.patientRef);
    if (!patient) throw errors.notFound('Registration');
    const exams = await store.scheduledExamsOf(this.db, [registration.id]);
    await deskAudit(this.db, caller, 'registry.get', registration.bucketId, patient, { targetId: registration.id });
    return present(this.db, registration, patient, exams);
  }
}
