/**
 * Storage Commitment Push Model (PS3.4 Annex J), protocol only: the N-ACTION request's data set
 * read (the transaction and the instances asked about) and the N-EVENT-REPORT's written (those
 * committed and those that failed, with their reasons).
 */
import { readDataset, itemsOf, textOf, type Dataset } from './dataset-reader.js';
import { DatasetBuilder, EXPLICIT_VR_LE } from './dataset-writer.js';
import { DicomError } from './parse.js';

export const COMMITMENT_SOP_CLASS = '1.2.840.10008.1.20.1';
/** The well-known instance every request and report names. */
export const COMMITMENT_SOP_INSTANCE = '1.2.840.10008.1.20.1.1';
/** N-ACTION Action Type ID "Request Storage Commitment". */
export const COMMITMENT_ACTION = 1;
/** N-EVENT-REPORT Event Type IDs: every instance committed, or some failed. */
export const COMMITMENT_EVENT = { allCommitted: 1, someFailed: 2 } as const;
/** Failure Reasons (PS3.4 J.3.2.1.1.2): no such instance stored, or stored under another SOP class. */
export const FAILURE_REASON = {
  noSuchInstance: 0x0112,
  classInstanceConflict: 0x0119,
  processingFailure: 0x0110,
} as const;

const TAG = {
  transactionUid: 0x00081195,
  referencedSopSequence: 0x00081199,
  failedSopSequence: 0x00081198,
  referencedSopClassUid: 0x00081150,
  referencedSopInstanceUid: 0x00081155,
  failureReason: 0x00081197,
} as const;

/** At most this many instances in one request (a study of a few thousand fits). */
export const MAX_COMMITMENT_ITEMS = 100_000;

export interface CommitmentRef {
  sopClassUid: string;
  sopInstanceUid: string;
}

export interface CommitmentRequest {
  transactionUid: string;
  refs: CommitmentRef[];
}

export interface CommitmentResult {
  transactionUid: string;
  committed: CommitmentRef[];
  failed: (CommitmentRef & { reason: number })[];
}

const UID = /^[0-9]+(\.[0-9]+)*$/;

/** Reads an N-ACTION's data set; DicomError (0x0110 to the requestor) when it is no commitment request. */
export function parseCommitmentRequest(data: Buffer, transferSyntax: string): CommitmentRequest {
  let ds: Dataset;
  try {
    ds = readDataset(data, transferSyntax, new Set([TAG.referencedSopSequence]));
  } catch (err) {
    throw new DicomError(err instanceof Error ? err.message : 'unreadable request', 'malformed');
  }
  const transactionUid = textOf(ds, TAG.transactionUid, '');
  if (!UID.test(transactionUid) || transactionUid.length > 64) {
    throw new DicomError('the request has no Transaction UID', 'malformed');
  }
  const items = itemsOf(ds, TAG.referencedSopSequence);
  if (items.length === 0) throw new DicomError('the request names no instance', 'malformed');
  if (items.length > MAX_COMMITMENT_ITEMS) throw new DicomError('the request names too many instances', 'malformed');
  const refs = items.map((item) => ({
    sopClassUid: textOf(item, TAG.referencedSopClassUid, ''),
    sopInstanceUid: textOf(item, TAG.referencedSopInstanceUid, ''),
  }));
  return { transactionUid, refs };
}

const refItem = (ref: CommitmentRef, charset = '') =>
  new DatasetBuilder(charset as '')
    .text(TAG.referencedSopClassUid, 'UI', ref.sopClassUid)
    .text(TAG.referencedSopInstanceUid, 'UI', ref.sopInstanceUid);

/** The N-EVENT-REPORT's Event Type ID and data set for a result. */
export function commitmentReport(
  result: CommitmentResult,
  transferSyntax: string,
): { eventTypeId: number; dataset: Buffer } {
  const ds = new DatasetBuilder('').text(TAG.transactionUid, 'UI', result.transactionUid);
  if (result.committed.length > 0) {
    ds.sequence(
      TAG.referencedSopSequence,
      result.committed.map((r) => refItem(r)),
    );
  }
  if (result.failed.length > 0) {
    ds.sequence(
      TAG.failedSopSequence,
      result.failed.map((r) => refItem(r).uint16(TAG.failureReason, r.reason)),
    );
  }
  return {
    eventTypeId: result.failed.length > 0 ? COMMITMENT_EVENT.someFailed : COMMITMENT_EVENT.allCommitted,
    dataset: ds.toBuffer(transferSyntax === EXPLICIT_VR_LE),
  };
}

/** The instances of a report, read back (tests, and a future commitment SCU). */
export function readCommitmentReport(data: Buffer, transferSyntax: string): CommitmentResult {
  const ds = readDataset(data, transferSyntax, new Set([TAG.referencedSopSequence, TAG.failedSopSequence]));
  const ref = (item: Dataset) => ({
    sopClassUid: textOf(item, TAG.referencedSopClassUid, ''),
    sopInstanceUid: textOf(item, TAG.referencedSopInstanceUid, ''),
  });
  return {
    transactionUid: textOf(ds, TAG.transactionUid, ''),
    committed: itemsOf(ds, TAG.referencedSopSequence).map(ref),
    failed: itemsOf(ds, TAG.failedSopSequence).map((item) => ({
      ...ref(item),
      reason: item.get(TAG.failureReason)?.value.readUInt16LE(0) ?? 0,
    })),
  };
}
