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

/** Thrown when a character set's repertoire cannot hold a character of the text. */
export class RepertoireError extends Error {}

function intoGb(text: string, charset: string, target: Buffer, offset: number): number {
  const table = gb18030Table();
  let at = offset;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code < 0x80) {
      target[at++] = code;
      continue;
    }
    const bytes = table.get(code);
    if (bytes === undefined) {
      throw new RepertoireError(`"${char}" has no two-byte ${charset} encoding`);
    }
    target[at++] = bytes >> 8;
    target[at++] = bytes & 0xff;
  }
  return at - offset;
}

function intoSingleByte(text: string, max: number, charset: string, target: Buffer, offset: number): number {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > max) {
      throw new RepertoireError(`"${text[i]}" is outside the repertoire of ${charset || 'the default character set'}`);
    }
    target[offset + i] = code;
  }
  return text.length;
}

function intoUtf8(text: string, target: Buffer, offset: number): number {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // Beyond ASCII: Node's encoder writes the whole text (lone surrogates as U+FFFD, as Buffer.from does).
    if (code >= 0x80) return target.write(text, offset, 'utf8');
    target[offset + i] = code;
  }
  return text.length;
}

/**
 * encodeText written into `target` at `offset` instead of a new buffer (the worklist answers,
 * mwl-encoder.ts): `target` must have room for 3 bytes per UTF-16 unit of `text`. Answers the
 * number of bytes written; throws RepertoireError as encodeText does.
 */
export function encodeTextInto(text: string, charset: Charset, target: Buffer, offset: number): number {
  switch (charset) {
    case '':
      return intoSingleByte(text, 0x7f, charset, target, offset);
    case 'ISO_IR 100':
      return intoSingleByte(text, 0xff, charset, target, offset);
    case 'ISO_IR 192':
      return intoUtf8(text, target, offset);
    case 'GB18030':
    case 'GBK':
      return intoGb(text, charset, target, offset);
  }
}

/**
 * Bytes of `text` in `charset`; throws (RepertoireError) when the repertoire cannot hold it, so
 * files stay valid.
 */
export function encodeText(text: string, charset: Charset): Buffer {
  const target = Buffer.allocUnsafe(text.length * 3);
  return target.subarray(0, encodeTextInto(text, charset, target, 0));
}
