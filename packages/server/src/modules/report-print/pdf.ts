import PDFDocument from 'pdfkit';
import { markScale, MARK_CIRCLE_RADIUS, MARK_FONT_SIZE, type PrintReport, type PrintSampleGraph } from '@yyp/contracts';
import type { PdfFonts } from './fonts.js';
import { PDF_LABELS, type PdfLabels, type PdfLang } from './pdf-labels.js';
import {
  BLACK,
  ensureRoom,
  fontsAndBytes,
  GREY,
  heightOf,
  MARGIN,
  picture,
  rule,
  widthOf,
  write,
  type Doc,
} from './pdf-draw.js';

/**
 * The printed report as a PDF, drawn with pdfkit. Every piece of report text is drawn as text:
 * nothing is parsed as markup, so a finding that reads `<img src=…>` prints those characters and
 * can never make the renderer fetch a file or a URL, or run anything. Pictures come in as bytes
 * the service read from the blob store.
 */

export interface PdfSigner {
  name: string;
  signature: Buffer | null;
}

export interface PdfReport extends Omit<PrintReport, 'images' | 'sampleGraphs' | 'writer' | 'approver'> {
  writer: PdfSigner | null;
  approver: PdfSigner | null;
  images: { desc: string; data: Buffer | null }[];
  sampleGraphs: (Omit<PrintSampleGraph, 'url'> & { data: Buffer | null })[];
}

export interface PdfInput {
  hospitalName: string;
  title: string;
  footerText: string;
  showSignatures: boolean;
  logo: Buffer | null;
  stamp: Buffer | null;
  imageColumns: number;
  reports: PdfReport[];
  /** the document's creation date (the clock's now) */
  createdAt: Date;
}

const day = (d: string) => (/^\d{8}$/.test(d) ? `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}` : d);
function when(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}
function age(a: string | null): string {
  const m = a ? /^0*(\d+)([YMWD])$/.exec(a) : null;
  return m ? `${m[1]}${m[2]}` : (a ?? '');
}

function header(doc: Doc, input: PdfInput, L: PdfLabels): void {
  const width = doc.page.width - 2 * MARGIN;
  const top = MARGIN;
  const logoDrawn = picture(doc, input.logo, MARGIN, top, [54, 54]);
  const side = logoDrawn ? 64 : 0;
  write(doc, input.hospitalName, {
    x: MARGIN + side,
    y: top + 4,
    width: width - 2 * side,
    size: 18,
    face: 'bold',
    align: 'center',
  });
  write(doc, input.title || L.defaultTitle, {
    x: MARGIN + side,
    y: doc.y + 2,
    width: width - 2 * side,
    size: 13,
    align: 'center',
  });
  doc.y = Math.max(doc.y, top + (logoDrawn ? 58 : 0)) + 6;
  rule(doc, doc.y, 1.2);
  doc.y += 6;
}

function examBlock(doc: Doc, r: PdfReport, L: PdfLabels): void {
  const e = r.exam;
  const gender = L.genders[e.patientGender] ?? e.patientGender;
  const cells: [string, string][] = [
    [L.name, e.patientName],
    [L.gender, gender],
    [L.age, age(e.age)],
    [L.patientId, e.patientId],
    [L.accessionNumber, e.accessionNumber],
    [L.studyDate, day(e.studyDate)],
    [L.modality, e.modality],
    [L.bodyPart, e.bodyPart],
  ];
  const optional: [string, string][] = [
    [L.applyDept, e.applyDept],
    [L.bedNum, e.bedNum],
    [L.inpatientId, e.inpatientId],
    [L.outpatientId, e.outpatientId],
    [L.studyDesc, e.studyDesc],
  ];
  cells.push(...optional.filter(([, v]) => v.trim() !== ''));
  const width = doc.page.width - 2 * MARGIN;
  const columns = 3;
  const cellWidth = width / columns;
  for (let i = 0; i < cells.length; i += columns) {
    const y = doc.y;
    let rowBottom = y;
    cells.slice(i, i + columns).forEach(([label, value], c) => {
      write(doc, `${label}: ${value}`, { x: MARGIN + c * cellWidth, y, width: cellWidth - 6, size: 9.5 });
      rowBottom = Math.max(rowBottom, doc.y);
    });
    doc.y = rowBottom + 2;
  }
  if (e.clinicImpression.trim()) {
    write(doc, `${L.clinicImpression}: ${e.clinicImpression}`, { x: MARGIN, width, size: 9.5 });
  }
  if (e.urgent) write(doc, L.urgent, { x: MARGIN, width, size: 9.5, face: 'bold', color: '#b00000' });
  doc.y += 4;
  rule(doc, doc.y);
  doc.y += 8;
}

function images(doc: Doc, r: PdfReport, columns: number): void {
  const shown = r.images.filter((i) => i.data);
  if (shown.length === 0) return;
  const width = doc.page.width - 2 * MARGIN;
  const gap = 8;
  const cellWidth = (width - gap * (columns - 1)) / columns;
  const cellHeight = cellWidth * 0.75;
  for (let i = 0; i < shown.length; i += columns) {
    const row = shown.slice(i, i + columns);
    const descHeight = Math.max(0, ...row.map((im) => (im.desc ? heightOf(doc, im.desc, cellWidth, 8) : 0)));
    ensureRoom(doc, cellHeight + descHeight + gap);
    const y = doc.y;
    row.forEach((im, c) => {
      const x = MARGIN + c * (cellWidth + gap);
      doc.save().rect(x, y, cellWidth, cellHeight).fill('#000000').restore();
      picture(doc, im.data, x, y, [cellWidth, cellHeight]);
      if (im.desc) {
        write(doc, im.desc, { x, y: y + cellHeight + 2, width: cellWidth, size: 8, color: GREY, align: 'center' });
      }
    });
    doc.y = y + cellHeight + descHeight + gap;
  }
  doc.y += 2;
}

/**
 * The sample graphs under the key images, two to a row, each with its numbered marks drawn over
 * it as the editor shows them: a circle in the mark's colour and its label beside it, sized to
 * the image as spec 000 §9 sizes them (12 and 24 on an image 400 high).
 */
function sampleGraphs(doc: Doc, r: PdfReport): void {
  const shown = r.sampleGraphs.filter((g) => g.data && g.width > 0 && g.height > 0);
  if (shown.length === 0) return;
  const width = doc.page.width - 2 * MARGIN;
  const gap = 8;
  const columns = 2;
  const cellWidth = (width - gap * (columns - 1)) / columns;
  const cellHeight = cellWidth * 0.75;
  for (let i = 0; i < shown.length; i += columns) {
    const row = shown.slice(i, i + columns);
    ensureRoom(doc, cellHeight + 14 + gap);
    const y = doc.y;
    row.forEach((g, c) => {
      const scale = Math.min(cellWidth / g.width, cellHeight / g.height);
      const [w, h] = [g.width * scale, g.height * scale];
      const x = MARGIN + c * (cellWidth + gap) + (cellWidth - w) / 2;
      const top = y + (cellHeight - h) / 2;
      if (!picture(doc, g.data, x, top, [w, h])) return;
      doc.save().lineWidth(0.5).strokeColor('#cccccc').rect(x, top, w, h).stroke().restore();
      marks(doc, g, x, top, scale);
      write(doc, g.title, {
        x: MARGIN + c * (cellWidth + gap),
        y: y + cellHeight + 2,
        width: cellWidth,
        size: 8,
        color: GREY,
        align: 'center',
      });
    });
    doc.y = y + cellHeight + 14 + gap;
  }
}

/** A graph's marks on the page: the image's pixel (x, y) lands at left + x × scale. */
function marks(doc: Doc, g: PdfReport['sampleGraphs'][number], left: number, top: number, scale: number): void {
  const radius = MARK_CIRCLE_RADIUS * markScale(g.height) * scale;
  const size = Math.max(5, MARK_FONT_SIZE * markScale(g.height) * scale);
  for (const p of g.points) {
    const [cx, cy] = [left + p.x * scale, top + p.y * scale];
    doc
      .save()
      .lineWidth(Math.max(0.6, radius / 4))
      .circle(cx, cy, radius);
    doc.fillOpacity(0.2).fillAndStroke(p.color, p.color).restore();
    const labelWidth = widthOf(doc, p.label, { size, face: 'bold' });
    const gap = radius * 1.25;
    const right = cx + gap + labelWidth <= left + g.width * scale;
    write(doc, p.label, {
      x: right ? cx + gap : cx - gap - labelWidth,
      y: cy - size * 0.55,
      width: labelWidth + 2,
      size,
      face: 'bold',
      color: p.color,
    });
  }
  doc.fillColor(BLACK);
}

function section(doc: Doc, title: string, body: string): void {
  const width = doc.page.width - 2 * MARGIN;
  ensureRoom(doc, 40);
  write(doc, title, { x: MARGIN, width, size: 11.5, face: 'bold' });
  doc.y += 3;
  write(doc, body.trim() ? body : '—', { x: MARGIN + 12, width: width - 12, size: 10.5, lineGap: 4 });
  doc.y += 10;
}

function signatures(doc: Doc, input: PdfInput, r: PdfReport, L: PdfLabels): void {
  const width = doc.page.width - 2 * MARGIN;
  const height = 64;
  ensureRoom(doc, height + 10);
  rule(doc, doc.y);
  const y = doc.y + 10;
  const third = width / 3;
  /** Draws label and signature (or name); answers the middle of the signature's room. */
  const signer = (label: string, who: PdfSigner | null, x: number): number => {
    const labelWidth = Math.min(third * 0.55, widthOf(doc, `${label}:`, { size: 10 }) + 6);
    write(doc, `${label}:`, { x, y: y + 12, width: labelWidth, size: 10 });
    const room = third - labelWidth - 8;
    const drawn = input.showSignatures && picture(doc, who?.signature ?? null, x + labelWidth, y, [room, 36]);
    if (!drawn && who) write(doc, who.name, { x: x + labelWidth, y: y + 12, width: room, size: 10 });
    return x + labelWidth + room / 2;
  };
  signer(L.writer, r.writer, MARGIN);
  const approverMiddle = signer(L.approver, r.approver, MARGIN + third);
  const time = when(r.approvedAt ?? r.submittedAt);
  write(doc, `${L.reportTime}: ${time}`, { x: MARGIN + 2 * third, y: y + 12, width: third, size: 10 });
  // The stamp sits over the approver's signature, as a hospital stamps a paper report.
  if (r.approved) picture(doc, input.stamp, approverMiddle - 42, y - 18, [84, 84]);
  doc.y = y + height - 10;
}

function report(doc: Doc, input: PdfInput, r: PdfReport, L: PdfLabels): void {
  header(doc, input, L);
  examBlock(doc, r, L);
  if (!r.approved) {
    write(doc, L.notApproved, {
      x: MARGIN,
      width: doc.page.width - 2 * MARGIN,
      size: 10,
      face: 'bold',
      color: '#b00000',
    });
    doc.y += 6;
  }
  images(doc, r, input.imageColumns);
  sampleGraphs(doc, r);
  section(doc, L.findings, r.findings);
  section(doc, L.conclusion, r.conclusion);
  const width = doc.page.width - 2 * MARGIN;
  if (r.positive !== null) {
    write(doc, `${L.positive}: ${r.positive ? L.positiveYes : L.positiveNo}`, { x: MARGIN, width, size: 10 });
  }
  for (const a of r.attributes) write(doc, `${a.label}: ${a.value}`, { x: MARGIN, width, size: 10 });
  doc.y += 6;
  signatures(doc, input, r, L);
  if (input.footerText) {
    ensureRoom(doc, heightOf(doc, input.footerText, width, 8) + 8);
    doc.y += 6;
    write(doc, input.footerText, { x: MARGIN, width, size: 8, color: GREY });
  }
}

/** Renders the reports (one or a merged print of several), each starting on a new page. */
export function renderPrintPdf(input: PdfInput, fonts: PdfFonts, lang: PdfLang = 'chs'): Promise<Buffer> {
  const L = PDF_LABELS[lang];
  const first = input.reports[0];
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, bottom: MARGIN + 14, left: MARGIN, right: MARGIN },
    bufferPages: true,
    autoFirstPage: false,
    lang: lang === 'en' ? 'en' : lang === 'tib' ? 'bo' : 'zh-CN',
    info: {
      Title: `${input.hospitalName} ${input.title || L.defaultTitle}`.trim(),
      Creator: 'yyp',
      Producer: 'yyp',
      CreationDate: input.createdAt,
      ...(first ? { Subject: first.exam.accessionNumber || first.reportId } : {}),
    },
  });
  const done = fontsAndBytes(doc, fonts);
  for (const r of input.reports) {
    doc.addPage();
    report(doc, input, r, L);
  }
  if (input.reports.length === 0) doc.addPage();
  const range = doc.bufferedPageRange();
  for (let i = 0; i < range.count; i++) {
    doc.switchToPage(range.start + i);
    const keep = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    write(doc, L.page(i + 1, range.count), {
      x: MARGIN,
      y: doc.page.height - MARGIN,
      width: doc.page.width - 2 * MARGIN,
      size: 8,
      color: GREY,
      align: 'center',
    });
    doc.page.margins.bottom = keep;
  }
  doc.end();
  return done;
}
