/** Wraps a bare dataset (as a DIMSE C-STORE carries it) into a DICOM Part 10 file. */
export const IMPLEMENTATION_CLASS_UID = '1.2.826.0.1.3680043.10.1187.1';
export const IMPLEMENTATION_VERSION = 'YYP_1';

function element(group: number, elem: number, vr: string, value: Buffer): Buffer {
  const long = vr === 'OB' || vr === 'OW' || vr === 'UN' || vr === 'SQ' || vr === 'UT';
  const header = Buffer.alloc(long ? 12 : 8);
  header.writeUInt16LE(group, 0);
  header.writeUInt16LE(elem, 2);
  header.write(vr, 4, 'latin1');
  if (long) header.writeUInt32LE(value.length, 8);
  else header.writeUInt16LE(value.length, 6);
  return Buffer.concat([header, value]);
}

function uid(value: string): Buffer {
  const b = Buffer.from(value, 'latin1');
  return b.length % 2 ? Buffer.concat([b, Buffer.from([0])]) : b;
}

function shortText(value: string): Buffer {
  const b = Buffer.from(value, 'latin1');
  return b.length % 2 ? Buffer.concat([b, Buffer.from(' ')]) : b;
}

/** The Part 10 file of a dataset given whole or as fragments, in one allocation. */
export function toPart10(
  dataset: Uint8Array | Uint8Array[],
  meta: { sopClassUid: string; sopInstanceUid: string; transferSyntaxUid: string },
): Buffer {
  const body = Buffer.concat([
    element(0x0002, 0x0001, 'OB', Buffer.from([0x00, 0x01])),
    element(0x0002, 0x0002, 'UI', uid(meta.sopClassUid)),
    element(0x0002, 0x0003, 'UI', uid(meta.sopInstanceUid)),
    element(0x0002, 0x0010, 'UI', uid(meta.transferSyntaxUid)),
    element(0x0002, 0x0012, 'UI', uid(IMPLEMENTATION_CLASS_UID)),
    element(0x0002, 0x0013, 'SH', shortText(IMPLEMENTATION_VERSION)),
  ]);
  const length = Buffer.alloc(4);
  length.writeUInt32LE(body.length, 0);
  const fragments = Array.isArray(dataset) ? dataset : [dataset];
  const header = Buffer.concat([
    Buffer.alloc(128),
    Buffer.from('DICM', 'latin1'),
    element(0x0002, 0x0000, 'UL', length),
    body,
  ]);
  const total = fragments.reduce((sum, f) => sum + f.length, header.length);
  const out = Buffer.allocUnsafe(total);
  header.copy(out, 0);
  let at = header.length;
  for (const f of fragments) {
    out.set(f, at);
    at += f.length;
  }
  return out;
}

/** A stored Part 10 file's data set (a view, after group 0002) and what its meta header names. */
export interface Part10Dataset {
  dataset: Buffer;
  sopClassUid: string;
  sopInstanceUid: string;
  transferSyntaxUid: string;
}

/**
 * Splits a Part 10 file into its File Meta Information (read for the UIDs a C-STORE names) and
 * its data set, which is sent as stored. Throws when the file is no Part 10 file.
 */
export function part10Dataset(file: Buffer): Part10Dataset {
  if (file.length < 132 || file.toString('latin1', 128, 132) !== 'DICM') throw new Error('not a DICOM Part 10 file');
  const out: Part10Dataset = { dataset: file, sopClassUid: '', sopInstanceUid: '', transferSyntaxUid: '' };
  let at = 132;
  while (at + 8 <= file.length && file.readUInt16LE(at) === 0x0002) {
    const elem = file.readUInt16LE(at + 2);
    const vr = file.toString('latin1', at + 4, at + 6);
    const long = vr === 'OB' || vr === 'OW' || vr === 'UN' || vr === 'SQ' || vr === 'UT';
    const length = long ? file.readUInt32LE(at + 8) : file.readUInt16LE(at + 6);
    const valueAt = at + (long ? 12 : 8);
    if (valueAt + length > file.length) throw new Error('truncated file meta information');
    const value = () => file.toString('latin1', valueAt, valueAt + length).replace(/[\0 ]+$/, '');
    if (elem === 0x0002) out.sopClassUid = value();
    else if (elem === 0x0003) out.sopInstanceUid = value();
    else if (elem === 0x0010) out.transferSyntaxUid = value();
    at = valueAt + length;
  }
  out.dataset = file.subarray(at);
  return out;
}
