import crypto from 'node:crypto';
import type { z } from 'zod';
import {
  hospitalDate,
  PATIENT_GENDERS,
  PET_GENDERS,
  registryTarget,
  registryTransition,
  type ExamStatus,
  type GroupSettings,
  type patientInputSchema,
  type registrationCreateSchema,
  type registrationUpdateSchema,
  type registryQuerySchema,
  type scheduledExamInputSchema,
  type Registration,
  type RegistryAction,
  type RegistryBucket,
  type RegistryPage,
  type ScheduledExam,
} from '@yyp/contracts';
import type { AccountRow, RegistrationRow, RegistryPatientRow, ScheduledExamRow } from '../../db/schema.js';
import { writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { errors } from '../../platform/errors.js';
import { nameInitials } from '../archive/index.js';
import { getDomainConfig } from '../domain/index.js';
import type { ExamListService } from '../exams/index.js';
import { findGroup } from '../groups/index.js';
import { bucketsByIds } from '../organizations/index.js';
import { proceduresByIds, devicesOf } from './procedures.store.js';
import { DESK_ACTIONS, DeskAccess, type DeskCaller } from './registry.access.js';
import { presentPatient, presentRegistration, presentRegistryRow, presentScheduledExam } from './registry.presenter.js';
import * as store from './registry.store.js';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type CreateInput = z.output<typeof registrationCreateSchema>;
type UpdateInput = z.output<typeof registrationUpdateSchema>;
type PatientFields = z.output<typeof patientInputSchema>;
type ExamFields = z.output<typeof scheduledExamInputSchema>;
type QueryInput = z.output<typeof registryQuerySchema>;

/** Letters and digits a person reads off a label without confusing them (no 0/O, 1/I/L). */
const PASS_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const randomFrom = (alphabet: string, n: number) =>
  Array.from(crypto.randomBytes(n), (b) => alphabet[b % alphabet.length]).join('');
/** A UID from a random UUID (PS3.5 B.2: 2.25.<the UUID as a decimal integer>). */
const uuidUid = () => `2.25.${BigInt(`0x${crypto.randomUUID().replace(/-/g, '')}`).toString()}`;

/** A birth date YYYYMMDD moved by whole years. */
const shiftYears = (dob: string, years: number) =>
  `${String(Number(dob.slice(0, 4)) + years).padStart(4, '0')}${dob.slice(4)}`;

/** What arrival hands on (the calling capability checks the patient into the organization's queue). */
export type ArrivalHook = (arrived: {
  bucketId: string;
  scheduledExam: ScheduledExam;
  patientName: string;
}) => Promise<void>;

/**
 * The front desk (issue 22): registrations and their scheduled exams, moved only as
 * contracts/registry-rules.ts's machine allows; every write and every list of patients is audited.
 */
export class RegistryService {
  private readonly access: DeskAccess;
  private readonly arrivalHooks: ArrivalHook[] = [];

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
    await this.audit(caller, 'registry.query', bucketId, undefined, {
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
    await this.checkPatient(input.patient);
    const today = hospitalDate(this.clock.now());
    const planned = await this.plan(bucket.id, input.exams, today, new Map());
    const now = this.clock.now();
    const { registration, patient, exams } = await this.db.transaction(async (tx) => {
      const patient = await this.resolvePatient(tx, bucket.groupId, input.patient, now);
      const registration = await this.insertRegistration(
        tx,
        {
          id: crypto.randomUUID(),
          groupId: bucket.groupId,
          bucketId: bucket.id,
          patientRef: patient.id,
          source: 'internal',
          createdBy: caller.account.id,
          ...deskFields(input),
        },
        now,
      );
      let exams = await store.insertScheduledExams(
        tx,
        planned.map((p) => ({ ...p, registrationId: registration.id, bucketId: bucket.id, status: 'Scheduled' })),
        now,
      );
      if (input.arrive) {
        exams = await Promise.all(exams.map((e) => this.applyTo(tx, e, 'arrive', caller.account.id, now)));
      }
      await this.audit(caller, 'registry.create', bucket.id, patient, {
        db: tx,
        targetId: registration.id,
        details: { exams: exams.map((e) => e.accessionNumber), arrived: input.arrive },
      });
      return { registration, patient, exams };
    });
    if (input.arrive) for (const e of exams) await this.afterArrival(e, patient);
    return this.present(registration, patient, exams);
  }

  /** PUT registry: the registration as edited, at the version it was read. */
  async update(caller: DeskCaller, input: UpdateInput): Promise<Registration> {
    const current = await store.findRegistration(this.db, input.id);
    if (!current) throw errors.notFound('Registration');
    const { bucket, actions } = await this.access.require(caller, current.bucketId, ['registry_update']);
    await this.checkPatient(input.patient);
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
    for (const e of removed) this.allow(e, 'delete', person);
    const today = hospitalDate(this.clock.now());
    const planned = await this.plan(bucket.id, input.exams, today, byId);
    const now = this.clock.now();
    const result = await this.db.transaction(async (tx) => {
      const registration = await store.updateRegistration(tx, current.id, input.version, deskFields(input), now);
      if (!registration) throw errors.conflict('The registration was changed by someone else; reload it');
      const patient = await this.resolvePatient(tx, current.groupId, { ...input.patient, id: current.patientRef }, now);
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
        const outcome = this.allow(before, reschedules ? 'schedule' : 'update', person);
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
      await this.audit(caller, 'registry.update', bucket.id, patient, {
        db: tx,
        targetId: current.id,
        details: { removed: removed.map((e) => e.accessionNumber), exams: fresh.map((e) => e.accessionNumber) },
      });
      return { registration, patient, exams: fresh };
    });
    return this.present(result.registration, result.patient, result.exams);
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
    const outcome = this.allowOrDeny(exam, action, actions);
    if (!outcome.ok) return this.access.deny(caller, bucket.id, outcome.needs, 'forbidden');
    const now = this.clock.now();
    if (outcome.deletesExam && exam.examId) {
      // The exam and its report go to the recycle bin (recoverable for 30 days), audited there.
      await this.examList.softDelete(caller.account, bucket, exam.examId, caller.ctx).catch((err: unknown) => {
        if (!(err instanceof Error && 'code' in err && (err as { code: string }).code === 'NotFound')) throw err;
      });
    }
    const moved = await this.db.transaction(async (tx) => {
      const row = await this.applyTo(tx, exam, action, caller.account.id, now, reason);
      const registration = await store.findRegistration(tx, exam.registrationId);
      const patient = registration ? await store.findPatientById(tx, registration.patientRef) : undefined;
      await this.audit(caller, `registry.${action}`, bucket.id, patient, {
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
    return this.presentExam(moved.row);
  }

  /** DELETE scheduled-exams/{id}: a scheduled exam not yet arrived; its registration goes with its last one. */
  async remove(caller: DeskCaller, id: string): Promise<void> {
    const exam = await store.findScheduledExam(this.db, id);
    if (!exam) throw errors.notFound('Scheduled exam');
    const { bucket, actions } = await this.access.require(caller, exam.bucketId, DESK_ACTIONS);
    const outcome = this.allowOrDeny(exam, 'delete', actions);
    if (!outcome.ok) return this.access.deny(caller, bucket.id, outcome.needs, 'forbidden');
    await this.db.transaction(async (tx) => {
      if (!(await store.deleteScheduledExam(tx, exam.id, exam.status as ExamStatus))) throw raced();
      await store.deleteEmptyRegistration(tx, exam.registrationId);
      await this.audit(caller, 'registry.delete', bucket.id, undefined, {
        db: tx,
        targetId: exam.id,
        details: { accessionNumber: exam.accessionNumber, status: exam.status },
      });
    });
  }

  /** GET registry/findbyorderid: one registration with its scheduled exams. */
  async findByOrderId(caller: DeskCaller, id: string): Promise<Registration> {
    const registration = await store.findRegistration(this.db, id);
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
    await this.audit(caller, 'registry.patients', bucket.id, undefined, {
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
    await this.audit(caller, 'registry.past', desks[0]!.bucket.id, patient, {
      details: { registrations: registrations.length },
    });
    return Promise.all(
      registrations.map((r) =>
        this.present(
          r,
          patient,
          exams.filter((e) => e.registrationId === r.id),
        ),
      ),
    );
  }

  /* ---------- the machine ---------- */

  private allow(
    exam: ScheduledExamRow,
    action: RegistryAction,
    actor: { kind: 'person'; actions: ReadonlySet<string> },
  ) {
    const outcome = registryTransition(exam.status as ExamStatus, action, actor, {
      imagingOptional: exam.imagingOptional,
    });
    if (outcome.ok) return outcome;
    if (outcome.refused === 'status') throw statusRefusal(exam, action);
    throw errors.forbidden((outcome.needs ?? []).join('|'));
  }

  /** The machine's word for a person: refused by status is a 409 for everyone; refused by permission names what is missing. */
  private allowOrDeny(exam: ScheduledExamRow, action: RegistryAction, actions: ReadonlySet<string>) {
    const outcome = registryTransition(
      exam.status as ExamStatus,
      action,
      { kind: 'person', actions },
      { imagingOptional: exam.imagingOptional },
    );
    if (!outcome.ok && outcome.refused === 'status') throw statusRefusal(exam, action);
    return outcome.ok ? outcome : { ok: false as const, needs: outcome.needs ?? [] };
  }

  /** Writes the machine's move of one scheduled exam (already allowed), guarded by its status. */
  private async applyTo(
    tx: Tx | Db,
    exam: ScheduledExamRow,
    action: RegistryAction,
    actorId: string,
    now: Date,
    reason = '',
  ): Promise<ScheduledExamRow> {
    const to = registryTarget(exam.status as ExamStatus, action, { imagingOptional: exam.imagingOptional });
    if (!to) throw statusRefusal(exam, action);
    const values: Partial<ScheduledExamRow> = { status: to };
    if (action === 'arrive') {
      Object.assign(values, { arrivedAt: now, arrivedBy: actorId }, to === 'Performed' ? { performedAt: now } : {});
      if (!exam.scheduledDate) values.scheduledDate = hospitalDate(now);
    } else if (action === 'cancelArrival') {
      Object.assign(values, {
        arrivedAt: null,
        arrivedBy: null,
        startedAt: null,
        performedAt: null,
        examId: null,
        discontinuedReason: '',
        mppsUid: null,
        mppsStatus: '',
      });
    } else if (action === 'confirm') {
      values.performedAt = now;
    } else if (action === 'revoke') {
      Object.assign(values, { cancelledAt: now, cancelReason: reason });
    }
    const row = await store.transitionScheduledExam(tx, exam.id, exam.status as ExamStatus, stripIdentity(values), now);
    if (!row) throw raced();
    return row;
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
      const outcome = this.allowOrDeny(e, action, byBucket.get(e.bucketId)!);
      if (!outcome.ok) return this.access.deny(caller, e.bucketId, outcome.needs, 'forbidden');
    }
    const now = this.clock.now();
    const moved = await this.db.transaction(async (tx) => {
      const out: { row: ScheduledExamRow; patient?: RegistryPatientRow }[] = [];
      for (const e of exams) {
        const row = await this.applyTo(tx, e, action, caller.account.id, now);
        const registration = await store.findRegistration(tx, e.registrationId);
        const patient = registration ? await store.findPatientById(tx, registration.patientRef) : undefined;
        await this.audit(caller, `registry.${action}`, e.bucketId, patient, {
          db: tx,
          targetId: e.id,
          details: { accessionNumber: e.accessionNumber, from: e.status, to: row.status },
        });
        out.push({ row, patient });
      }
      return out;
    });
    if (action === 'arrive') for (const m of moved) if (m.patient) await this.afterArrival(m.row, m.patient);
    return Promise.all(moved.map((m) => this.presentExam(m.row)));
  }

  private async afterArrival(row: ScheduledExamRow, patient: RegistryPatientRow): Promise<void> {
    for (const hook of this.arrivalHooks) {
      await hook({ bucketId: row.bucketId, scheduledExam: presentScheduledExam(row), patientName: patient.name });
    }
  }

  /* ---------- registration parts ---------- */

  /** The patient fields as the domain allows: pet genders and the animal only where the domain registers animals. */
  private async checkPatient(patient: PatientFields): Promise<void> {
    const { isPet } = await getDomainConfig(this.db);
    const genders: readonly string[] = isPet ? PET_GENDERS : PATIENT_GENDERS;
    if (!genders.includes(patient.gender)) {
      throw errors.validation(`Gender must be one of ${genders.join(', ')}`, { field: 'patient.gender' });
    }
    if (!isPet && patient.animal) {
      throw errors.validation('Animals are registered in pet domains only', { field: 'patient.animal' });
    }
    if (isPet && !patient.animal) throw errors.validation('The animal is required', { field: 'patient.animal' });
  }

  /**
   * The scheduled exams' rows as registered: the procedure's name, code, modality and station,
   * the device's AE title, new identifiers for new exams. A date before the hospital's today is
   * refused unless it is the exam's unchanged appointment.
   */
  private async plan(
    bucketId: string,
    inputs: ExamFields[],
    today: string,
    existing: Map<string, ScheduledExamRow>,
  ): Promise<Planned[]> {
    const procedures = new Map(
      (
        await proceduresByIds(
          this.db,
          bucketId,
          inputs.flatMap((e) => (e.procedureId ? [e.procedureId] : [])),
        )
      ).map((p) => [p.id, p]),
    );
    const devices = new Map((await devicesOf(this.db, bucketId)).map((d) => [d.id, d]));
    return inputs.map((input, i) => {
      const before = input.id ? existing.get(input.id) : undefined;
      const procedure = input.procedureId ? procedures.get(input.procedureId) : undefined;
      if (input.procedureId && !procedure) {
        throw errors.validation('No such procedure in this organization', { field: `exams.${i}.procedureId` });
      }
      const device = input.deviceId ? devices.get(input.deviceId) : undefined;
      if (input.deviceId && !device) {
        throw errors.validation('No such device in this organization', { field: `exams.${i}.deviceId` });
      }
      const unchanged = before && before.scheduledDate === input.scheduledDate;
      if (input.scheduledDate < today && !unchanged) {
        throw errors.validation('The scheduled date cannot be before today', { field: `exams.${i}.scheduledDate` });
      }
      const accessionNumber = before?.accessionNumber ?? newAccession(today);
      return {
        id: before?.id ?? crypto.randomUUID(),
        procedureId: procedure?.id ?? null,
        procedureName: procedure?.name ?? '',
        procedureCode: procedure?.code ?? '',
        modality: procedure?.modality ?? input.modality,
        bodyPart: input.bodyPart,
        studyDesc: input.studyDesc || procedure?.name || '',
        bodyPartCount: input.bodyPartCount ?? procedure?.bodyPartCount ?? null,
        imagingOptional: procedure?.imagingOptional ?? false,
        deviceId: device?.id ?? null,
        stationAeTitle: device?.aeTitle ?? procedure?.aeTitle ?? '',
        scheduledDate: input.scheduledDate,
        scheduledTime: input.scheduledTime,
        accessionNumber,
        studyInstanceUid: before?.studyInstanceUid ?? uuidUid(),
        requestedProcedureId: before?.requestedProcedureId ?? accessionNumber,
        spsId: before?.spsId ?? `S${accessionNumber}`,
      };
    });
  }

  /**
   * The group's record of the patient (one per group): the one named, else the one with the
   * patient ID, else the one matched by name and birth date under the group's dob match mode
   * (disabled: never; shift_on: within a year; shift_off: the same date), else a new one. The
   * record takes the demographics as entered.
   */
  private async resolvePatient(
    tx: Tx | Db,
    groupId: string,
    input: PatientFields,
    now: Date,
  ): Promise<RegistryPatientRow> {
    const demographics = {
      name: input.name,
      namePinyin: nameInitials(input.name),
      gender: input.gender,
      birthDate: input.birthDate,
      phone: input.phone,
      idCard: input.idCard,
      address: input.address,
      animal: input.animal,
    };
    let found: RegistryPatientRow | undefined;
    if (input.id) {
      found = await store.findPatient(tx, groupId, input.id);
      if (!found) throw errors.validation('No such patient in this group', { field: 'patient.id' });
    } else if (input.patientId) {
      found = await store.findPatientByPid(tx, groupId, input.patientId);
    } else if (input.birthDate) {
      const settings = ((await findGroup(tx, groupId))?.settings ?? {}) as Partial<GroupSettings>;
      const mode = settings.dobMatchMode ?? 'shift_off';
      if (mode !== 'disabled') {
        const span = mode === 'shift_on' ? 1 : 0;
        const birth = { from: shiftYears(input.birthDate, -span), to: shiftYears(input.birthDate, span) };
        found = (await store.findPatientsByName(tx, groupId, input.name, birth))[0];
      }
    }
    if (found) {
      if (input.patientId && input.patientId !== found.patientId) {
        throw errors.validation('The patient ID belongs to another patient record', { field: 'patient.patientId' });
      }
      return store.updatePatient(tx, found.id, demographics, now);
    }
    const patientId = input.patientId || `P${today6(now)}${randomFrom('0123456789', 6)}`;
    return store.insertPatient(tx, { id: crypto.randomUUID(), groupId, patientId, ...demographics }, now);
  }

  private async insertRegistration(
    tx: Tx,
    values: Omit<store.RegistrationValues, 'passCode'>,
    now: Date,
  ): Promise<RegistrationRow> {
    return store.insertRegistration(tx, { ...values, passCode: randomFrom(PASS_ALPHABET, 8) }, now);
  }

  private async read(caller: DeskCaller, registration: RegistrationRow): Promise<Registration> {
    const patient = await store.findPatientById(this.db, registration.patientRef);
    if (!patient) throw errors.notFound('Registration');
    const exams = await store.scheduledExamsOf(this.db, [registration.id]);
    await this.audit(caller, 'registry.get', registration.bucketId, patient, { targetId: registration.id });
    return this.present(registration, patient, exams);
  }

  /** One scheduled exam with its device's and arriver's names. */
  private async presentExam(row: ScheduledExamRow): Promise<ScheduledExam> {
    const devices = await store.deviceNames(this.db, row.deviceId ? [row.deviceId] : []);
    return presentScheduledExam(row, {
      device: row.deviceId ? devices.get(row.deviceId)?.name : '',
      arriver: await store.accountName(this.db, row.arrivedBy),
    });
  }

  private async present(
    registration: RegistrationRow,
    patient: RegistryPatientRow,
    exams: ScheduledExamRow[],
  ): Promise<Registration> {
    const devices = await store.deviceNames(
      this.db,
      exams.flatMap((e) => (e.deviceId ? [e.deviceId] : [])),
    );
    const arrivers = new Map<string, string>();
    for (const id of new Set(exams.flatMap((e) => (e.arrivedBy ? [e.arrivedBy] : [])))) {
      arrivers.set(id, await store.accountName(this.db, id));
    }
    return presentRegistration(
      registration,
      patient,
      exams.map((e) =>
        presentScheduledExam(e, {
          device: e.deviceId ? devices.get(e.deviceId)?.name : '',
          arriver: e.arrivedBy ? arrivers.get(e.arrivedBy) : '',
        }),
      ),
      await store.accountName(this.db, registration.createdBy),
    );
  }

  private audit(
    caller: DeskCaller,
    action: string,
    bucketId: string,
    patient: RegistryPatientRow | undefined,
    extra: { db?: Tx | Db; targetId?: string; details?: Record<string, unknown> },
  ): Promise<void> {
    return writeAudit(extra.db ?? this.db, caller.ctx, {
      action,
      category: 'phi',
      outcome: 'success',
      actorId: caller.account.id,
      actorUsername: caller.account.username,
      targetType: 'registration',
      ...(extra.targetId ? { targetId: extra.targetId } : {}),
      bucketId,
      ...(patient ? { patientId: patient.patientId } : {}),
      ...(extra.details ? { details: extra.details } : {}),
    });
  }
}

/** The desk fields of a registration as written. */
function deskFields(input: CreateInput | UpdateInput) {
  return {
    patientSource: input.patientSource,
    inpatientId: input.patientSource === 'I' ? input.inpatientId : '',
    bedNum: input.patientSource === 'I' ? input.bedNum : '',
    outpatientId: input.patientSource === 'O' || input.patientSource === 'NO' ? input.outpatientId : '',
    physicalExamId: input.patientSource === 'P' ? input.physicalExamId : '',
    applyDept: input.applyDept,
    orderPlacer: input.orderPlacer,
    clinicImpression: input.clinicImpression,
    urgent: input.urgent,
    note: input.note,
    weight: input.weight,
    height: input.height,
  };
}

/** A scheduled exam's row as planned from the desk's input (identity, procedure, station, appointment). */
interface Planned {
  id: string;
  procedureId: string | null;
  procedureName: string;
  procedureCode: string;
  modality: string;
  bodyPart: string;
  studyDesc: string;
  bodyPartCount: number | null;
  imagingOptional: boolean;
  deviceId: string | null;
  stationAeTitle: string;
  scheduledDate: string;
  scheduledTime: string;
  accessionNumber: string;
  studyInstanceUid: string;
  requestedProcedureId: string;
  spsId: string;
}

/** Whether an edit moves the appointment (date, time, device, procedure, modality): a reschedule. */
function scheduleChanged(before: ScheduledExamRow, after: Planned): boolean {
  return (
    before.scheduledDate !== after.scheduledDate ||
    before.scheduledTime !== after.scheduledTime ||
    before.deviceId !== after.deviceId ||
    before.procedureId !== after.procedureId ||
    before.modality !== after.modality ||
    before.stationAeTitle !== after.stationAeTitle
  );
}

/** The values a move may write: never the row's identity. */
function stripIdentity<T extends object>(values: T): Omit<T, 'id' | 'registrationId' | 'bucketId'> {
  const {
    id: _id,
    registrationId: _r,
    bucketId: _b,
    ...rest
  } = values as T & { id?: unknown; registrationId?: unknown; bucketId?: unknown };
  return rest;
}

/** YYMMDD of the hospital's today. */
const today6 = (now: Date) => hospitalDate(now).replace(/-/g, '').slice(2);

/** An accession number: the day (YYMMDD) and six random digits, 12 characters (DICOM SH allows 16). */
function newAccession(today: string): string {
  return `${today.replace(/-/g, '').slice(2)}${randomFrom('0123456789', 6)}`;
}

const statusRefusal = (exam: ScheduledExamRow, action: RegistryAction) =>
  errors.conflict(`A scheduled exam that is ${exam.status} cannot be given "${action}"`);
const raced = () => errors.conflict('The scheduled exam was changed by someone else; reload it');
