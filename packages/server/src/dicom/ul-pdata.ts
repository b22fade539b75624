/**
 * P-DATA-TF PDUs (PS3.8 §9.3.5): their presentation data values split without copying, and
 * command and data sets cut into them to the peer's PDU limit.
 */
import { PDU, UlError, pdu } from './ul.js';

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
