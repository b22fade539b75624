/**
 * The DICOM Upper Layer protocol (PS3.8 §9) as pure encode/decode functions: the PDUs an SCP
 * receives and sends (the DIMSE command sets they carry are in dimse-command.ts). No I/O here;
 * dimse.ts drives a socket with it. Decoders throw UlError on anything malformed.
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

/** Throws UlError when `b` holds fewer than `length` bytes from `offset`. */
export function need(b: Buffer, offset: number, length: number, what: string): void {
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

/**
 * Several messages' command and data sets as P-DATA-TF PDUs in one buffer (a C-FIND's pending
 * answers, written to the socket at once): the bytes encodePData gives for each part, one after
 * another. Data sets are cut to `maxPduLength`; command sets never are (encodeCommandPData).
 */
export function encodePDataBatch(
  contextId: number,
  parts: readonly { command: boolean; bytes: Uint8Array }[],
  maxPduLength: number,
): Buffer {
  // Every fragment is a PDU header (6 bytes) and a PDV item header (6 bytes) before its bytes.
  const roomOf = (part: (typeof parts)[number]) =>
    !part.command && maxPduLength > 6 ? maxPduLength - 6 : part.bytes.length || 1;
  let size = 0;
  for (const part of parts) size += part.bytes.length + 12 * Math.max(1, Math.ceil(part.bytes.length / roomOf(part)));
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const part of parts) {
    const room = roomOf(part);
    const { bytes } = part;
    let from = 0;
    do {
      const n = Math.min(room, bytes.length - from);
      out[at] = PDU.pData;
      out[at + 1] = 0;
      out.writeUInt32BE(n + 6, at + 2);
      out.writeUInt32BE(n + 2, at + 6);
      out[at + 10] = contextId;
      out[at + 11] = (part.command ? 1 : 0) | (from + room >= bytes.length ? 2 : 0);
      out.set(bytes.subarray(from, from + n), at + 12);
      at += 12 + n;
      from += room;
    } while (from < bytes.length);
  }
  return out;
}
