import crypto from 'node:crypto';
import { demoDictionaries, hospitalDate, type PatientSource } from '@yyp/contracts';
import { and, eq } from 'drizzle-orm';
import {
  modalities,
  procedures,
  queueDayCounters,
  queueExams,
  queueTypes,
  registrations,
  registryPatients,
  scheduledExams,
} from '../db/schema.js';
import type { Db } from '../platform/db.js';
import { nameInitials } from '../modules/archive/index.js';
import { PASS_ALPHABET } from '../modules/registry/index.js';

/**
 * The front desk's side of the demo's report history (seed/demo-history.ts), so that the turnaround
 * (issue 26) from registration to approval has something to measure: each history exam, but for a
 * few emergencies done at the modality without one, has a registration by the demo registrar, a
 * scheduled exam (its procedure, the CT's device, arrival, performance, linked to the exam) and,
 * where the organization has a call queue of its modality, its place in that day's queue, called
 * to the queue's room and done. Most patients register minutes before they arrive; inpatients
 * hours before; a tenth were booked the afternoon before (those take longest, the slowest list's).
 * The exam_steps triggers (migration 0045) record each step from these rows.
 */

/** A history exam as stored, with the facts its registration takes. */
export interface HistoryExam {
  examId: string;
  accessionNumber: string;
  studyUid: string;
  patientId: string;
  name: string;
  sex: string;
  birthDate: string;
  modality: string;
  bodyPart: string;
  desc: string;
  /** the demo procedure's code (contracts demoProcedures), null when the demo has none for it */
  procedureCode: string | null;
  bodyPartCount: number;
  /** the hospital day, YYYY-MM-DD */
  day: string;
  /** when its images came (the exam's creation): it is performed then */
  received: Date;
}

const MINUTE = 60_000;
/** Minutes on the table per modality: at least, and up to that many more. */
const SCAN_MINUTES: Record<string, [number, number]> = { CT: [3, 7], MR: [15, 15], DX: [2, 4] };
const IMPRESSIONS: Record<string, string> = {
  CHEST: '咳嗽待查',
  HEAD: '头痛待查',
  LSPINE: '腰痛伴下肢麻木',
};

interface Desk {
  bucketId: string;
  groupId: string;
  registrar: string;
  tech: string | null;
}

/** Hospital wall-clock time of a day as an instant. */
const at = (day: string, hour: number, minute: number) =>
  new Date(Date.parse(`${day}T00:00:00+08:00`) + (hour * 60 + minute) * MINUTE);

/**
 * Stores the registrations of `history` (in the caller's transaction), drawing from `rnd` so every
 * demo gets the same; returns how many exams got one.
 */
export async function seedDemoDesk(
  tx: Db,
  desk: Desk,
  history: readonly HistoryExam[],
  rnd: () => number,
): Promise<number> {
  const between = (min: number, extra: number) => min + Math.floor(rnd() * (extra + 1));
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const [devices, queues, procs] = await Promise.all([
    tx.select().from(modalities).where(eq(modalities.bucketId, desk.bucketId)).orderBy(modalities.name),
    tx.select().from(queueTypes).where(eq(queueTypes.bucketId, desk.bucketId)).orderBy(queueTypes.displayName),
    tx.select().from(procedures).where(eq(procedures.bucketId, desk.bucketId)),
  ]);
  const patientRefs = new Map<string, string>();
  const places: { queueTypeId: string; room: string; day: string; scheduledExamId: string; arrived: Date }[] = [];
  const timing = new Map<string, { called: Date; performed: Date; urgent: boolean }>();
  let n = 0;
  for (const exam of history) {
    // An emergency now and then is scanned at once and registered at the modality: no desk record.
    if (rnd() < 0.04) continue;
    const [scanMin, scanExtra] = SCAN_MINUTES[exam.modality] ?? [5, 10];
    const performed = exam.received;
    const called = new Date(performed.getTime() - between(scanMin, scanExtra) * MINUTE);
    const arrived = new Date(called.getTime() - between(5, 40) * MINUTE);
    const kind = rnd();
    let source: PatientSource = 'O';
    let registered: Date;
    let scheduledTime = '';
    if (kind < 0.1) {
      // Booked the afternoon before, for this morning or afternoon.
      registered = at(hospitalDate(exam.received, -1), 14, between(0, 210));
      scheduledTime = `${String(new Date(arrived.getTime() + 8 * 60 * MINUTE).getUTCHours()).padStart(2, '0')}:00`;
    } else if (kind < 0.25) {
      // An inpatient: the ward's order registered hours before the porter brings the patient.
      source = 'I';
      const early = arrived.getTime() - between(60, 180) * MINUTE;
      registered = new Date(Math.min(arrived.getTime() - 2 * MINUTE, Math.max(at(exam.day, 7, 30).getTime(), early)));
    } else {
      // At the desk, minutes before walking to the room; now and then from the emergency room.
      if (kind > 0.95) source = 'E';
      registered = new Date(arrived.getTime() - between(2, 18) * MINUTE);
    }
    const patientRef = await registryPatient(tx, desk.groupId, exam, patientRefs);
    const registrationId = crypto.randomUUID();
    const passCode = Array.from({ length: 8 }, () => pick([...PASS_ALPHABET])).join('');
    await tx.insert(registrations).values({
      id: registrationId,
      groupId: desk.groupId,
      bucketId: desk.bucketId,
      patientRef,
      source: 'internal',
      passCode,
      patientSource: source,
      inpatientId: source === 'I' ? `ZY${exam.patientId.slice(-3)}${between(100, 899)}` : '',
      bedNum: source === 'I' ? String(between(1, 40)) : '',
      outpatientId: source === 'I' ? '' : `MZ${exam.day.replaceAll('-', '').slice(2)}${between(1000, 8999)}`,
      applyDept: source === 'E' ? '急诊科' : pick(demoDictionaries.departments),
      orderPlacer: pick(demoDictionaries.doctors),
      clinicImpression: IMPRESSIONS[exam.bodyPart] ?? '',
      urgent: source === 'E',
      createdBy: desk.registrar,
      created: registered,
      updated: registered,
    });
    const procedure = procs.find((p) => p.code === exam.procedureCode);
    const device = devices.find((d) => d.modality === exam.modality);
    const scheduledExamId = crypto.randomUUID();
    await tx.insert(scheduledExams).values({
      id: scheduledExamId,
      registrationId,
      bucketId: desk.bucketId,
      status: 'Performed',
      patientRef,
      procedureId: procedure?.id ?? null,
      procedureName: procedure?.name ?? '',
      procedureCode: procedure?.code ?? '',
      modality: exam.modality,
      bodyPart: exam.bodyPart,
      studyDesc: procedure?.name ?? exam.desc,
      bodyPartCount: exam.bodyPartCount,
      deviceId: device?.id ?? null,
      stationAeTitle: device?.aeTitle ?? '',
      scheduledDate: exam.day,
      scheduledTime,
      accessionNumber: exam.accessionNumber,
      studyInstanceUid: exam.studyUid,
      requestedProcedureId: exam.accessionNumber,
      spsId: `S${exam.accessionNumber}`,
      examId: exam.examId,
      arrivedAt: arrived,
      arrivedBy: desk.registrar,
      performedAt: performed,
      created: registered,
      updated: performed,
    });
    const queue = queues.find((q) => q.modality === exam.modality);
    if (queue) places.push({ queueTypeId: queue.id, room: queue.roomName, day: exam.day, scheduledExamId, arrived });
    timing.set(scheduledExamId, { called, performed, urgent: source === 'E' });
    n++;
  }
  await queuePlaces(tx, desk, places, timing);
  return n;
}

/** The group's patient record of the exam's patient ID (one per group), made when missing. */
async function registryPatient(
  tx: Db,
  groupId: string,
  exam: HistoryExam,
  known: Map<string, string>,
): Promise<string> {
  const cached = known.get(exam.patientId);
  if (cached) return cached;
  await tx
    .insert(registryPatients)
    .values({
      id: crypto.randomUUID(),
      groupId,
      patientId: exam.patientId,
      name: exam.name,
      namePinyin: nameInitials(exam.name),
      gender: exam.sex,
      birthDate: exam.birthDate,
      created: exam.received,
      updated: exam.received,
    })
    .onConflictDoNothing();
  const [row] = await tx
    .select({ id: registryPatients.id })
    .from(registryPatients)
    .where(and(eq(registryPatients.groupId, groupId), eq(registryPatients.patientId, exam.patientId)));
  known.set(exam.patientId, row!.id);
  return row!.id;
}

/**
 * Each arrival's place in its queue that day, numbered in the order they arrived, called to the
 * queue's room by the technician and done when performed; the queue's last number of the day kept.
 */
async function queuePlaces(
  tx: Db,
  desk: Desk,
  places: { queueTypeId: string; room: string; day: string; scheduledExamId: string; arrived: Date }[],
  timing: Map<string, { called: Date; performed: Date; urgent: boolean }>,
): Promise<void> {
  places.sort((a, b) => a.day.localeCompare(b.day) || a.arrived.getTime() - b.arrived.getTime());
  const last = new Map<string, { queueTypeId: string; day: string; lastNo: number }>();
  for (const p of places) {
    const key = `${p.queueTypeId}/${p.day}`;
    const queueNo = (last.get(key)?.lastNo ?? 0) + 1;
    last.set(key, { queueTypeId: p.queueTypeId, day: p.day, lastNo: queueNo });
    const { called, performed, urgent } = timing.get(p.scheduledExamId)!;
    await tx.insert(queueExams).values({
      id: crypto.randomUUID(),
      bucketId: desk.bucketId,
      queueTypeId: p.queueTypeId,
      scheduledExamId: p.scheduledExamId,
      checkInDate: p.day,
      queueNo,
      status: 'done',
      urgent,
      room: p.room,
      calledAt: called,
      calledCount: 1,
      calledBy: desk.tech,
      checkedInAt: p.arrived,
      finishedAt: performed,
      updated: performed,
    });
  }
  for (const counter of last.values()) {
    await tx
      .insert(queueDayCounters)
      .values(counter)
      .onConflictDoUpdate({
        target: [queueDayCounters.queueTypeId, queueDayCounters.day],
        set: { lastNo: counter.lastNo },
      });
  }
}
