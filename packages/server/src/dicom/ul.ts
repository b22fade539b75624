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
  /** SCP/SCU Role Selection sub-items (PS3.7 D.3.3.4): a C-GET's SCU proposes to be the SCP of storage classes */
  roles: RoleSelection[];
}

/** One SCP/SCU Role Selection: for `sopClass`, whether the requestor may be SCU and may be SCP. */
export interface RoleSelection {
  sopClass: string;
  scu: boolean;
  scp: boolean;
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
    roles: [],
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

function decodeUserInfo(
  b: Buffer,
  start: number,
  end: number,
  rq: Pick<AssociateRq, 'maxPduLength' | 'implementationClassUid' | 'implementationVersion' | 'roles'>,
): void {
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
    else if (type === 0x54 && length >= 4) {
      const uidLength = b.readUInt16BE(s);
      if (2 + uidLength + 2 > length) throw new UlError('truncated role selection sub-item');
      const at2 = s + 2 + uidLength;
      rq.roles.push({ sopClass: uidText(b, s + 2, at2), scu: b[at2] === 1, scp: b[at2 + 1] === 1 });
    }
    at = s + length;
  }
}

/** A PDU: its type, a reserved byte, the body's 4-byte length and the body (PS3.8 §9.3). */
export function pdu(type: number, body: Buffer): Buffer {
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
  /** Role selections proposed (in an RQ) or answered (in an AC) */
  roles?: readonly RoleSelection[];
}

function roleItem(r: RoleSelection): Buffer {
  const uid = Buffer.from(r.sopClass, 'latin1');
  const value = Buffer.alloc(4 + uid.length);
  value.writeUInt16BE(uid.length, 0);
  uid.copy(value, 2);
  value[2 + uid.length] = r.scu ? 1 : 0;
  value[3 + uid.length] = r.scp ? 1 : 0;
  return item(0x54, value);
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
      ...(ours.roles ?? []).map(roleItem),
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
  roles: RoleSelection[];
}

/** Decodes the body of an A-ASSOCIATE-AC (after its 6-byte header). */
export function decodeAssociateAc(body: Buffer): AssociateAc {
  need(body, 0, 68, 'A-ASSOCIATE-AC');
  const ac: AssociateAc = { contexts: [], maxPduLength: 0, roles: [] };
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
      const info = { maxPduLength: 0, implementationClassUid: '', implementationVersion: '', roles: [] };
      decodeUserInfo(body, start, end, info);
      ac.maxPduLength = info.maxPduLength;
      ac.roles = info.roles;
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
