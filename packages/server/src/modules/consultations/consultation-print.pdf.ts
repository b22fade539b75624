import PDFDocument from 'pdfkit';
import {
  REPORT_TEMPLATE_LAYOUTS,
  type ConsultationCaseType,
  type ConsultationStatusName,
  type Language,
  type ReportLayoutSection,
} from '@yyp/contracts';
import { fontsAndBytes, write, type Doc, type PdfFonts, type PrintHeader } from '../report-print/index.js';
import { chinaTime, CONSULTATION_PRINT_LABELS, type ConsultationPrintLabels } from './consultation-print.labels.js';

/**
 * The consultation's conclusion as a PDF (issue 25 "print"), in the consultation layout
 * (contracts REPORT_TEMPLATE_LAYOUTS 'consultation-standard', layout type 3) under the printing
 * organization's template header. Every text is drawn as text (report-print's write: Chinese and
 * Latin in Noto Sans CJK, Tibetan in its own font), never parsed as markup.
 */

export interface ConsultationPdfInput {
  lang: Language;
  header: PrintHeader;
  createdAt: Date;
  title: string;
  status: ConsultationStatusName;
  patient: { name: string; gender: string; age: string; tel: string; contactHospital: string };
  sourceName: string;
  targetName: string;
  scheduledAt: Date;
  created: Date;
  creatorName: string;
  reason: string;
  note: string;
  clinicImpression: string;
  cancelReason: string;
  suggestion: string;
  treatmentPlan: string;
  result: string;
  resultByName: string;
  resultAt: Date | null;
  rating: { score: number; comment: string; ratedAt: Date; ratedByName: string } | null;
  cases: { name: string; type: string; files: number }[];
  exams: { name: string; modality: string; bodyPart: string; studyDate: string | null }[];
  experts: string[];
  joiners: string[];
}

const MARGIN = 42;
const GREY = '#555555';
const RULE = '#999999';

const LAYOUT: readonly ReportLayoutSection[] = REPORT_TEMPLATE_LAYOUTS.find(
  (l) => l.id === 'consultation-standard',
)!.sections;

function rule(doc: Doc, weight = 0.8): void {
  const y = doc.y + 2;
  doc
    .save()
    .lineWidth(weight)
    .strokeColor(RULE)
    .moveTo(MARGIN, y)
    .lineTo(doc.page.width - MARGIN, y)
    .stroke()
    .restore();
  doc.y = y + 6;
}

function room(doc: Doc, height: number): void {
  if (doc.y + height > doc.page.height - MARGIN) doc.addPage();
}

const width = (doc: Doc) => doc.page.width - 2 * MARGIN;

function heading(doc: Doc, text: string): void {
  room(doc, 40);
  doc.y += 4;
  write(doc, text, { x: MARGIN, width: width(doc), size: 12, face: 'bold' });
  doc.y += 2;
}

/** A captioned free text (the caption bold, the text below it); an empty text prints the 'none' word. */
function block(doc: Doc, caption: string, text: string, L: ConsultationPrintLabels): void {
  heading(doc, caption);
  write(doc, text.trim() || L.none, { x: MARGIN, width: width(doc), size: 10, color: text.trim() ? '#000000' : GREY });
  doc.y += 4;
}

/** Label: value cells, `columns` to a row. */
function cells(doc: Doc, pairs: [string, string][], columns: number): void {
  const cellWidth = width(doc) / columns;
  for (let i = 0; i < pairs.length; i += columns) {
    room(doc, 16);
    const y = doc.y;
    let bottom = y;
    pairs.slice(i, i + columns).forEach(([label, value], c) => {
      write(doc, `${label}: ${value}`, { x: MARGIN + c * cellWidth, y, width: cellWidth - 6, size: 10 });
      bottom = Math.max(bottom, doc.y);
    });
    doc.y = bottom + 2;
  }
}

function header(doc: Doc, input: ConsultationPdfInput, L: ConsultationPrintLabels): void {
  const w = width(doc);
  let side = 0;
  if (input.header.logo) {
    try {
      doc.image(input.header.logo, MARGIN, MARGIN, { fit: [54, 54] });
      side = 64;
    } catch {
      side = 0;
    }
  }
  write(doc, input.header.hospitalName, {
    x: MARGIN + side,
    y: MARGIN + 4,
    width: w - 2 * side,
    size: 18,
    face: 'bold',
    align: 'center',
  });
  write(doc, input.header.title || L.documentTitle, {
    x: MARGIN + side,
    y: doc.y + 2,
    width: w - 2 * side,
    size: 13,
    align: 'center',
  });
  doc.y = Math.max(doc.y, MARGIN + (side ? 58 : 0)) + 4;
  rule(doc, 1.2);
  write(doc, input.title, { x: MARGIN, width: w, size: 14, face: 'bold', align: 'center' });
  doc.y += 4;
}

function patient(doc: Doc, input: ConsultationPdfInput, L: ConsultationPrintLabels): void {
  const p = input.patient;
  heading(doc, L.patient);
  const pairs: [string, string][] = [
    [L.name, p.name],
    [L.gender, L.genders[p.gender] ?? p.gender],
    [L.age, p.age],
  ];
  if (p.tel) pairs.push([L.tel, p.tel]);
  if (p.contactHospital) pairs.push([L.contactHospital, p.contactHospital]);
  cells(doc, pairs, 3);
  const facts: [string, string][] = [
    [L.sourceBucket, input.sourceName],
    [L.targetBucket, input.targetName],
    [L.scheduledAt, chinaTime(input.scheduledAt)],
    [L.status, L.statuses[input.status]],
    [L.creator, input.creatorName],
    [L.created, chinaTime(input.created)],
  ];
  if (input.cancelReason.trim()) facts.push([L.cancelReason, input.cancelReason]);
  cells(doc, facts, 2);
  rule(doc);
}

function clinicCase(doc: Doc, input: ConsultationPdfInput, L: ConsultationPrintLabels): void {
  block(doc, L.reason, input.reason, L);
  if (input.note.trim()) block(doc, L.note, input.note, L);
  block(doc, L.clinicImpression, input.clinicImpression, L);
  heading(doc, L.cases);
  const lines = input.cases.map(
    (c) => `${c.name} (${L.caseTypes[c.type as ConsultationCaseType] ?? c.type}, ${L.files(c.files)})`,
  );
  write(doc, lines.join('\n') || L.none, { x: MARGIN, width: width(doc), size: 10 });
  doc.y += 4;
}

function exams(doc: Doc, input: ConsultationPdfInput, L: ConsultationPrintLabels): void {
  heading(doc, L.exams);
  if (input.exams.length === 0) {
    write(doc, L.none, { x: MARGIN, width: width(doc), size: 10, color: GREY });
    return;
  }
  const w = width(doc);
  const cols = [0.4, 0.2, 0.2, 0.2].map((f) => f * w);
  const row = (values: string[], face: 'text' | 'bold') => {
    room(doc, 16);
    const y = doc.y;
    let bottom = y;
    let x = MARGIN;
    values.forEach((v, i) => {
      write(doc, v, { x, y, width: cols[i]! - 6, size: 9.5, face });
      bottom = Math.max(bottom, doc.y);
      x += cols[i]!;
    });
    doc.y = bottom + 2;
  };
  row([L.examName, L.modality, L.bodyPart, L.studyDate], 'bold');
  for (const e of input.exams) row([e.name, e.modality, e.bodyPart, e.studyDate ?? ''], 'text');
  doc.y += 4;
}

function experts(doc: Doc, input: ConsultationPdfInput, L: ConsultationPrintLabels): void {
  const sep = input.lang === 'chs' ? '、' : ', ';
  const pairs: [string, string][] = [[L.experts, input.experts.join(sep) || L.none]];
  if (input.joiners.length > 0) pairs.push([L.joiners, input.joiners.join(sep)]);
  doc.y += 2;
  cells(doc, pairs, 1);
}

function signature(doc: Doc, input: ConsultationPdfInput, L: ConsultationPrintLabels): void {
  rule(doc);
  const pairs: [string, string][] = [];
  if (input.resultByName) pairs.push([L.resultBy, `${input.resultByName}  ${chinaTime(input.resultAt)}`]);
  const r = input.rating;
  if (r) {
    pairs.push([L.rating, `${L.stars(r.score)}  ${r.ratedByName}  ${chinaTime(r.ratedAt)}`]);
    if (r.comment.trim()) pairs.push([L.ratingComment, r.comment]);
  }
  if (pairs.length > 0) cells(doc, pairs, 1);
}

/** Draws the conclusion; answers the PDF's bytes. */
export function renderConsultationPdf(input: ConsultationPdfInput, fonts: PdfFonts): Promise<Buffer> {
  const L = CONSULTATION_PRINT_LABELS[input.lang];
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    lang: input.lang === 'en' ? 'en' : input.lang === 'tib' ? 'bo' : 'zh-CN',
    info: {
      Title: `${input.header.hospitalName} ${L.documentTitle}`.trim(),
      Subject: input.title,
      Creator: 'yyp',
      Producer: 'yyp',
      CreationDate: input.createdAt,
    },
  });
  const done = fontsAndBytes(doc, fonts);
  const draw: Partial<Record<ReportLayoutSection, () => void>> = {
    header: () => header(doc, input, L),
    patient: () => patient(doc, input, L),
    clinicCase: () => clinicCase(doc, input, L),
    consultationExams: () => exams(doc, input, L),
    suggestion: () => block(doc, L.suggestion, input.suggestion, L),
    // the conclusion follows the experts' treatment plan
    treatmentPlan: () => {
      block(doc, L.treatmentPlan, input.treatmentPlan, L);
      block(doc, L.result, input.result, L);
    },
    experts: () => experts(doc, input, L),
    signature: () => signature(doc, input, L),
  };
  for (const section of LAYOUT) draw[section]?.();
  if (input.header.footerText.trim()) {
    rule(doc);
    write(doc, input.header.footerText, { x: MARGIN, width: width(doc), size: 9, color: GREY });
  }
  write(doc, `${L.printedAt}: ${chinaTime(input.createdAt)}`, {
    x: MARGIN,
    y: doc.y + 6,
    width: width(doc),
    size: 8,
    color: GREY,
    align: 'right',
  });
  doc.end();
  return done;
}
