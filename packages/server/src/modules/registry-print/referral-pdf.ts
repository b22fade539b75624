import type { Language, OrderTemplate, Registration } from '@yyp/contracts';
import { displayPersonName } from '@yyp/contracts';
import { write, type Doc, type PdfFonts } from '../report-print/index.js';
import type { Barcode } from './barcode.js';
import { ageOn, BLACK, GREY, isoDay, line, mm, openDoc, RED } from './desk-pdf.js';
import { DESK_PRINT_LABELS, type DeskPrintLabels } from './print-labels.js';

const MARGIN = mm(15);
const RULE = '#999999';
/** Fields printed across the whole width (free text), the others three to a row. */
const LONG = new Set(['address', 'clinicImpression', 'note']);

export interface ReferralInput {
  template: OrderTemplate;
  lang: Language;
  createdAt: Date;
  /** the printing time as the hospital reads it */
  printedAt: string;
  /** each registration with only the exams asked, all of one day */
  registrations: Registration[];
  barcodes: Map<string, Barcode>;
}

function rule(doc: Doc, y: number, weight = 0.8): void {
  doc
    .save()
    .lineWidth(weight)
    .strokeColor(RULE)
    .moveTo(MARGIN, y)
    .lineTo(doc.page.width - MARGIN, y)
    .stroke()
    .restore();
}

function fieldValue(r: Registration, field: string, L: DeskPrintLabels, day: string): string {
  const p = r.patient;
  switch (field) {
    case 'patientId':
      return p.patientId;
    case 'gender':
      return L.genders[p.gender] ?? p.gender;
    case 'age': {
      const age = ageOn(p.birthDate, day);
      return age === null ? '' : L.age(age);
    }
    case 'birthDate':
      return isoDay(p.birthDate);
    case 'phone':
    case 'idCard':
    case 'address':
      return p[field];
    case 'patientSource':
      return L.sources[r.patientSource] ?? r.patientSource;
    case 'weight':
    case 'height':
      return r[field] === null ? '' : String(r[field]);
    case 'passCode':
      return r.passCode;
    case 'outpatientId':
    case 'inpatientId':
    case 'bedNum':
    case 'physicalExamId':
    case 'applyDept':
    case 'orderPlacer':
    case 'clinicImpression':
    case 'note':
      return r[field];
    default:
      return '';
  }
}

function form(doc: Doc, r: Registration, input: ReferralInput, L: DeskPrintLabels): void {
  const t = input.template;
  const width = doc.page.width - 2 * MARGIN;
  let y = MARGIN;
  t.headerLines.forEach((h, i) => {
    line(doc, h, { x: MARGIN, y, width, size: i === 0 ? 15 : 11, face: i === 0 ? 'bold' : 'text', align: 'center' });
    y = doc.y + 2;
  });
  line(doc, t.title || L.formTitle, { x: MARGIN, y: y + 2, width, size: 17, face: 'bold', align: 'center' });
  y = doc.y + 6;
  if (r.urgent) line(doc, L.urgent, { x: MARGIN, y: MARGIN, width: mm(20), size: 14, face: 'bold', color: RED });
  rule(doc, y, 1.2);
  y += 8;
  const day = r.exams[0]?.scheduledDate ?? '';
  line(doc, `${L.name}: ${displayPersonName(r.patient.name, input.lang)}`, {
    x: MARGIN,
    y,
    width,
    size: 13,
    face: 'bold',
  });
  y = doc.y + 4;
  const shown = t.fields.filter((f) => f !== 'barcode');
  const cells = shown
    .filter((f) => !LONG.has(f))
    .map((f) => [L.fields[f as keyof DeskPrintLabels['fields']], fieldValue(r, f, L, day)] as const)
    // what the registration does not hold is left out (an inpatient has no outpatient id)
    .filter(([, value]) => value.trim() !== '');
  const cellWidth = width / 3;
  for (let i = 0; i < cells.length; i += 3) {
    cells.slice(i, i + 3).forEach(([label, value], c) => {
      line(doc, `${label}: ${value}`, { x: MARGIN + c * cellWidth, y, width: cellWidth - 6, size: 10 });
    });
    y += 17;
  }
  for (const f of shown.filter((f) => LONG.has(f))) {
    const value = fieldValue(r, f, L, day);
    if (value.trim() === '') continue;
    write(doc, `${L.fields[f as keyof DeskPrintLabels['fields']]}: ${value}`, { x: MARGIN, y, width, size: 10 });
    y = doc.y + 4;
  }
  rule(doc, y + 2);
  y += 10;
  line(doc, `${L.exams} (${r.exams.length})`, { x: MARGIN, y, width, size: 12, face: 'bold' });
  y = doc.y + 6;
  const withBarcode = t.fields.includes('barcode');
  const barArea = withBarcode ? mm(60) : 0;
  const textWidth = width - barArea;
  for (const e of r.exams) {
    const top = y;
    const procedure = e.procedureName || e.studyDesc || e.modality;
    line(doc, `${L.accessionNumber}: ${e.accessionNumber}`, {
      x: MARGIN,
      y,
      width: textWidth,
      size: 10.5,
      face: 'bold',
    });
    y = doc.y + 2;
    line(doc, `${L.procedure}: ${procedure}`, { x: MARGIN, y, width: textWidth, size: 10.5 });
    y = doc.y + 2;
    const when = [e.scheduledDate, e.scheduledTime].filter(Boolean).join(' ');
    const facts = [
      `${L.modality}: ${e.modality}`,
      e.bodyPart ? `${L.bodyPart}: ${e.bodyPart}` : '',
      `${L.scheduled}: ${when}`,
      e.deviceName || e.stationAeTitle ? `${L.device}: ${e.deviceName || e.stationAeTitle}` : '',
    ].filter(Boolean);
    line(doc, facts.join('    '), { x: MARGIN, y, width: textWidth, size: 9.5, color: GREY });
    y = doc.y;
    const barcode = withBarcode ? input.barcodes.get(e.accessionNumber) : undefined;
    if (barcode) {
      // 0.33 mm modules (narrower only for a long number), right-aligned beside the exam's lines.
      const w = barcode.modules * Math.min(mm(0.33), (barArea - mm(4)) / barcode.modules);
      doc.image(barcode.png, doc.page.width - MARGIN - w, top + 2, { width: w, height: mm(10) });
      y = Math.max(y, top + 2 + mm(10));
    }
    y += 12;
  }
  if (t.footerNote) {
    rule(doc, y);
    write(doc, t.footerNote, { x: MARGIN, y: y + 6, width, size: 9.5, color: BLACK });
    y = doc.y;
  }
  line(doc, `${L.printedAt}: ${input.printedAt}`, {
    x: MARGIN,
    y: doc.page.height - MARGIN,
    width,
    size: 8,
    color: GREY,
    align: 'right',
  });
}

/**
 * The referral forms (spec 000 §2 "referral form printing"): one A4 page per registration on the
 * organization's template, the exams asked of it with their barcodes. The caller merged only
 * exams of one day (spec 000 §5).
 */
export function renderReferralForms(input: ReferralInput, fonts: PdfFonts): Promise<Buffer> {
  const L = DESK_PRINT_LABELS[input.lang];
  const { doc, done } = openDoc(fonts, input.lang, {
    title: `${input.template.headerLines[0] ?? ''} ${input.template.title || L.formTitle}`.trim(),
    subject: input.registrations.flatMap((r) => r.exams.map((e) => e.accessionNumber)).join(' '),
    createdAt: input.createdAt,
  });
  for (const r of input.registrations) {
    doc.addPage({ size: 'A4', margins: { top: 0, bottom: 0, left: 0, right: 0 } });
    form(doc, r, input, L);
  }
  doc.end();
  return done;
}
