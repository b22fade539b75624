/**
 * The DIMSE command sets (PS3.7 §9.3: group 0000, always Implicit VR Little Endian) that the
 * Upper Layer's P-DATA-TF PDUs (ul.ts) carry: decoding a received one, encoding requests and
 * responses. No I/O here. The decoder throws UlError on anything malformed.
 */
import { UlError, need } from './ul.js';
import { encodePData } from './ul-pdata.js';

export const TAG = {
  affectedSopClassUid: 0x00000002,
  requestedSopClassUid: 0x00000003,
  commandField: 0x00000100,
  messageId: 0x00000110,
  messageIdBeingRespondedTo: 0x00000120,
  priority: 0x00000700,
  commandDataSetType: 0x00000800,
  status: 0x00000900,
  errorComment: 0x00000902,
  affectedSopInstanceUid: 0x00001000,
  requestedSopInstanceUid: 0x00001001,
  moveDestination: 0x00000600,
  remaining: 0x00001020,
  completed: 0x00001021,
  failed: 0x00001022,
  warning: 0x00001023,
  moveOriginatorAe: 0x00001030,
  moveOriginatorMessageId: 0x00001031,
  eventTypeId: 0x00001002,
  actionTypeId: 0x00001008,
} as const;

export const COMMAND = {
  cStoreRq: 0x0001,
  cFindRq: 0x0020,
  cEchoRq: 0x0030,
  cGetRq: 0x0010,
  cMoveRq: 0x0021,
  nSetRq: 0x0120,
  nCreateRq: 0x0140,
  nEventReportRq: 0x0100,
  nActionRq: 0x0130,
  cancelRq: 0x0fff,
} as const;
export const NO_DATASET = 0x0101;
/** CommandDataSetType of a message that carries a data set (any value but 0x0101). */
export const WITH_DATASET = 0x0000;

/** The response statuses the SCP answers with (PS3.7 Annex C; MPPS's are in mpps.ts). */
export const STATUS = {
  success: 0x0000,
  pending: 0xff00,
  cancel: 0xfe00,
  /** C-FIND: identifier does not match SOP class */
  identifierDoesNotMatch: 0xa900,
  /** C-FIND: unable to process */
  unableToProcess: 0xc000,
  unrecognizedOperation: 0x0211,
  /** C-MOVE: move destination unknown */
  moveDestinationUnknown: 0xa801,
  /** C-MOVE, C-GET: out of resources, unable to perform sub-operations */
  unableToPerformSubOperations: 0xa702,
  /** C-MOVE, C-GET: sub-operations complete, one or more failures or warnings */
  subOperationsWithFailures: 0xb000,
} as const;

/** A C-MOVE or C-GET response's sub-operation counts (remaining left out of the final one). */
export interface SubOperationCounts {
  remaining?: number;
  completed: number;
  failed: number;
  warning: number;
}

export type CommandSet = Map<number, Buffer>;

export function decodeCommand(b: Buffer): CommandSet {
  const out: CommandSet = new Map();
  let at = 0;
  while (at < b.length) {
    need(b, at, 8, 'command element');
    const tag = ((b.readUInt16LE(at) << 16) | b.readUInt16LE(at + 2)) >>> 0;
    const length = b.readUInt32LE(at + 4);
    need(b, at + 8, length, 'command element value');
    if (tag >>> 16 !== 0) throw new UlError('command set element outside group 0000');
    out.set(tag, b.subarray(at + 8, at + 8 + length));
    at += 8 + length;
  }
  return out;
}

export function commandUs(cmd: CommandSet, tag: number): number | undefined {
  const v = cmd.get(tag);
  return v && v.length >= 2 ? v.readUInt16LE(0) : undefined;
}

export function commandUid(cmd: CommandSet, tag: number): string | undefined {
  const v = cmd.get(tag);
  return v ? v.toString('latin1').replace(/[\0 ]+$/, '') : undefined;
}

function element(tag: number, value: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt16LE(tag >>> 16, 0);
  header.writeUInt16LE(tag & 0xffff, 2);
  header.writeUInt32LE(value.length, 4);
  return Buffer.concat([header, value]);
}

const us = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(Math.min(Math.max(0, n), 0xffff), 0);
  return b;
};
const textValue = (text: string) => {
  const b = Buffer.from(text, 'latin1');
  return b.length % 2 ? Buffer.concat([b, Buffer.from(' ')]) : b;
};
const uidValue = (uid: string) => {
  const b = Buffer.from(uid, 'latin1');
  return b.length % 2 ? Buffer.concat([b, Buffer.from([0])]) : b;
};

/** A command set: its elements (sorted by tag), the group length first. */
function commandSet(elements: [number, Buffer][]): Buffer {
  const body = Buffer.concat(elements.sort(([a], [b]) => a - b).map(([t, v]) => element(t, v)));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(body.length, 0);
  return Buffer.concat([element(0x00000000, length), body]);
}

const optionalUid = (t: number, uid: string | undefined): [number, Buffer][] =>
  uid !== undefined ? [[t, uidValue(uid)]] : [];

/** A response command set (C-ECHO-RSP, C-STORE-RSP, C-FIND-RSP, N-CREATE-RSP …) with its group length first. */
export function encodeResponse(r: {
  commandField: number;
  messageId: number;
  status: number;
  sopClassUid?: string | undefined;
  sopInstanceUid?: string | undefined;
  /** a data set follows (a C-FIND-RSP's identifier) */
  hasDataset?: boolean;
  errorComment?: string | undefined;
  counts?: SubOperationCounts;
  /** N-ACTION-RSP: the action it answers */
  actionTypeId?: number;
}): Buffer {
  const counts = r.counts;
  return commandSet([
    ...(r.actionTypeId !== undefined ? ([[TAG.actionTypeId, us(r.actionTypeId)]] as [number, Buffer][]) : []),
    ...(counts
      ? ([
          ...(counts.remaining !== undefined ? [[TAG.remaining, us(counts.remaining)]] : []),
          [TAG.completed, us(counts.completed)],
          [TAG.failed, us(counts.failed)],
          [TAG.warning, us(counts.warning)],
        ] as [number, Buffer][])
      : []),
    ...optionalUid(TAG.affectedSopClassUid, r.sopClassUid),
    [TAG.commandField, us(r.commandField)],
    [TAG.messageIdBeingRespondedTo, us(r.messageId)],
    [TAG.commandDataSetType, us(r.hasDataset ? WITH_DATASET : NO_DATASET)],
    [TAG.status, us(r.status)],
    ...(r.errorComment !== undefined
      ? ([[TAG.errorComment, textValue(r.errorComment.slice(0, 64))]] as [number, Buffer][])
      : []),
    ...optionalUid(TAG.affectedSopInstanceUid, r.sopInstanceUid),
  ]);
}

/** A request command set (what an SCU sends: C-FIND-RQ, C-CANCEL-RQ, N-CREATE-RQ, N-SET-RQ …). */
export function encodeRequest(r: {
  commandField: number;
  messageId: number;
  hasDataset: boolean;
  affectedSopClassUid?: string;
  requestedSopClassUid?: string;
  affectedSopInstanceUid?: string;
  requestedSopInstanceUid?: string;
  /** C-CANCEL-RQ: the request it cancels */
  messageIdBeingRespondedTo?: number;
  /** C-FIND and C-STORE: 0 medium */
  priority?: number;
  /** C-MOVE: the AE title the instances go to */
  moveDestination?: string;
  /** a C-STORE sub-operation of a C-MOVE: who asked, and its message */
  moveOriginator?: { ae: string; messageId: number };
  /** N-EVENT-REPORT-RQ: the event */
  eventTypeId?: number;
  /** N-ACTION-RQ: the action */
  actionTypeId?: number;
}): Buffer {
  const isCancel = r.commandField === COMMAND.cancelRq;
  const origin = r.moveOriginator;
  return commandSet([
    ...(r.eventTypeId !== undefined ? ([[TAG.eventTypeId, us(r.eventTypeId)]] as [number, Buffer][]) : []),
    ...(r.actionTypeId !== undefined ? ([[TAG.actionTypeId, us(r.actionTypeId)]] as [number, Buffer][]) : []),
    ...(r.moveDestination !== undefined
      ? ([[TAG.moveDestination, textValue(r.moveDestination)]] as [number, Buffer][])
      : []),
    ...(origin
      ? ([
          [TAG.moveOriginatorAe, textValue(origin.ae)],
          [TAG.moveOriginatorMessageId, us(origin.messageId)],
        ] as [number, Buffer][])
      : []),
    ...optionalUid(TAG.affectedSopClassUid, r.affectedSopClassUid),
    ...optionalUid(TAG.requestedSopClassUid, r.requestedSopClassUid),
    [TAG.commandField, us(r.commandField)],
    isCancel ? [TAG.messageIdBeingRespondedTo, us(r.messageIdBeingRespondedTo ?? 0)] : [TAG.messageId, us(r.messageId)],
    ...(r.priority !== undefined ? ([[TAG.priority, us(r.priority)]] as [number, Buffer][]) : []),
    [TAG.commandDataSetType, us(r.hasDataset ? WITH_DATASET : NO_DATASET)],
    ...optionalUid(TAG.affectedSopInstanceUid, r.affectedSopInstanceUid),
    ...optionalUid(TAG.requestedSopInstanceUid, r.requestedSopInstanceUid),
  ]);
}

/** One P-DATA-TF carrying a whole command set (command sets are small: one fragment). */
export function encodeCommandPData(contextId: number, command: Buffer): Buffer {
  return encodePData(contextId, command, true, 0)[0]!;
}
