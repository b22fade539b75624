import {
  announcementText,
  DEFAULT_LANGUAGE,
  displayPersonName,
  maskPatientName,
  queueActionsFor,
  type CallingSettings,
  type QueueCall,
  type QueueExam,
  type QueueStatus,
  type QueueType,
  type ScreenPatient,
} from '@yyp/contracts';
import type { QueueTypeRow } from '../../db/schema.js';
import type { QueueExamView } from './calling-queue.store.js';

/** Rows to answers. Names show as people write them, masked (王*东) where the caller or the screen needs it. */

export function presentQueueType(row: QueueTypeRow): QueueType {
  return {
    id: row.id,
    bucketId: row.bucketId,
    displayName: row.displayName,
    modality: row.modality,
    roomName: row.roomName,
    urgentFirst: row.urgentFirst,
    created: row.created.toISOString(),
  };
}

const nameOf = (v: QueueExamView, masked: boolean) =>
  masked ? maskPatientName(v.patientName) : displayPersonName(v.patientName, DEFAULT_LANGUAGE);

export function presentQueueExam(v: QueueExamView, masked: boolean): QueueExam {
  const status = v.status as QueueStatus;
  return {
    id: v.id,
    bucketId: v.bucketId,
    queueTypeId: v.queueTypeId,
    queueTypeName: v.queueTypeName,
    scheduledExamId: v.scheduledExamId,
    queueNo: v.queueNo,
    checkInDate: v.checkInDate,
    checkedInAt: v.checkedInAt.toISOString(),
    status,
    urgent: v.urgent,
    patientName: nameOf(v, masked),
    masked,
    patientGender: v.patientGender,
    modality: v.modality,
    examName: v.examName,
    accessionNumber: v.accessionNumber,
    room: v.room,
    calledAt: v.calledAt?.toISOString() ?? null,
    calledCount: v.calledCount,
    callerName: v.callerName,
    finishedAt: v.finishedAt?.toISOString() ?? null,
    movedToId: v.movedToId,
    actions: queueActionsFor(status),
  };
}

/** One patient on the waiting-room screen: the name always masked. */
export function presentScreenPatient(v: QueueExamView): ScreenPatient {
  return {
    queueExamId: v.id,
    queueTypeId: v.queueTypeId,
    queueNo: v.queueNo,
    name: maskPatientName(v.patientName),
    room: v.room,
    status: v.status as QueueStatus,
    calledAt: v.calledAt?.toISOString() ?? null,
  };
}

/** The room a call names: the one given, else the queue's room name, else the queue's display name. */
export function roomOf(given: string, queue: { roomName: string; displayName: string }): string {
  return given || queue.roomName || queue.displayName;
}

/** The announcement of a call: the template with the masked name, or the whole name when the organization allows it. */
export function presentCall(v: QueueExamView, settings: CallingSettings): QueueCall {
  const name = maskPatientName(v.patientName);
  const spoken = settings.speakFullName ? displayPersonName(v.patientName, DEFAULT_LANGUAGE) : name;
  return {
    queueExamId: v.id,
    queueTypeId: v.queueTypeId,
    queueNo: v.queueNo,
    name,
    room: v.room,
    text: announcementText(settings.announcementTemplate, { queueNo: v.queueNo, name: spoken, room: v.room }),
    calledAt: (v.calledAt ?? v.updated).toISOString(),
  };
}
