import PDFDocument from 'pdfkit';
import type { Language } from '@yyp/contracts';
import { fontsAndBytes, widthOf, write, type Doc, type PdfFonts } from '../report-print/index.js';

/** Points per millimetre (PDF user space is 1/72 inch). */
export const PT_PER_MM = 72 / 25.4;
export const mm = (v: number) => v * PT_PER_MM;
export const BLACK = '#000000';
export const GREY = '#555555';
export const RED = '#b00000';

type Face = 'text' | 'bold';

/** A PDF with the fonts of Chinese, English and Tibetan registered, and the promise of its bytes. */
export function openDoc(
  fonts: PdfFonts,
  lang: Language,
  info: { title: string; subject: string; createdAt: Date },
): { doc: Doc; done: Promise<Buffer> } {
  const doc = new PDFDocument({
    autoFirstPage: false,
    lang: lang === 'en' ? 'en' : lang === 'tib' ? 'bo' : 'zh-CN',
    info: { Title: info.title, Subject: info.subject, Creator: 'yyp', Producer: 'yyp', CreationDate: info.createdAt },
  });
  const done = fontsAndBytes(doc, fonts);
  return { doc, done };
}

/**
 * The text shortened with an ellipsis until it fits the width on one line: a label has no room
 * for a second line, and a line that wrapped would run into the barcode.
 */
export function fit(doc: Doc, text: string, width: number, size: number, face: Face = 'text'): string {
  const one = text.replace(/\s+/g, ' ').trim();
  if (widthOf(doc, one, { size, face }) <= width) return one;
  const chars = [...one];
  while (chars.length > 0 && widthOf(doc, `${chars.join('')}…`, { size, face }) > width) chars.pop();
  return `${chars.join('')}…`;
}

/** One line at (x, y), shortened to fit. */
export function line(
  doc: Doc,
  text: string,
  o: {
    x: number;
    y: number;
    width: number;
    size: number;
    face?: Face;
    color?: string;
    align?: 'left' | 'center' | 'right';
  },
): void {
  write(doc, fit(doc, text, o.width, o.size, o.face), { ...o, lineGap: 0 });
}

/** Years of age on a day from a birth date YYYYMMDD (null when either is not a date). */
export function ageOn(birthDate: string, day: string): number | null {
  const b = /^(\d{4})(\d{2})(\d{2})$/.exec(birthDate);
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!b || !d) return null;
  const years = Number(d[1]) - Number(b[1]) - (`${d[2]}${d[3]}` < `${b[2]}${b[3]}` ? 1 : 0);
  return years >= 0 && years < 200 ? years : null;
}

/** YYYYMMDD as YYYY-MM-DD (other text as it is). */
export const isoDay = (d: string) => (/^\d{8}$/.test(d) ? `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}` : d);
