/**
 * The worklist answers of one C-FIND written straight into bytes. encodeWorklistItem (mwl.ts)
 * builds a DatasetBuilder per item and toBuffer allocates a header and a value per element and
 * joins them; a day's list is a thousand items, so the query's layout (which keys, in what tag
 * order, the unknown ones answered empty) is worked out once here and each item only writes its
 * values into a shared ByteWriter. The bytes are encodeWorklistItem's, byte for byte
 * (mwl-encoder.test.ts), including the fallback to UTF-8 for what the hospital's character set
 * cannot hold.
 */
import {
  type ByteWriter,
  CHARSET_VRS,
  DatasetBuilder,
  EXPLICIT_VR_LE,
  ITEM,
  ITEM_DELIMITER,
  SEQUENCE_DELIMITER,
  UNDEFINED_LENGTH,
  type VR,
  delimiter,
  header,
} from './dataset-writer.js';
import { MWL_TAG, WORKLIST_KEYS, type WorklistItem, type WorklistKey, type WorklistQuery, emptyKeys } from './mwl.js';
import { type Charset, RepertoireError, encodeTextInto } from './text-encode.js';

/** Writes one element (or nothing) of `item` in `charset`. */
type Write = (out: ByteWriter, item: WorklistItem, charset: Charset) => void;

interface Slot {
  tag: number;
  write: Write;
}

/**
 * A text element: the tag (and VR) as constant bytes, the value encoded in place, padded to even
 * length (UI with NUL, the others with a space), its length written once known.
 */
function textSlot(
  t: number,
  vr: VR,
  value: (item: WorklistItem, charset: Charset) => string,
  explicitVr: boolean,
): Slot {
  // The header with length 0, less its length field: 4 bytes of tag and 2 of VR (explicit), the tag alone (implicit).
  const head = header(t, vr, 0, explicitVr).subarray(0, explicitVr ? 6 : 4);
  const lengthBytes = explicitVr ? 2 : 4;
  const padByte = vr === 'UI' ? 0 : 0x20;
  const ownCharset = CHARSET_VRS.has(vr);
  return {
    tag: t,
    write: (out, item, charset) => {
      const text = value(item, charset);
      out.reserve(head.length + lengthBytes + text.length * 3 + 1);
      const b = out.buffer;
      const at = out.length;
      for (let i = 0; i < head.length; i++) b[at + i] = head[i]!;
      const valueAt = at + head.length + lengthBytes;
      let n = encodeTextInto(text, ownCharset ? charset : '', b, valueAt);
      if (n % 2) b[valueAt + n++] = padByte;
      if (!explicitVr) {
        b.writeUInt32LE(n, at + 4);
      } else if (n > 0xffff) {
        throw new Error(`value of ${vr} element ${t.toString(16)} is too long (${n} bytes)`);
      } else {
        b.writeUInt16LE(n, at + 6);
      }
      out.length = valueAt + n;
    },
  };
}

function constantSlot(t: number, bytes: Buffer): Slot {
  return { tag: t, write: (out) => out.bytes(bytes) };
}

/** The known keys' elements and the asked-for unknown keys' empty ones, in tag order. */
function layout(
  known: readonly WorklistKey[],
  query: WorklistQuery['requested'],
  explicitVr: boolean,
  more: Slot[],
): Write[] {
  const slots: Slot[] = [...known.map(([t, vr, value]) => textSlot(t, vr, value, explicitVr)), ...more];
  for (const key of query) {
    // emptyKeys decides what is answered empty and how; the element is the same for every item.
    const empty = new DatasetBuilder();
    emptyKeys(empty, [key], known);
    if (empty.has(key.tag)) slots.push(constantSlot(key.tag, empty.toBuffer(explicitVr)));
  }
  return slots.sort((a, b) => a.tag - b.tag).map((s) => s.write);
}

/** Writes `item`'s identifier as `layout` says. */
function run(writes: readonly Write[], out: ByteWriter, item: WorklistItem, charset: Charset): void {
  for (const write of writes) write(out, item, charset);
}

/**
 * The identifiers answering `query` in `transferSyntax` (Explicit or Implicit VR Little Endian):
 * `encode` appends one item's to a ByteWriter.
 */
export class WorklistEncoder {
  private readonly explicitVr: boolean;
  /** The layouts for a person and for an animal, made when first needed. */
  private readonly layouts: [Write[] | null, Write[] | null] = [null, null];

  constructor(
    private readonly query: WorklistQuery,
    transferSyntax: string,
  ) {
    this.explicitVr = transferSyntax === EXPLICIT_VR_LE;
  }

  /**
   * Appends what worklistAnswer(item, query, transferSyntax) answers to `out`. Throws as it does
   * (a value too long, text outside the default repertoire where no character set applies);
   * `out` may then hold part of the identifier.
   */
  encode(item: WorklistItem, out: ByteWriter): void {
    const writes = this.layoutFor(item.animal ? 1 : 0);
    const start = out.length;
    try {
      run(writes, out, item, item.charset);
    } catch (err) {
      if (!(err instanceof RepertoireError)) throw err;
      out.truncate(start);
      run(writes, out, item, 'ISO_IR 192');
    }
  }

  private layoutFor(animal: 0 | 1): Write[] {
    const known = this.layouts[animal];
    if (known) return known;
    const explicitVr = this.explicitVr;
    const step = layout(WORKLIST_KEYS.step, this.query.stepRequested, explicitVr, []);
    const open = Buffer.concat([
      header(MWL_TAG.scheduledProcedureStepSequence, 'SQ', UNDEFINED_LENGTH, explicitVr),
      delimiter(ITEM, UNDEFINED_LENGTH),
    ]);
    const close = Buffer.concat([delimiter(ITEM_DELIMITER, 0), delimiter(SEQUENCE_DELIMITER, 0)]);
    // SpecificCharacterSet names the character set the item is written in; none for the default one.
    const charsetElement = textSlot(MWL_TAG.specificCharacterSet, 'CS', (_, charset) => charset, explicitVr).write;
    const top = layout(
      animal ? [...WORKLIST_KEYS.item, ...WORKLIST_KEYS.animal] : WORKLIST_KEYS.item,
      // SpecificCharacterSet is the answer's own (parseWorklistQuery never lists it).
      this.query.requested.filter((k) => k.tag !== MWL_TAG.specificCharacterSet),
      explicitVr,
      [
        {
          tag: MWL_TAG.specificCharacterSet,
          write: (out, item, charset) => {
            if (charset !== '') charsetElement(out, item, charset);
          },
        },
        {
          tag: MWL_TAG.scheduledProcedureStepSequence,
          write: (out, item, charset) => {
            out.bytes(open);
            run(step, out, item, charset);
            out.bytes(close);
          },
        },
      ],
    );
    this.layouts[animal] = top;
    return top;
  }
}
