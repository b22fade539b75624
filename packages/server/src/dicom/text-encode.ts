/**
 * Encoding of text values into the character sets yyp writes in SpecificCharacterSet (the test
 * data generator's files, the worklist answers in the hospital's character set). Node ships decoders for GB18030/GBK but no encoder, so the two-byte
 * table is inverted once from TextDecoder; that covers every CJK ideograph in GBK, which is all
 * names and descriptions need. Characters that GB18030 would write as four bytes are refused rather than
 * guessed.
 */
import { TextDecoder } from 'node:util';

export type Charset = '' | 'ISO_IR 100' | 'ISO_IR 192' | 'GB18030' | 'GBK';

let gbTable: Map<number, number> | undefined;

/** Unicode code point (BMP) → two GB18030 bytes (high byte first) packed in one number. */
function gb18030Table(): Map<number, number> {
  if (gbTable) {
    return gbTable;
  }
  const decoder = new TextDecoder('gb18030');
  const table = new Map<number, number>();
  const pair = new Uint8Array(2);
  for (let lead = 0x81; lead <= 0xfe; lead++) {
    for (let trail = 0x40; trail <= 0xfe; trail++) {
      if (trail === 0x7f) {
        continue;
      }
      pair[0] = lead;
      pair[1] = trail;
      const text = decoder.decode(pair);
      if (text.length === 1 && text !== '\ufffd' && !table.has(text.charCodeAt(0))) {
        table.set(text.charCodeAt(0), (lead << 8) | trail);
      }
    }
  }
  gbTable = table;
  return table;
}

function encodeGb(text: string, charset: string): Buffer {
  const table = gb18030Table();
  const out: number[] = [];
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code < 0x80) {
      out.push(code);
      continue;
    }
    const bytes = table.get(code);
    if (bytes === undefined) {
      throw new Error(`"${char}" has no two-byte ${charset} encoding`);
    }
    out.push(bytes >> 8, bytes & 0xff);
  }
  return Buffer.from(out);
}

function encodeSingleByte(text: string, max: number, charset: string): Buffer {
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > max) {
      throw new Error(`"${text[i]}" is outside the repertoire of ${charset || 'the default character set'}`);
    }
  }
  return Buffer.from(text, 'latin1');
}

/** Bytes of `text` in `charset`; throws when the repertoire cannot hold it, so files stay valid. */
export function encodeText(text: string, charset: Charset): Buffer {
  switch (charset) {
    case '':
      return encodeSingleByte(text, 0x7f, charset);
    case 'ISO_IR 100':
      return encodeSingleByte(text, 0xff, charset);
    case 'ISO_IR 192':
      return Buffer.from(text, 'utf8');
    case 'GB18030':
    case 'GBK':
      return encodeGb(text, charset);
  }
}
