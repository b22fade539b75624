import { maskPatientName, type NotificationItem } from '@yyp/contracts';
import type { ExamNotificationPayload, NotificationRow } from '../../db/schema.js';
import type { examForNotification, ExamNotificationInput } from './notifications.store.js';

type NotifiedExam = NonNullable<Awaited<ReturnType<typeof examForNotification>>>;

/**
 * The exam time of spec 000 §3 as ISO 8601: the study date and time as the modality sent them
 * (DICOM DA YYYYMMDD and TM HHMMSS.FFFFFF, local time without a zone), or, without a valid study
 * date, when the exam arrived.
 */
export function examTime(studyDate: string, studyTime: string, arrived: Date): string {
  const d = /^(\d{4})(\d{2})(\d{2})$/.exec(studyDate.trim());
  if (!d) return arrived.toISOString();
  const t = /^(\d{2})(\d{2})?(\d{2})?/.exec(studyTime.trim());
  const [hh, mm, ss] = t ? [t[1], t[2] ?? '00', t[3] ?? '00'] : ['00', '00', '00'];
  return `${d[1]}-${d[2]}-${d[3]}T${hh}:${mm}:${ss}`;
}

/** An exam's notification for `accountIds` (examForNotification's exam): its organization, group and what the bell shows. */
export function examNotification(exam: NotifiedExam, accountIds: string[]): ExamNotificationInput {
  return {
    accountIds,
    groupId: exam.groupId,
    bucketId: exam.bucketId,
    examId: exam.id,
    payload: {
      id: exam.id,
      patientName: exam.patientName,
      modality: exam.modality,
      bodyPart: exam.bodyPart,
      examTime: examTime(exam.studyDate, exam.studyTime, exam.created),
      bucketName: exam.bucketName,
    },
  };
}

export function presentNotification(row: NotificationRow, masked: boolean): NotificationItem {
  const payload: ExamNotificationPayload = row.payload;
  return {
    id: row.id,
    kind: row.kind as NotificationItem['kind'],
    bucketId: row.bucketId,
    exam: {
      id: payload.id,
      patientName: masked ? maskPatientName(payload.patientName) : payload.patientName,
      modality: payload.modality,
      bodyPart: payload.bodyPart,
      examTime: payload.examTime,
      bucketName: payload.bucketName,
    },
    createdAt: row.createdAt.toISOString(),
    readAt: row.readAt ? row.readAt.toISOString() : null,
    masked,
  };
}
