/**
 * Modality Performed Procedure Step (PS3.4 annex F): the attribute lists of N-CREATE (a modality
 * starts an exam: IN PROGRESS) and N-SET (it ends it: COMPLETED, or DISCONTINUED with a reason)
 * read into a typed event, and the statuses the SCP answers (PS3.4 F.7). No I/O: dimse.ts carries
 * the messages, the module behind DimseHandlers.mpps moves the exam.
 */
import { type Dataset, charsetOf, itemsOf, readDataset, textOf } from './dataset-reader.js';
import { tag } from './dataset-writer.js';
import { DicomError } from './parse.js';

/** Modality Performed Procedure Step SOP Class. */
export const MPPS_SOP_CLASS = '1.2.840.10008.3.1.2.3.3';

export const MPPS_TAG = {
  specificCharacterSet: tag(0x0008, 0x0005),
  accessionNumber: tag(0x0008, 0x0050),
  codeMeaning: tag(0x0008, 0x0104),
  patientName: tag(0x0010, 0x0010),
  patientId: tag(0x0010, 0x0020),
  studyInstanceUid: tag(0x0020, 0x000d),
  performedStationAeTitle: tag(0x0040, 0x0241),
  startDate: tag(0x0040, 0x0244),
  startTime: tag(0x0040, 0x0245),
  endDate: tag(0x0040, 0x0250),
  endTime: tag(0x0040, 0x0251),
  status: tag(0x0040, 0x0252),
  stepId: tag(0x0040, 0x0253),
  scheduledStepAttributesSequence: tag(0x0040, 0x0270),
  discontinuationReasonCodeSequence: tag(0x0040, 0x0281),
  scheduledProcedureStepId: tag(0x0040, 0x0009),
  requestedProcedureId: tag(0x0040, 0x1001),
  performedSeriesSequence: tag(0x0040, 0x0340),
} as const;

/** Sequences an MPPS attribute list may carry in implicit VR with a defined length. */
const MPPS_SEQUENCES: ReadonlySet<number> = new Set([
  MPPS_TAG.scheduledStepAttributesSequence,
  MPPS_TAG.discontinuationReasonCodeSequence,
  MPPS_TAG.performedSeriesSequence,
  tag(0x0008, 0x1110), // Referenced Study Sequence
  tag(0x0008, 0x1120), // Referenced Patient Sequence
  tag(0x0008, 0x1032), // Procedure Code Sequence
  tag(0x0008, 0x1140), // Referenced Image Sequence
  tag(0x0040, 0x0008), // Scheduled Protocol Code Sequence
  tag(0x0040, 0x0260), // Performed Protocol Code Sequence
  tag(0x0040, 0x0220), // Referenced Non-Image Composite SOP Instance Sequence
]);

export const MPPS_STATES = ['IN PROGRESS', 'COMPLETED', 'DISCONTINUED'] as const;
export type MppsState = (typeof MPPS_STATES)[number];

/** One item of the Scheduled Step Attributes Sequence: which scheduled exam was performed. */
export interface MppsScheduledStep {
  studyInstanceUid: string;
  accessionNumber: string;
  scheduledProcedureStepId: string;
  requestedProcedureId: string;
}

/**
 * What an N-CREATE or N-SET says. An N-SET carries only what changes: a field is undefined when
 * its attribute is absent from the attribute list ('' when present and empty).
 */
export interface MppsAttributes {
  status?: MppsState;
  performedStationAeTitle?: string;
  /** YYYYMMDD */
  startDate?: string;
  /** HHMMSS */
  startTime?: string;
  endDate?: string;
  endTime?: string;
  patientName?: string;
  patientId?: string;
  scheduledSteps?: MppsScheduledStep[];
  /** How many series the modality performed (items of the Performed Series Sequence). */
  performedSeriesCount?: number;
  /** The code meanings of the discontinuation reason, joined with '; '. */
  discontinuationReason?: string;
}

/** One N-CREATE (the step starts) or N-SET (it changes, ends) of the MPPS instance `sopInstanceUid`. */
export interface MppsEvent {
  kind: 'create' | 'set';
  sopInstanceUid: string;
  attributes: MppsAttributes;
}

/** The status of N-CREATE-RSP / N-SET-RSP the handler picks (PS3.4 F.7, PS3.7 C). */
export const MPPS_STATUS = {
  success: 0x0000,
  /** anything the SCP could not do: an unknown exam, a step already completed … */
  processingFailure: 0x0110,
  /** N-CREATE of an instance that exists */
  duplicateInstance: 0x0111,
  /** N-SET of an instance that does not exist */
  noSuchInstance: 0x0112,
} as const;
export type MppsResult = keyof typeof MPPS_STATUS;

/** An attribute list that is no MPPS one (answered processing failure, with the message as comment). */
export class MppsError extends DicomError {
  constructor(message: string) {
    super(message, 'invalidMpps');
  }
}

function present(ds: Dataset, t: number, read: () => string): string | undefined {
  return ds.has(t) ? read() : undefined;
}

/**
 * Reads the attribute list of an N-CREATE or N-SET (the presentation context's `transferSyntax`,
 * Explicit or Implicit VR Little Endian). Throws MppsError when it is unreadable or its status is
 * none of IN PROGRESS, COMPLETED, DISCONTINUED.
 */
export function parseMppsAttributes(bytes: Buffer, transferSyntax: string): MppsAttributes {
  let ds: Dataset;
  try {
    ds = readDataset(bytes, transferSyntax, MPPS_SEQUENCES);
  } catch (err) {
    throw new MppsError(err instanceof Error ? err.message : 'unreadable attribute list');
  }
  const charset = charsetOf(ds);
  const ascii = (t: number) => present(ds, t, () => textOf(ds, t, charset));
  const out: MppsAttributes = {};
  const status = ascii(MPPS_TAG.status);
  if (status !== undefined) {
    if (!(MPPS_STATES as readonly string[]).includes(status)) {
      throw new MppsError(`PerformedProcedureStepStatus "${status.slice(0, 20)}" is none of ${MPPS_STATES.join(', ')}`);
    }
    out.status = status as MppsState;
  }
  const fields = {
    performedStationAeTitle: ascii(MPPS_TAG.performedStationAeTitle),
    startDate: ascii(MPPS_TAG.startDate),
    startTime: ascii(MPPS_TAG.startTime),
    endDate: ascii(MPPS_TAG.endDate),
    endTime: ascii(MPPS_TAG.endTime),
    patientName: present(ds, MPPS_TAG.patientName, () => textOf(ds, MPPS_TAG.patientName, charset, 'PN')),
    patientId: present(ds, MPPS_TAG.patientId, () => textOf(ds, MPPS_TAG.patientId, charset, 'text')),
  };
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined) (out as Record<string, string>)[key] = value;
  }
  if (ds.has(MPPS_TAG.scheduledStepAttributesSequence)) {
    out.scheduledSteps = itemsOf(ds, MPPS_TAG.scheduledStepAttributesSequence).map((item) => ({
      studyInstanceUid: textOf(item, MPPS_TAG.studyInstanceUid, charset),
      accessionNumber: textOf(item, MPPS_TAG.accessionNumber, charset, 'text'),
      scheduledProcedureStepId: textOf(item, MPPS_TAG.scheduledProcedureStepId, charset, 'text'),
      requestedProcedureId: textOf(item, MPPS_TAG.requestedProcedureId, charset, 'text'),
    }));
  }
  if (ds.has(MPPS_TAG.performedSeriesSequence)) {
    out.performedSeriesCount = itemsOf(ds, MPPS_TAG.performedSeriesSequence).length;
  }
  if (ds.has(MPPS_TAG.discontinuationReasonCodeSequence)) {
    out.discontinuationReason = itemsOf(ds, MPPS_TAG.discontinuationReasonCodeSequence)
      .map((code) => textOf(code, MPPS_TAG.codeMeaning, charset, 'text'))
      .filter(Boolean)
      .join('; ');
  }
  return out;
}
