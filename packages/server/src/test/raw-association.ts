/**
 * Upper Layer bytes written by hand, for tests that play a DICOM peer DCMTK's tools cannot be
 * (hostile or odd associations, a dataset DCMTK cannot read).
 */

/** A PDU: type, a reserved byte, the body's 4-byte length, the body (PS3.8 §9.3). */
export function pdu(type: number, body: Buffer): Buffer {
  const h = Buffer.alloc(6);
  h[0] = type;
  h.writeUInt32BE(body.length, 2);
  return Buffer.concat([h, body]);
}

/** A variable item: type, a reserved byte, the value's 2-byte length, the value. */
function item(type: number, value: Buffer): Buffer {
  const h = Buffer.alloc(4);
  h[0] = type;
  h.writeUInt16BE(value.length, 2);
  return Buffer.concat([h, value]);
}

/** A presentation context proposed: its id, abstract syntax and one transfer syntax. */
export interface ProposedContext {
  id: number;
  abstract: string;
  ts: string;
}

/** An A-ASSOCIATE-RQ from `calling` to YYP proposing `contexts`, with a maximum PDU length of `maxPdu`. */
export function associateRq(calling: string, contexts: ProposedContext[], maxPdu = 16384): Buffer {
  const fixed = Buffer.alloc(68);
  fixed.writeUInt16BE(1, 0);
  Buffer.from('YYP'.padEnd(16), 'latin1').copy(fixed, 4);
  Buffer.from(calling.padEnd(16), 'latin1').copy(fixed, 20);
  const max = Buffer.alloc(4);
  max.writeUInt32BE(maxPdu, 0);
  return pdu(
    0x01,
    Buffer.concat([
      fixed,
      item(0x10, Buffer.from('1.2.840.10008.3.1.1.1', 'latin1')),
      ...contexts.map((c) =>
        item(
          0x20,
          Buffer.concat([
            Buffer.from([c.id, 0, 0, 0]),
            item(0x30, Buffer.from(c.abstract, 'latin1')),
            item(0x40, Buffer.from(c.ts, 'latin1')),
          ]),
        ),
      ),
      item(0x50, item(0x51, max)),
    ]),
  );
}
