/**
 * Drawing primitives of the report PDF: text in runs of the right font (Chinese and Latin in Noto
 * Sans CJK, Tibetan in its own), pictures that are skipped when pdfkit cannot embed them, rules
 * and page room. Text is always drawn as text, never parsed as markup.
 */

import type { PdfFonts } from './fonts.js';

export const MARGIN = 42;
export const BLACK = '#000000';
export const GREY = '#555555';
const RULE = '#999999';
/** Tibetan glyphs of Tibetan Machine Uni draw small beside CJK at the same size. */
const TIBETAN_SCALE = 1.2;
const TIBETAN = /[\u0F00-\u0FFF]+(?:[\s\u00A0]+[\u0F00-\u0FFF]+)*/g;

export type Doc = PDFKit.PDFDocument;
type Face = 'text' | 'bold';

/** Splits text into runs of Tibetan and of everything else (CJK, Latin, digits, punctuation). */
export function scriptRuns(text: string): { tibetan: boolean; text: string }[] {
  const out: { tibetan: boolean; text: string }[] = [];
  let at = 0;
  for (const m of text.matchAll(TIBETAN)) {
    if (m.index > at) out.push({ tibetan: false, text: text.slice(at, m.index) });
    out.push({ tibetan: true, text: m[0] });
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push({ tibetan: false, text: text.slice(at) });
  return out;
}

/** Without control characters other than line breaks and tabs (they would print as boxes). */
function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000B-\u001F\u007F]/g, '');
}

interface TextOptions {
  x: number;
  y?: number;
  width: number;
  size: number;
  face?: Face;
  color?: string;
  align?: 'left' | 'center' | 'right';
  lineGap?: number;
}

type Run = { tibetan: boolean; text: string };
const sizeOf = (run: Run, size: number) => (run.tibetan ? size * TIBETAN_SCALE : size);
function useFont(doc: Doc, run: Run, o: Pick<TextOptions, 'face' | 'size'>): void {
  doc.font(run.tibetan ? 'tibetan' : (o.face ?? 'text')).fontSize(sizeOf(run, o.size));
}
/** The current font's ascent in points (pdfkit keeps it on the font object it does not type). */
function ascent(doc: Doc, size: number): number {
  return ((doc as unknown as { _font: { ascender: number } })._font.ascender / 1000) * size;
}

/** The width a line takes in its fonts. */
export function widthOf(doc: Doc, line: string, o: Pick<TextOptions, 'face' | 'size'>): number {
  return scriptRuns(printable(line)).reduce((w, run) => {
    useFont(doc, run, o);
    return w + doc.widthOfString(run.text);
  }, 0);
}

/**
 * Draws text line by line, each line in runs of the right font: Chinese and Latin in Noto Sans
 * CJK, Tibetan in its own. A line that fits is placed run by run on one baseline (fonts of
 * different ascent would otherwise sit at different heights, and centring would see only a
 * run); a longer one wraps as pdfkit's continued text.
 */
export function write(doc: Doc, raw: string, o: TextOptions): void {
  const lineGap = o.lineGap ?? 2;
  doc.fillColor(o.color ?? BLACK);
  for (const [li, line] of printable(raw).split('\n').entries()) {
    const y = li === 0 ? (o.y ?? doc.y) : doc.y;
    const runs = scriptRuns(line);
    if (runs.length === 0) {
      doc
        .font(o.face ?? 'text')
        .fontSize(o.size)
        .text(' ', o.x, y, { width: o.width, lineGap });
      continue;
    }
    const measured = runs.map((run) => {
      useFont(doc, run, o);
      return {
        run,
        width: doc.widthOfString(run.text),
        ascent: ascent(doc, sizeOf(run, o.size)),
        height: doc.currentLineHeight(true),
      };
    });
    const total = measured.reduce((w, m) => w + m.width, 0);
    if (total <= o.width) {
      const top = Math.max(...measured.map((m) => m.ascent));
      let x = o.align === 'center' ? o.x + (o.width - total) / 2 : o.align === 'right' ? o.x + o.width - total : o.x;
      for (const m of measured) {
        useFont(doc, m.run, o);
        doc.text(m.run.text, x, y + top, { lineBreak: false, baseline: 'alphabetic' });
        x += m.width;
      }
      doc.x = o.x;
      doc.y = y + Math.max(...measured.map((m) => m.height)) + lineGap;
      continue;
    }
    runs.forEach((run, i) => {
      useFont(doc, run, o);
      const options = { continued: i < runs.length - 1, lineGap };
      if (i === 0) doc.text(run.text, o.x, y, { ...options, width: o.width, align: o.align ?? 'left' });
      else doc.text(run.text, options);
    });
  }
  doc.fillColor(BLACK);
}

export function heightOf(doc: Doc, raw: string, width: number, size: number): number {
  const tibetan = /[\u0F00-\u0FFF]/.test(raw);
  doc.font(tibetan ? 'tibetan' : 'text').fontSize(tibetan ? size * TIBETAN_SCALE : size);
  return doc.heightOfString(printable(raw) || ' ', { width, lineGap: 2 });
}

/** A picture, or nothing when its bytes are not a PNG or JPEG pdfkit can embed. */
export function picture(doc: Doc, data: Buffer | null, x: number, y: number, fit: [number, number]): boolean {
  if (!data) return false;
  try {
    doc.image(data, x, y, { fit, align: 'center', valign: 'center' });
    return true;
  } catch {
    return false;
  }
}

export function rule(doc: Doc, y: number, weight = 0.8): void {
  const right = doc.page.width - MARGIN;
  doc.save().lineWidth(weight).strokeColor(RULE).moveTo(MARGIN, y).lineTo(right, y).stroke().restore();
}

export function bottom(doc: Doc): number {
  return doc.page.height - doc.page.margins.bottom;
}

export function ensureRoom(doc: Doc, height: number): void {
  if (doc.y + height > bottom(doc)) doc.addPage();
}

/** Registers the fonts of Chinese, English and Tibetan in `doc`; answers the promise of its bytes. */
export function fontsAndBytes(doc: Doc, fonts: PdfFonts): Promise<Buffer> {
  doc.registerFont('text', fonts.text.data, fonts.text.face);
  doc.registerFont('bold', fonts.bold.data, fonts.bold.face);
  doc.registerFont('tibetan', fonts.tibetan.data, fonts.tibetan.face);
  const chunks: Buffer[] = [];
  return new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}
