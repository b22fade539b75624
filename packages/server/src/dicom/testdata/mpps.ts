/**
 * MPPS attribute lists as a modality sends them, for tests: the N-CREATE that starts a step
 * (IN PROGRESS, the type 2 attributes it cannot know yet present and empty).
 */
import { DatasetBuilder, tag } from '../dataset-writer.js';
import { MPPS_TAG, type MppsScheduledStep } from '../mpps.js';
import { type Charset } from '../text-encode.js';

export interface MppsStart {
  charset?: Charset;
  patientName?: string;
  patientId?: string;
  station?: string;
  /** YYYYMMDD */
  startDate?: string;
  /** HHMMSS */
  startTime?: string;
  /** The scheduled steps performed (Scheduled Step Attributes Sequence items). */
  steps?: Partial<MppsScheduledStep>[];
}

/** The attribute list of an N-CREATE (IN PROGRESS), as a builder: encode it in either transfer syntax. */
export function mppsInProgress(o: MppsStart = {}): DatasetBuilder {
  const charset = o.charset ?? '';
  const ds = new DatasetBuilder(charset)
    .text(MPPS_TAG.patientName, 'PN', o.patientName ?? 'DOE^JOHN')
    .text(MPPS_TAG.patientId, 'LO', o.patientId ?? 'P1')
    .text(MPPS_TAG.performedStationAeTitle, 'AE', o.station ?? 'CT_ROOM_1')
    .text(MPPS_TAG.startDate, 'DA', o.startDate ?? '20261127')
    .text(MPPS_TAG.startTime, 'TM', o.startTime ?? '083500')
    .text(MPPS_TAG.endDate, 'DA', '')
    .text(MPPS_TAG.endTime, 'TM', '')
    .text(MPPS_TAG.status, 'CS', 'IN PROGRESS')
    .text(MPPS_TAG.stepId, 'SH', 'PPS1')
    .sequence(
      MPPS_TAG.scheduledStepAttributesSequence,
      (o.steps ?? [{}]).map((s) =>
        new DatasetBuilder(charset)
          .text(MPPS_TAG.studyInstanceUid, 'UI', s.studyInstanceUid ?? '')
          .text(MPPS_TAG.accessionNumber, 'SH', s.accessionNumber ?? '')
          .text(MPPS_TAG.scheduledProcedureStepId, 'SH', s.scheduledProcedureStepId ?? '')
          .text(MPPS_TAG.requestedProcedureId, 'SH', s.requestedProcedureId ?? ''),
      ),
    )
    .sequence(MPPS_TAG.performedSeriesSequence, []);
  if (charset) ds.text(tag(0x0008, 0x0005), 'CS', charset);
  return ds;
}
