import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Test support: reads a Code 128 barcode back from a PDF as a scanner would, from the page's
 * pixels (poppler's pdftoppm renders it in grey), so the label test checks that the printed
 * barcode decodes to the accession number rather than that some picture is there. The table is
 * the standard's (ISO/IEC 15417), written here independently of bwip-js.
 */
const PATTERNS = [
  '212222', '222122', '222221', '121223', '121322', '131222', '122213', '122312', '132212', '221213',
  '221312', '231212', '112232', '122132', '122231', '113222', '123122', '123221', '223211', '221132',
  '221231', '213212', '223112', '312131', '311222', '321122', '321221', '312212', '322112', '322211',
  '212123', '212321', '232121', '111323', '131123', '131321', '112313', '132113', '132311', '211313',
  '231113', '231311', '112133', '112331', '132131', '113123', '113321', '133121', '313121', '211331',
  '231131', '213113', '213311', '213131', '311123', '311321', '331121', '312113', '312311', '332111',
  '314111', '221411', '431111', '111224', '111422', '121124', '121421', '141122', '141221', '112214',
  '112412', '122114', '122411', '142112', '142211', '241211', '221114', '413111', '241112', '134111',
  '111242', '121142', '121241', '114212', '124112', '124211', '411212', '421112', '421211', '212141',
  '214121', '412121', '111143', '111341', '131141', '114113', '114311', '411113', '411311', '113141',
  '114131', '311141', '411131', '211412', '211214', '211232',
]; // prettier-ignore
const STOP = '2331112';
const START_A = 103;
const START_C = 105;

/** Decodes the Code 128 symbols on one row of bars (run lengths, first a bar), left to right. */
export function decodeRuns(runs: number[]): string[] {
  const out: string[] = [];
  for (let start = 0; start + 6 <= runs.length; start += 2) {
    const hit = decodeFrom(runs.slice(start));
    if (hit === null) continue;
    out.push(hit.text);
    start += hit.runs - 2;
  }
  return out;
}

function symbolAt(runs: number[], at: number, count: number): string | null {
  const part = runs.slice(at, at + count);
  if (part.length < count) return null;
  const total = part.reduce((a, b) => a + b, 0);
  const modules = count === 6 ? 11 : 13;
  const widths = part.map((r) => Math.round((r * modules) / total));
  if (widths.some((w) => w < 1 || w > 4) || widths.reduce((a, b) => a + b, 0) !== modules) return null;
  return widths.join('');
}

function decodeFrom(runs: number[]): { text: string; runs: number } | null {
  const values: number[] = [];
  let at = 0;
  for (;;) {
    const stop = symbolAt(runs, at, 7);
    if (stop === STOP && values.length >= 2) break;
    const sym = symbolAt(runs, at, 6);
    const value = sym === null ? -1 : PATTERNS.indexOf(sym);
    if (value < 0) return null;
    if (values.length === 0 && value < START_A) return null;
    values.push(value);
    at += 6;
  }
  const check = values.pop()!;
  const sum = values.reduce((s, v, i) => s + (i === 0 ? v : v * i), 0);
  if (sum % 103 !== check) return null;
  let set = values[0] === START_C ? 'C' : values[0] === START_A ? 'A' : 'B';
  let text = '';
  for (const v of values.slice(1)) {
    if (set === 'C' && v < 100) text += String(v).padStart(2, '0');
    else if (v === 99) set = 'C';
    else if (v === 100) set = 'B';
    else if (v === 101) set = 'A';
    else if (set === 'B' && v < 96) text += String.fromCharCode(v + 32);
    else if (set === 'A' && v < 64) text += String.fromCharCode(v + 32);
    else if (set === 'A' && v < 96) text += String.fromCharCode(v - 64);
    else return null;
  }
  return { text, runs: at + 7 };
}

/** A binary PGM (P5, as pdftoppm -gray writes it). */
export function readPgm(data: Buffer): { width: number; height: number; pixels: Buffer } {
  const head = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(data.subarray(0, 64).toString('latin1'));
  if (!head) throw new Error('not a binary PGM');
  const width = Number(head[1]);
  const height = Number(head[2]);
  return { width, height, pixels: data.subarray(head[0].length, head[0].length + width * height) };
}

/** Every Code 128 text found on rows of the page (each distinct text once, top to bottom). */
export function barcodesIn(image: { width: number; height: number; pixels: Buffer }, step = 3): string[] {
  const found: string[] = [];
  for (let y = 0; y < image.height; y += step) {
    const row = image.pixels.subarray(y * image.width, (y + 1) * image.width);
    const runs: number[] = [];
    let dark = false;
    let length = 0;
    for (const px of row) {
      const isDark = px < 128;
      if (isDark === dark) length++;
      else {
        if (dark || runs.length > 0) runs.push(length);
        dark = isDark;
        length = 1;
      }
    }
    if (runs.length < 20) continue;
    for (const text of decodeRuns(runs)) if (!found.includes(text)) found.push(text);
  }
  return found;
}

/** Renders page `page` of the PDF file in grey at `dpi` and reads the barcodes on it. */
export function barcodesOnPage(file: string, page = 1, dpi = 300): string[] {
  const prefix = path.join(path.dirname(file), `${path.basename(file, '.pdf')}-p${page}`);
  execFileSync('pdftoppm', [
    '-gray',
    '-r',
    String(dpi),
    '-f',
    String(page),
    '-l',
    String(page),
    '-singlefile',
    file,
    prefix,
  ]);
  return barcodesIn(readPgm(fs.readFileSync(`${prefix}.pgm`)));
}
