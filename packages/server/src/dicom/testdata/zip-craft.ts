import zlib from 'node:zlib';

/**
 * Zip files built byte by byte, for tests and the hostile corpus: overlapping entries, wrong
 * checksums and lying sizes that no zip writer produces on purpose.
 */
export interface CraftMember {
  name: string;
  /** the bytes as stored in the archive (already deflated when method is 8) */
  data: Buffer;
  method: 0 | 8;
  crc: number;
  size: number;
}

export interface CraftCentral {
  name: string;
  /** offset of the local header this entry names */
  offset: number;
  method: 0 | 8;
  crc: number;
  compressedSize: number;
  size: number;
}

const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
};
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};

/** A member holding `content`: deflated (method 8) or stored (0), with its true CRC-32 and size. */
export function member(name: string, content: Buffer, method: 0 | 8 = 8): CraftMember {
  return {
    name,
    data: method === 8 ? zlib.deflateRawSync(content) : content,
    method,
    crc: zlib.crc32(content),
    size: content.length,
  };
}

export function localHeader(m: Omit<CraftMember, 'data'> & { compressedSize: number }): Buffer {
  const name = Buffer.from(m.name, 'utf8');
  return Buffer.concat([
    u32(0x04034b50),
    u16(20),
    u16(0x0800),
    u16(m.method),
    u16(0),
    u16(0x21),
    u32(m.crc),
    u32(m.compressedSize),
    u32(m.size),
    u16(name.length),
    u16(0),
    name,
  ]);
}

/** Local headers and data laid out one after the other; answers the bytes and each member's offset. */
export function layout(members: CraftMember[]): { body: Buffer; offsets: number[] } {
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let at = 0;
  for (const m of members) {
    offsets.push(at);
    const header = localHeader({ ...m, compressedSize: m.data.length });
    parts.push(header, m.data);
    at += header.length + m.data.length;
  }
  return { body: Buffer.concat(parts), offsets };
}

/** `body` followed by a central directory of `entries` and its end record. */
export function finish(body: Buffer, entries: CraftCentral[]): Buffer {
  const central = Buffer.concat(
    entries.map((e) => {
      const name = Buffer.from(e.name, 'utf8');
      return Buffer.concat([
        u32(0x02014b50),
        u16(20),
        u16(20),
        u16(0x0800),
        u16(e.method),
        u16(0),
        u16(0x21),
        u32(e.crc),
        u32(e.compressedSize),
        u32(e.size),
        u16(name.length),
        u16(0),
        u16(0),
        u16(0),
        u16(0),
        u32(0),
        u32(e.offset),
        name,
      ]);
    }),
  );
  const end = Buffer.concat([
    u32(0x06054b50),
    u16(0),
    u16(0),
    u16(entries.length),
    u16(entries.length),
    u32(central.length),
    u32(body.length),
    u16(0),
  ]);
  return Buffer.concat([body, central, end]);
}

/** The central entry that names member `m` at `offset` truthfully (other fields may be overridden). */
export function central(m: CraftMember, offset: number, override: Partial<CraftCentral> = {}): CraftCentral {
  return {
    name: m.name,
    offset,
    method: m.method,
    crc: m.crc,
    compressedSize: m.data.length,
    size: m.size,
    ...override,
  };
}

/** A well-formed zip of the members. */
export function craftZip(members: CraftMember[]): Buffer {
  const { body, offsets } = layout(members);
  return finish(
    body,
    members.map((m, i) => central(m, offsets[i]!)),
  );
}

/**
 * The overlapping-entries bomb: `copies` central entries all naming the one member (one
 * deflated block of zeros, inflated `copies` times by a reader that trusts the directory).
 */
export function sharedMemberZip(copies: number, zeros = 8 * 1024 * 1024): Buffer {
  const m = member('zeros.bin', Buffer.alloc(zeros));
  const { body, offsets } = layout([m]);
  return finish(
    body,
    Array.from({ length: copies }, (_, i) => central(m, offsets[0]!, { name: `copy${i}.bin` })),
  );
}

/**
 * A local header inside another entry's data: the outer stored entry's data is the inner
 * member's local header and data, and the inner entry points into it.
 */
export function nestedHeaderZip(): Buffer {
  const inner = member('inner.bin', Buffer.alloc(1024 * 1024, 7));
  const innerBytes = Buffer.concat([localHeader({ ...inner, compressedSize: inner.data.length }), inner.data]);
  const outer = member('outer.bin', innerBytes, 0);
  const { body, offsets } = layout([outer]);
  const innerOffset = offsets[0]! + localHeader({ ...outer, compressedSize: outer.data.length }).length;
  return finish(body, [central(outer, offsets[0]!), central(inner, innerOffset)]);
}

/** One member whose recorded CRC-32 does not match its bytes (local and central headers agree). */
export function badCrcZip(name: string, content: Buffer): Buffer {
  const m = member(name, content);
  m.crc = (m.crc ^ 0x5a5a5a5a) >>> 0;
  return craftZip([m]);
}
