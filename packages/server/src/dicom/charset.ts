/**
 * Decoding of DICOM text in every character set PS3.3 C.12.1.1.2 names, including the
 * ISO 2022 code extensions (escape sequences) and the Chinese GB18030 and GBK repertoires.
 * Node's TextDecoder (full ICU) supplies the tables.
 */
import { TextDecoder } from 'node:util';

/** Single-byte and multi-byte repertoires used without code extensions. */
const PLAIN: Record<string, string> = {
  '': 'latin1',
  ISO_IR_6: 'latin1',
  'ISO_IR 6': 'latin1',
  'ISO_IR 100': 'latin1',
  'ISO_IR 101': 'iso-8859-2',
  'ISO_IR 109': 'iso-8859-3',
  'ISO_IR 110': 'iso-8859-4',
  'ISO_IR 144': 'iso-8859-5',
  'ISO_IR 127': 'iso-8859-6',
  'ISO_IR 126': 'iso-8859-7',
  'ISO_IR 138': 'iso-8859-8',
  'ISO_IR 148': 'iso-8859-9',
  'ISO_IR 203': 'iso-8859-15',
  'ISO_IR 13': 'shift_jis',
  'ISO_IR 166': 'windows-874',
  'ISO_IR 192': 'utf-8',
  GB18030: 'gb18030',
  GBK: 'gbk',
};

/** The repertoire a defined term selects before any escape sequence (ISO 2022 terms). */
const ISO2022_INITIAL: Record<string, string> = {
  'ISO 2022 IR 6': 'latin1',
  'ISO 2022 IR 100': 'latin1',
  'ISO 2022 IR 101': 'iso-8859-2',
  'ISO 2022 IR 109': 'iso-8859-3',
  'ISO 2022 IR 110': 'iso-8859-4',
  'ISO 2022 IR 144': 'iso-8859-5',
  'ISO 2022 IR 127': 'iso-8859-6',
  'ISO 2022 IR 126': 'iso-8859-7',
  'ISO 2022 IR 138': 'iso-8859-8',
  'ISO 2022 IR 148': 'iso-8859-9',
  'ISO 2022 IR 203': 'iso-8859-15',
  'ISO 2022 IR 13': 'shift_jis',
  'ISO 2022 IR 166': 'windows-874',
  'ISO 2022 IR 87': 'iso-2022-jp',
  'ISO 2022 IR 159': 'iso-2022-jp',
  'ISO 2022 IR 149': 'euc-kr',
  'ISO 2022 IR 58': 'gbk',
};

/** Escape sequences (bytes after ESC) and the repertoire each switches to. */
const ESCAPES: [number[], string][] = [
  [[0x28, 0x42], 'latin1'], // ( B  ASCII
  [[0x28, 0x4a], 'latin1'], // ( J  JIS X 0201 romaji (ASCII apart from two symbols)
  [[0x29, 0x49], 'shift_jis'], // ) I  JIS X 0201 katakana
  [[0x24, 0x42], 'iso-2022-jp'], // $ B  JIS X 0208
  [[0x24, 0x28, 0x44], 'iso-2022-jp'], // $ ( D  JIS X 0212
  [[0x24, 0x29, 0x43], 'euc-kr'], // $ ) C  KS X 1001
  [[0x24, 0x29, 0x41], 'gbk'], // $ ) A  GB 2312 (GBK is its superset)
  [[0x2d, 0x41], 'latin1'],
  [[0x2d, 0x42], 'iso-8859-2'],
  [[0x2d, 0x43], 'iso-8859-3'],
  [[0x2d, 0x44], 'iso-8859-4'],
  [[0x2d, 0x4c], 'iso-8859-5'],
  [[0x2d, 0x47], 'iso-8859-6'],
  [[0x2d, 0x46], 'iso-8859-7'],
  [[0x2d, 0x48], 'iso-8859-8'],
  [[0x2d, 0x4d], 'iso-8859-9'],
  [[0x2d, 0x62], 'iso-8859-15'],
  [[0x2d, 0x54], 'windows-874'],
];

const decoders = new Map<string, TextDecoder>();
function decoder(label: string): TextDecoder {
  let d = decoders.get(label);
  if (!d) {
    d = new TextDecoder(label, { fatal: false });
    decoders.set(label, d);
  }
  return d;
}

function decodeWith(label: string, bytes: Uint8Array, escape: number[] | null): string {
  if (label === 'latin1') {
    // ISO 8859-1 proper (TextDecoder's "latin1" is windows-1252): code points equal bytes.
    let s = '';
    for (const b of bytes) s += String.fromCharCode(b);
    return s;
  }
  if (label === 'iso-2022-jp' && escape) {
    // The decoder needs the escape itself to know which JIS plane follows.
    const withEsc = new Uint8Array(escape.length + 1 + bytes.length);
    withEsc[0] = 0x1b;
    withEsc.set(escape, 1);
    withEsc.set(bytes, escape.length + 1);
    return decoder(label).decode(withEsc);
  }
  return decoder(label).decode(bytes);
}

export type TextKind = 'PN' | 'text';

/** The repertoire labels a (0008,0005) value selects; unknown terms fall back to Latin-1. */
export function parseSpecificCharacterSet(value: string | undefined): { initial: string; iso2022: boolean } {
  const terms = (value ?? '').split('\\').map((t) => t.trim());
  const first = terms[0] ?? '';
  const iso2022 = terms.some((t) => t.startsWith('ISO 2022'));
  const initial = PLAIN[first] ?? ISO2022_INITIAL[first] ?? (first === '' ? 'latin1' : 'latin1');
  return { initial, iso2022 };
}

/** True for terms this decoder knows (others decode as Latin-1 and are reported by the ingest). */
export function isKnownCharset(value: string | undefined): boolean {
  return (value ?? '')
    .split('\\')
    .map((t) => t.trim())
    .every((t) => t === '' || t in PLAIN || t in ISO2022_INITIAL);
}

/**
 * Decodes a text value. With ISO 2022 code extensions, escape sequences switch repertoires and
 * delimiters return to the initial one: for PN the component (^) and group (=) separators, for
 * other text CR, LF, FF, TAB and the value separator (\).
 */
export function decodeDicomText(
  bytes: Uint8Array,
  specificCharacterSet: string | undefined,
  kind: TextKind = 'text',
): string {
  const { initial, iso2022 } = parseSpecificCharacterSet(specificCharacterSet);
  if (!iso2022 || !bytes.includes(0x1b)) return trimDicom(decodeWith(initial, bytes, null));
  const resets = kind === 'PN' ? [0x5e, 0x3d, 0x5c] : [0x0d, 0x0a, 0x0c, 0x09, 0x5c];
  let out = '';
  let current = initial;
  let currentEscape: number[] | null = null;
  let start = 0;
  const flush = (end: number) => {
    if (end > start) out += decodeWith(current, bytes.subarray(start, end), currentEscape);
  };
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === 0x1b) {
      flush(i);
      const match = ESCAPES.find(([seq]) => seq.every((s, k) => bytes[i + 1 + k] === s));
      if (match) {
        current = match[1];
        currentEscape = match[0];
        i += match[0].length;
      }
      start = i + 1;
    } else if (resets.includes(b) && current !== initial && !isMultiByteTrail(current)) {
      flush(i);
      out += String.fromCharCode(b);
      current = initial;
      currentEscape = null;
      start = i + 1;
    }
  }
  flush(bytes.length);
  return trimDicom(out);
}

/** In 7-bit JIS two-byte mode a delimiter byte can be half of a character: do not reset there. */
function isMultiByteTrail(label: string): boolean {
  return label === 'iso-2022-jp';
}

/** Text values are padded with spaces (or NUL for UI): trailing padding is not content. */
function trimDicom(s: string): string {
  return s.replace(/[\s\0]+$/u, '');
}
