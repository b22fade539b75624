/**
 * The DICOM Upper Layer protocol (PS3.8 §9) as pure encode/decode functions: the PDUs an SCP
 * receives and sends, and the DIMSE command sets (PS3.7 §9.3, always Implicit VR Little Endian).
 * No I/O here; scp.ts drives a socket with it. Decoders throw UlError on anything malformed.
 */

export const PDU = {
  associateRq: 0x01,
  associateAc: 0x02,
  associateRj: 0x03,
  pData: 0x04,
  releaseRq: 0x05,
  releaseRp: 0x06,
  abort: 0x07,
} as const;

export const APPLICATION_CONTEXT = '1.2.840.10008.3.1.1.1';

export class UlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UlError';
  }
}

export interface PresentationContextRq {
  id: number;
  abstractSyntax: string;
  transferSyntaxes: string[];
}

export interface AssociateRq {
  calledAe: string;
  callingAe: string;
  applicationContext: string;
  contexts: PresentationContextRq[];
  /** the requestor's maximum PDU length (0: unlimited) */
  maxPduLength: number;
  implementationClassUid: string;
  implementationVersion: string;
}

const ascii = (b: Buffer, start: number, end: number) => b.toString('latin1', start, end);
/** UIDs are padded with NUL (and sometimes a space) to an even length. */
const uidText = (b: Buffer, start: number, end: number) => ascii(b, start, end).replace(/[\0 ]+$/, '');

function need(b: Buffer, offset: number, length: number, what: string): void {
  if (offset + length > b.length) throw new UlError(`truncated ${what}`);
}

/** Decodes the variable part of an A-ASSOCIATE-RQ (the PDU body after its 6-byte header). */
export function decodeAssociateRq(body: Buffer): AssociateRq {
  need(body, 0, 68, 'A-ASSOCIATE-RQ');
  const version = body.readUInt16BE(0);
  if ((version & 1) === 0) throw new UlError(`protocol version ${version} not supported`);
  const rq: AssociateRq = {
    calledAe: ascii(body, 4, 20).trim(),
    callingAe: ascii(body, 20, 36).trim(),
    applicationContext: '',
    contexts: [],
    maxPduLength: 0,
    implementationClassUid: '',
    implementationVersion: '',
  };
  let at = 68;
  while (at < body.length) {
    need(body, at, 4, 'item header');
    const type = body[at]!;
    const length = body.readUInt16BE(at + 2);
    const start = at + 4;
    const end = start + length;
    need(body, start, length, `item 0x${type.toString(16)}`);
    if (type === 0x10) rq.applicationContext = uidText(body, start, end);
    else if (type === 0x20) rq.contexts.push(decodeContext(body, start, end));
    else if (type === 0x50) decodeUserInfo(body, start, end, rq);
    at = end;
  }
  if (!rq.applicationContext) throw new UlError('no application context');
  return rq;
}

function decodeContext(b: Buffer, start: number, end: number): PresentationContextRq {
  need(b, start, 4, 'presentation context');
  const ctx: PresentationContextRq = { id: b[start]!, abstractSyntax: '', transferSyntaxes: [] };
  let at = start + 4;
  while (at < end) {
    if (at + 4 > end) throw new UlError('truncated presentation context sub-item');
    const type = b[at]!;
    const length = b.readUInt16BE(at + 2);
    const s = at + 4;
    if (s + length > end) throw new UlError('presentation context sub-item overruns its item');
    if (type === 0x30) ctx.abstractSyntax = uidText(b, s, s + length);
    else if (type === 0x40) ctx.transferSyntaxes.push(uidText(b, s, s + length));
    at = s + length;
  }
  return ctx;
}

function decodeUserInfo(b: Buffer, start: number, end: number, rq: AssociateRq): void {
  let at = start;
  while (at < end) {
    if (at + 4 > end) throw new UlError('truncated user information sub-item');
    const type = b[at]!;
    const length = b.readUInt16BE(at + 2);
    const s = at + 4;
    if (s + length > end) throw new UlError('user information sub-item overruns its item');
    if (type === 0x51 && length === 4) rq.maxPduLength = b.readUInt32BE(s);
    else if (type === 0x52) rq.implementationClassUid = uidText(b, s, s + length);
    else if (type === 0x55) rq.implementationVersion = ascii(b, s, s + length).trim();
    at = s + length;
  }
}

function pdu(type: number, body: Buffer): Buffer {
  const header = Buffer.alloc(6);
  header[0] = type;
  header.writeUInt32BE(body.length, 2);
  return Buffer.concat([header, body]);
}

function item(type: number, value: Buffer): Buffer {
  const header = Buffer.alloc(4);
  header[0] = type;
  header.writeUInt16BE(value.length, 2);
  return Buffer.concat([header, value]);
}

function aeField(ae: string): Buffer {
  return Buffer.from(ae.padEnd(16, ' ').slice(0, 16), 'latin1');
}

export const CONTEXT_RESULT = {
  acceptance: 0,
  userRejection: 1,
  noReason: 2,
  abstractSyntaxNotSupported: 3,
  transferSyntaxesNotSupported: 4,
} as const;

export interface ContextAnswer {
  id: number;
  result: number;
  /** the accepted transfer syntax (ignored by the peer when not accepted) */
  transferSyntax: string;
}

/** Our user information: maximum PDU length, implementation class UID and version name. */
export interface UserInfo {
  maxPduLength: number;
  implementationClassUid: string;
  implementationVersion: string;
}

/** An A-ASSOCIATE-RQ or -AC: the fixed fields, the application context, `contexts`, user information. */
function associatePdu(
  type: number,
  rq: Pick<AssociateRq, 'calledAe' | 'callingAe'>,
  contexts: Buffer[],
  ours: UserInfo,
): Buffer {
  const fixed = Buffer.alloc(68);
  fixed.writeUInt16BE(1, 0);
  aeField(rq.calledAe).copy(fixed, 4);
  aeField(rq.callingAe).copy(fixed, 20);
  const maxLength = Buffer.alloc(4);
  maxLength.writeUInt32BE(ours.maxPduLength, 0);
  const userInfo = item(
    0x50,
    Buffer.concat([
      item(0x51, maxLength),
      item(0x52, Buffer.from(ours.implementationClassUid, 'latin1')),
      item(0x55, Buffer.from(ours.implementationVersion, 'latin1')),
    ]),
  );
  const applicationContext = item(0x10, Buffer.from(APPLICATION_CONTEXT, 'latin1'));
  return pdu(type, Buffer.concat([fixed, applicationContext, ...contexts, userInfo]));
}

export function encodeAssociateAc(
  rq: Pick<AssociateRq, 'calledAe' | 'callingAe'>,
  answers: ContextAnswer[],
  ours: UserInfo,
): Buffer {
  const contexts = answers.map((a) =>
    item(
      0x21,
      Buffer.concat([Buffer.from([a.id, 0, a.result, 0]), item(0x40, Buffer.from(a.transferSyntax, 'latin1'))]),
    ),
  );
  return associatePdu(PDU.associateAc, rq, contexts, ours);
}

/** An A-ASSOCIATE-RQ proposing `contexts` (what an SCU sends: the test SCU, a future forwarder). */
export function encodeAssociateRq(
  rq: Pick<AssociateRq, 'calledAe' | 'callingAe' | 'contexts'>,
  ours: UserInfo,
): Buffer {
  const contexts = rq.contexts.map((c) =>
    item(
      0x20,
      Buffer.concat([
        Buffer.from([c.id, 0, 0, 0]),
        item(0x30, Buffer.from(c.abstractSyntax, 'latin1')),
        ...c.transferSyntaxes.map((ts) => item(0x40, Buffer.from(ts, 'latin1'))),
      ]),
    ),
  );
  return associatePdu(PDU.associateRq, rq, contexts, ours);
}

/** What an A-ASSOCIATE-AC answers: each context's result and transfer syntax, the acceptor's PDU limit. */
export interface AssociateAc {
  contexts: ContextAnswer[];
  maxPduLength: number;
}

/** Decodes the body of an A-ASSOCIATE-AC (after its 6-byte header). */
export function decodeAssociateAc(body: Buffer): AssociateAc {
  need(body, 0, 68, 'A-ASSOCIATE-AC');
  const ac: AssociateAc = { contexts: [], maxPduLength: 0 };
  let at = 68;
  while (at < body.length) {
    need(body, at, 4, 'item header');
    const type = body[at]!;
    const start = at + 4;
    const end = start + body.readUInt16BE(at + 2);
    need(body, start, end - start, `item 0x${type.toString(16)}`);
    if (type === 0x21) {
      need(body, start, 4, 'presentation context');
      const answer: ContextAnswer = { id: body[start]!, result: body[start + 2]!, transferSyntax: '' };
      for (let sub = start + 4; sub + 4 <= end; sub += 4 + body.readUInt16BE(sub + 2)) {
        const subEnd = sub + 4 + body.readUInt16BE(sub + 2);
        if (subEnd > end) throw new UlError('presentation context sub-item overruns its item');
        if (body[sub] === 0x40) answer.transferSyntax = uidText(body, sub + 4, subEnd);
      }
      ac.contexts.push(answer);
    } else if (type === 0x50) {
      const rq = { maxPduLength: 0 } as AssociateRq;
      decodeUserInfo(body, start, end, rq);
      ac.maxPduLength = rq.maxPduLength;
    }
    at = end;
  }
  return ac;
}

/** result 1 permanent, 2 transient; source 1 service user; reasons per PS3.8 Table 9-21. */
export const REJECT = {
  permanent: 1,
  transient: 2,
  sourceUser: 1,
  sourceProviderAcse: 2,
  sourceProviderPresentation: 3,
  noReason: 1,
  applicationContextNotSupported: 2,
  callingAeNotRecognized: 3,
  calledAeNotRecognized: 7,
  protocolVersionNotSupported: 2,
  temporaryCongestion: 1,
} as const;

export function encodeAssociateRj(result: number, source: number, reason: number): Buffer {
  return pdu(PDU.associateRj, Buffer.from([0, result, source, reason]));
}

export const encodeReleaseRp = (): Buffer => pdu(PDU.releaseRp, Buffer.alloc(4));
export const encodeReleaseRq = (): Buffer => pdu(PDU.releaseRq, Buffer.alloc(4));

/** source 0 service user, 2 service provider; reason 0 not specified, 2 unexpected PDU … */
export const encodeAbort = (source: number, reason: number): Buffer =>
  pdu(PDU.abort, Buffer.from([0, 0, source, reason]));

export interface Pdv {
  contextId: number;
  command: boolean;
  last: boolean;
  data: Buffer;
}

/** Splits a P-DATA-TF body into its presentation data values (the data are views, not copies). */
export function decodePData(body: Buffer): Pdv[] {
  return decodePDataChunks([body]).map((p) => ({
    ...p,
    data: p.data.length === 1 ? p.data[0]! : Buffer.concat(p.data),
  }));
}

/** A presentation data value whose data is a list of views into the received chunks. */
export interface ChunkedPdv {
  contextId: number;
  command: boolean;
  last: boolean;
  data: Buffer[];
}

/**
 * The same split for a P-DATA-TF body that arrived in several network chunks (a large PDU, as a
 * C-STORE's dataset fills): nothing is copied but the 6-byte item headers that straddle chunks,
 * so the dataset is copied once, into its Part 10 file, however it was cut.
 */
export function decodePDataChunks(chunks: Buffer[]): ChunkedPdv[] {
  const out: ChunkedPdv[] = [];
  let index = 0;
  let offset = 0;
  const remaining = () => {
    let n = chunks[index] ? chunks[index]!.length - offset : 0;
    for (let i = index + 1; i < chunks.length; i++) n += chunks[i]!.length;
    return n;
  };
  /** The next `n` bytes as views, advancing past them; throws when fewer remain. */
  const take = (n: number, what: string): Buffer[] => {
    const views: Buffer[] = [];
    while (n > 0) {
      const chunk = chunks[index];
      if (!chunk) throw new UlError(`truncated ${what}`);
      const part = Math.min(n, chunk.length - offset);
      if (part > 0) views.push(chunk.subarray(offset, offset + part));
      n -= part;
      offset += part;
      if (offset === chunk.length) {
        index++;
        offset = 0;
      }
    }
    return views;
  };
  while (remaining() > 0) {
    const headParts = take(6, 'PDV item');
    const head = headParts.length === 1 ? headParts[0]! : Buffer.concat(headParts);
    const length = head.readUInt32BE(0);
    if (length < 2) throw new UlError('PDV item too short');
    const control = head[5]!;
    out.push({
      contextId: head[4]!,
      command: (control & 1) === 1,
      last: (control & 2) === 2,
      data: take(length - 2, 'PDV item'),
    });
  }
  return out;
}

/** One P-DATA-TF carrying a whole command set (command sets are small: one fragment). */
export function encodeCommandPData(contextId: number, command: Buffer): Buffer {
  return encodePData(contextId, command, true, 0)[0]!;
}

/**
 * A command set or a data set as P-DATA-TF PDUs of at most `maxPduLength` bytes each (the
 * peer's limit; 0 for none), one presentation data value per PDU, the last one marked so.
 */
export function encodePData(contextId: number, bytes: Buffer, command: boolean, maxPduLength: number): Buffer[] {
  // A PDV item adds 6 bytes (length, context id, control header) inside the PDU's body.
  const room = maxPduLength > 6 ? maxPduLength - 6 : bytes.length || 1;
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length || out.length === 0; at += room) {
    const fragment = bytes.subarray(at, at + room);
    const last = at + room >= bytes.length;
    const pdv = Buffer.alloc(6);
    pdv.writeUInt32BE(fragment.length + 2, 0);
    pdv[4] = contextId;
    pdv[5] = (command ? 1 : 0) | (last ? 2 : 0);
    out.push(pdu(PDU.pData, Buffer.concat([pdv, fragment])));
  }
  return out;
}

/* ---------- DIMSE command sets: group 0000, Implicit VR Little Endian ---------- */

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
} as const;

export const COMMAND = {
  cStoreRq: 0x0001,
  cFindRq: 0x0020,
  cEchoRq: 0x0030,
  nSetRq: 0x0120,
  nCreateRq: 0x0140,
  cancelRq: 0x0fff,
} as const;
export const NO_DATASET = 0x0101;
/** CommandDataSetType of a message that carries a data set (any value but 0x0101). */
export const WITH_DATASET = 0x0000;

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
  b.writeUInt16LE(n, 0);
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
}): Buffer {
  return commandSet([
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
}): Buffer {
  const isCancel = r.commandField === COMMAND.cancelRq;
  return commandSet([
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
