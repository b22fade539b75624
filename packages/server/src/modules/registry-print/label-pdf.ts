import { LABEL_HEIGHT_MM, LABEL_WIDTH_MM, type Language, type LabelLayout } from '@yyp/contracts';
import { type Doc, type PdfFonts } from '../report-print/index.js';
import type { Barcode } from './barcode.js';
import { ageOn, GREY, line, mm, openDoc, RED } from './desk-pdf.js';
import { DESK_PRINT_LABELS, type DeskPrintLabels } from './print-labels.js';

/** What one label prints: a scheduled exam with its patient, and its accession number's barcode. */
export interface LabelItem {
  orgName: string;
  patientName: string;
  gender: string;
  birthDate: string;
  patientId: string;
  passCode: string;
  accessionNumber: string;
  procedure: string;
  modality: string;
  scheduledDate: string;
  scheduledTime: string;
  deviceName: string;
  urgent: boolean;
  barcode: Barcode;
}

const W = mm(LABEL_WIDTH_MM);
const H = mm(LABEL_HEIGHT_MM);
/** Inner margin of a label: what a thermal printer leaves unprinted at the edges, and a little more. */
const PAD = mm(3);
/** A module of the barcode: 0.375 mm is 3 dots of a 203 dpi thermal head, readable by any scanner. */
const MODULE = mm(0.375);
const QUIET = 10;
const BAR_HEIGHT = mm(11);
/** A4 with 2 × 5 labels of 80 × 50 mm, centred (label paper of that layout, or cut along the frame). */
const SHEET = { width: mm(210), height: mm(297), columns: 2, rows: 5 };

function drawLabel(doc: Doc, x0: number, y0: number, item: LabelItem, L: DeskPrintLabels): void {
  const width = W - 2 * PAD;
  const x = x0 + PAD;
  const urgentWidth = item.urgent ? mm(18) : 0;
  line(doc, item.orgName, { x, y: y0 + PAD, width: width - urgentWidth, size: 7, color: GREY });
  if (item.urgent) {
    line(doc, L.urgent, {
      x: x + width - urgentWidth,
      y: y0 + PAD - 1,
      width: urgentWidth,
      size: 9,
      face: 'bold',
      color: RED,
      align: 'right',
    });
  }
  const age = ageOn(item.birthDate, item.scheduledDate);
  const who = [L.genders[item.gender] ?? item.gender, age === null ? '' : L.age(age)].filter(Boolean).join(' ');
  line(doc, `${item.patientName}  ${who}`, { x, y: y0 + PAD + 10, width, size: 11.5, face: 'bold' });
  line(doc, `${L.fields.patientId}: ${item.patientId}    ${L.fields.passCode}: ${item.passCode}`, {
    x,
    y: y0 + PAD + 27,
    width,
    size: 7.5,
  });
  const procedure =
    item.modality && !item.procedure.includes(item.modality) ? `${item.procedure} (${item.modality})` : item.procedure;
  line(doc, `${L.procedure}: ${procedure}`, { x, y: y0 + PAD + 38, width, size: 8 });
  const when = [item.scheduledDate, item.scheduledTime, item.deviceName].filter(Boolean).join('  ');
  line(doc, `${L.scheduled}: ${when}`, { x, y: y0 + PAD + 50, width, size: 8 });
  // The barcode in 0.375 mm modules, narrower only when a long number must still fit the label.
  const module = Math.min(MODULE, width / (item.barcode.modules + 2 * QUIET));
  const barWidth = item.barcode.modules * module;
  const barTop = y0 + H - PAD - BAR_HEIGHT - 10;
  doc.image(item.barcode.png, x0 + (W - barWidth) / 2, barTop, { width: barWidth, height: BAR_HEIGHT });
  line(doc, item.accessionNumber, { x, y: barTop + BAR_HEIGHT + 1, width, size: 8, align: 'center' });
}

/**
 * The labels (spec 000 §9 "label 80x50 mm"): `label` puts each on a page of its own, 80 × 50 mm,
 * for a label printer; `sheet` puts 10 on each A4 page with a light frame to cut along.
 */
export function renderLabels(
  items: LabelItem[],
  o: { layout: LabelLayout; lang: Language; createdAt: Date },
  fonts: PdfFonts,
): Promise<Buffer> {
  const L = DESK_PRINT_LABELS[o.lang];
  const { doc, done } = openDoc(fonts, o.lang, {
    title: `${items[0]?.orgName ?? ''} ${L.accessionNumber}`.trim(),
    subject: items.map((i) => i.accessionNumber).join(' '),
    createdAt: o.createdAt,
  });
  const margins = { top: 0, bottom: 0, left: 0, right: 0 };
  if (o.layout === 'label') {
    for (const item of items) {
      doc.addPage({ size: [W, H], margins });
      drawLabel(doc, 0, 0, item, L);
    }
  } else {
    const perPage = SHEET.columns * SHEET.rows;
    const left = (SHEET.width - SHEET.columns * W) / 2;
    const top = (SHEET.height - SHEET.rows * H) / 2;
    items.forEach((item, i) => {
      const at = i % perPage;
      if (at === 0) doc.addPage({ size: [SHEET.width, SHEET.height], margins });
      const x0 = left + (at % SHEET.columns) * W;
      const y0 = top + Math.floor(at / SHEET.columns) * H;
      doc.save().lineWidth(0.3).dash(2, { space: 2 }).strokeColor('#bbbbbb').rect(x0, y0, W, H).stroke().restore();
      drawLabel(doc, x0, y0, item, L);
    });
  }
  doc.end();
  return done;
}
