/**
 * Non-image objects of a generated study, for tests: a Structured Report (Comprehensive SR with
 * text, codes, numbers with units, dates, a person name, a UID reference and nested containers),
 * an Encapsulated PDF and a Key Object Selection naming some of the study's images. Each belongs
 * to the study given (same patient and study UIDs) in a series of its own.
 */
import { type GeneratedInstance, type GeneratedStudy, newUid } from './generate.js';
import { type Charset } from './text-encode.js';
import { DatasetBuilder, EXPLICIT_VR_LE, type TransferSyntax, encodePart10, tag } from './writer.js';

export const OBJECT_SOP_CLASS = {
  comprehensiveSr: '1.2.840.10008.5.1.4.1.1.88.33',
  basicTextSr: '1.2.840.10008.5.1.4.1.1.88.11',
  keyObjectSelection: '1.2.840.10008.5.1.4.1.1.88.59',
  encapsulatedPdf: '1.2.840.10008.5.1.4.1.1.104.1',
  grayscalePresentationState: '1.2.840.10008.5.1.4.1.1.11.1',
} as const;

export interface ObjectStudy {
  studyInstanceUid: string;
  patientName?: string;
  patientId?: string;
  charset?: Charset;
  transferSyntax?: TransferSyntax;
  seriesNumber?: number;
  /** the SR's verifying observer (PN, in `charset`) */
  verifier?: string;
}

/** A content item: value type, concept (code value, meaning), relationship and the value's attributes. */
export interface Content {
  type: 'CONTAINER' | 'TEXT' | 'CODE' | 'NUM' | 'DATE' | 'DATETIME' | 'PNAME' | 'UIDREF' | 'IMAGE';
  concept: [string, string];
  rel?: string;
  text?: string;
  code?: [string, string];
  num?: [string, string];
  value?: string;
  image?: { sopClassUid: string; sopUid: string; frames?: number[] };
  children?: Content[];
}

const code = (charset: Charset, [value, meaning]: [string, string], scheme = '99YYP') =>
  new DatasetBuilder(charset)
    .text(tag(0x0008, 0x0100), 'SH', value)
    .text(tag(0x0008, 0x0102), 'SH', scheme)
    .text(tag(0x0008, 0x0104), 'LO', meaning);

/** The attributes of one content item (and its children) on `ds`. */
export function contentItem(ds: DatasetBuilder, c: Content, charset: Charset): DatasetBuilder {
  ds.text(tag(0x0040, 0xa040), 'CS', c.type).sequence(tag(0x0040, 0xa043), [code(charset, c.concept)]);
  if (c.rel) ds.text(tag(0x0040, 0xa010), 'CS', c.rel);
  if (c.type === 'CONTAINER') ds.text(tag(0x0040, 0xa050), 'CS', 'SEPARATE');
  if (c.text !== undefined) ds.text(tag(0x0040, 0xa160), 'UT', c.text);
  if (c.code) ds.sequence(tag(0x0040, 0xa168), [code(charset, c.code)]);
  if (c.num) {
    const measured = new DatasetBuilder(charset)
      .text(tag(0x0040, 0xa30a), 'DS', c.num[0])
      .sequence(tag(0x0040, 0x08ea), [code(charset, [c.num[1], c.num[1]], 'UCUM')]);
    ds.sequence(tag(0x0040, 0xa300), [measured]);
  }
  if (c.type === 'DATE') ds.text(tag(0x0040, 0xa121), 'DA', c.value ?? '');
  if (c.type === 'DATETIME') ds.text(tag(0x0040, 0xa120), 'DT', c.value ?? '');
  if (c.type === 'PNAME') ds.text(tag(0x0040, 0xa123), 'PN', c.value ?? '');
  if (c.type === 'UIDREF') ds.text(tag(0x0040, 0xa124), 'UI', c.value ?? '');
  if (c.image) {
    const ref = new DatasetBuilder(charset)
      .text(tag(0x0008, 0x1150), 'UI', c.image.sopClassUid)
      .text(tag(0x0008, 0x1155), 'UI', c.image.sopUid);
    if (c.image.frames?.length) ref.integerString(tag(0x0008, 0x1160), c.image.frames);
    ds.sequence(tag(0x0008, 0x1199), [ref]);
  }
  if (c.children?.length) {
    ds.sequence(
      tag(0x0040, 0xa730),
      c.children.map((child) => contentItem(new DatasetBuilder(charset), child, charset)),
    );
  }
  return ds;
}

/** Patient, study, series and SOP attributes of an object in a series of its own. */
function header(s: ObjectStudy, sopClassUid: string, modality: string, description: string) {
  const charset = s.charset ?? '';
  const sopInstanceUid = newUid();
  const seriesInstanceUid = newUid();
  const seriesNumber = s.seriesNumber ?? 90;
  const ds = new DatasetBuilder(charset);
  if (charset) ds.text(tag(0x0008, 0x0005), 'CS', charset);
  ds.text(tag(0x0008, 0x0016), 'UI', sopClassUid)
    .text(tag(0x0008, 0x0018), 'UI', sopInstanceUid)
    .text(tag(0x0008, 0x0020), 'DA', '20240601')
    .text(tag(0x0008, 0x0023), 'DA', '20240602')
    .text(tag(0x0008, 0x0030), 'TM', '101500')
    .text(tag(0x0008, 0x0033), 'TM', '093000')
    .text(tag(0x0008, 0x0050), 'SH', '')
    .text(tag(0x0008, 0x0060), 'CS', modality)
    .text(tag(0x0008, 0x0070), 'LO', 'YYP')
    .text(tag(0x0008, 0x0090), 'PN', '')
    .text(tag(0x0008, 0x103e), 'LO', description)
    .text(tag(0x0010, 0x0010), 'PN', s.patientName ?? 'DOE^JANE')
    .text(tag(0x0010, 0x0020), 'LO', s.patientId ?? 'YYP-OBJECTS')
    .text(tag(0x0010, 0x0030), 'DA', '')
    .text(tag(0x0010, 0x0040), 'CS', '')
    .text(tag(0x0020, 0x000d), 'UI', s.studyInstanceUid)
    .text(tag(0x0020, 0x000e), 'UI', seriesInstanceUid)
    .text(tag(0x0020, 0x0010), 'SH', '1')
    .integerString(tag(0x0020, 0x0011), seriesNumber)
    .integerString(tag(0x0020, 0x0013), 1);
  const finish = (): GeneratedInstance => ({
    fileName: `${sopInstanceUid}.dcm`,
    bytes: encodePart10({
      sopClassUid,
      sopInstanceUid,
      transferSyntax: s.transferSyntax ?? EXPLICIT_VR_LE,
      dataset: ds,
    }),
    sopInstanceUid,
    sopClassUid,
    seriesInstanceUid,
    seriesNumber,
    instanceNumber: 1,
  });
  return { ds, charset, finish };
}

/** SR document attributes: flags, observer, evidence, and the root container with `content`. */
function srDocument(
  s: ObjectStudy,
  sopClassUid: string,
  modality: string,
  title: [string, string],
  content: Content[],
  evidence: GeneratedInstance[] = [],
) {
  const h = header(s, sopClassUid, modality, modality === 'KO' ? 'Key images' : 'Structured report');
  const { ds, charset } = h;
  if (modality === 'SR') {
    ds.text(tag(0x0040, 0xa491), 'CS', 'COMPLETE')
      .text(tag(0x0040, 0xa493), 'CS', 'VERIFIED')
      .sequence(tag(0x0040, 0xa073), [
        new DatasetBuilder(charset)
          .text(tag(0x0040, 0xa075), 'PN', s.verifier ?? 'WANG^FANG')
          .text(tag(0x0040, 0xa027), 'LO', 'YYP Test Hospital')
          .text(tag(0x0040, 0xa030), 'DT', '20240602093000'),
      ]);
  }
  if (evidence.length) {
    const bySeries = new Map<string, GeneratedInstance[]>();
    for (const i of evidence) bySeries.set(i.seriesInstanceUid, [...(bySeries.get(i.seriesInstanceUid) ?? []), i]);
    const series = [...bySeries].map(([uid, list]) =>
      new DatasetBuilder(charset).text(tag(0x0020, 0x000e), 'UI', uid).sequence(
        tag(0x0008, 0x1199),
        list.map((i) =>
          new DatasetBuilder(charset)
            .text(tag(0x0008, 0x1150), 'UI', i.sopClassUid)
            .text(tag(0x0008, 0x1155), 'UI', i.sopInstanceUid),
        ),
      ),
    );
    ds.sequence(tag(0x0040, 0xa375), [
      new DatasetBuilder(charset)
        .text(tag(0x0020, 0x000d), 'UI', s.studyInstanceUid)
        .sequence(tag(0x0008, 0x1115), series),
    ]);
  }
  contentItem(ds, { type: 'CONTAINER', concept: title, children: content }, charset);
  return h.finish();
}

/** A Comprehensive SR: a findings report with every common value type and two levels of nesting. */
export function generateSr(s: ObjectStudy, content?: Content[]): GeneratedInstance {
  const items: Content[] = content ?? [
    { type: 'PNAME', rel: 'HAS OBS CONTEXT', concept: ['121008', 'Person Observer Name'], value: 'LI^LEI' },
    { type: 'DATE', rel: 'HAS OBS CONTEXT', concept: ['111060', 'Study Date'], value: '20240601' },
    {
      type: 'CONTAINER',
      rel: 'CONTAINS',
      concept: ['121070', 'Findings'],
      children: [
        { type: 'TEXT', rel: 'CONTAINS', concept: ['121071', 'Finding'], text: 'Nodule in the right upper lobe' },
        {
          type: 'NUM',
          rel: 'CONTAINS',
          concept: ['410668003', 'Length'],
          num: ['12.5', 'mm'],
          children: [
            { type: 'CODE', rel: 'HAS PROPERTIES', concept: ['363698007', 'Finding Site'], code: ['39607008', 'Lung'] },
          ],
        },
        { type: 'DATETIME', rel: 'CONTAINS', concept: ['111526', 'DateTime Started'], value: '20240601101500' },
        {
          type: 'UIDREF',
          rel: 'CONTAINS',
          concept: ['121018', 'Procedure Study Instance UID'],
          value: s.studyInstanceUid,
        },
      ],
    },
    {
      type: 'CONTAINER',
      rel: 'CONTAINS',
      concept: ['121076', 'Conclusions'],
      children: [
        { type: 'TEXT', rel: 'CONTAINS', concept: ['121077', 'Conclusion'], text: 'Follow-up CT in 3 months' },
      ],
    },
  ];
  return srDocument(s, OBJECT_SOP_CLASS.comprehensiveSr, 'SR', ['18748-4', 'Diagnostic Imaging Report'], items);
}

/** A Key Object Selection ("Of Interest") naming `images` of the study, with a description. */
export function generateKeyObject(s: ObjectStudy, images: GeneratedInstance[], note = 'Key images'): GeneratedInstance {
  const content: Content[] = [
    { type: 'TEXT', rel: 'CONTAINS', concept: ['113012', 'Key Object Description'], text: note },
    ...images.map((i): Content => ({
      type: 'IMAGE',
      rel: 'CONTAINS',
      concept: ['121200', 'Image'],
      image: { sopClassUid: i.sopClassUid, sopUid: i.sopInstanceUid },
    })),
  ];
  return srDocument(s, OBJECT_SOP_CLASS.keyObjectSelection, 'KO', ['113000', 'Of Interest'], content, images);
}

/** A small valid PDF (one page, one line of text). */
export function samplePdf(text = 'yyp encapsulated PDF'): Buffer {
  const stream = `BT /F1 24 Tf 72 720 Td (${text.replace(/[()\\]/g, '')}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) body += `${String(o).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** An Encapsulated PDF of the study. */
export function generatePdf(s: ObjectStudy, pdf: Buffer = samplePdf(), title = 'Outside report'): GeneratedInstance {
  const h = header(s, OBJECT_SOP_CLASS.encapsulatedPdf, 'DOC', 'PDF document');
  h.ds
    .text(tag(0x0008, 0x0064), 'CS', 'WSD')
    .text(tag(0x0028, 0x0301), 'CS', 'NO')
    .text(tag(0x0042, 0x0010), 'ST', title)
    .empty(tag(0x0040, 0xa043), 'SQ')
    .text(tag(0x0042, 0x0012), 'LO', 'application/pdf')
    .uint32(tag(0x0042, 0x0015), pdf.length)
    .bytes(tag(0x0042, 0x0011), 'OB', pdf);
  return h.finish();
}

/** FL values: the writer has no FL setter, so its generic one is reached past `private` (test data only). */
function floats(ds: DatasetBuilder, t: number, values: readonly number[]): DatasetBuilder {
  const b = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => b.writeFloatLE(v, i * 4));
  return (ds as unknown as { set(t: number, vr: string, value: Buffer): DatasetBuilder }).set(t, 'FL', b);
}

export interface PresentationGraphic {
  type: 'POLYLINE' | 'POINT' | 'CIRCLE' | 'ELLIPSE' | 'INTERPOLATED';
  points: number[];
  units?: 'PIXEL' | 'DISPLAY';
}

/**
 * A Grayscale Softcopy Presentation State over `images`: one annotation layer with `graphics` and
 * a text object anchored at `text.anchor` (PIXEL units unless said otherwise).
 */
export function generateGsps(
  s: ObjectStudy,
  images: GeneratedInstance[],
  graphics: PresentationGraphic[],
  text?: { value: string; anchor: [number, number] },
): GeneratedInstance {
  const h = header(s, OBJECT_SOP_CLASS.grayscalePresentationState, 'PR', 'Annotations');
  const { ds, charset } = h;
  const refImage = (i: GeneratedInstance) =>
    new DatasetBuilder(charset)
      .text(tag(0x0008, 0x1150), 'UI', i.sopClassUid)
      .text(tag(0x0008, 0x1155), 'UI', i.sopInstanceUid);
  const series = new Map<string, GeneratedInstance[]>();
  for (const i of images) series.set(i.seriesInstanceUid, [...(series.get(i.seriesInstanceUid) ?? []), i]);
  ds.text(tag(0x0070, 0x0080), 'CS', 'ANNOTATIONS')
    .text(tag(0x0070, 0x0081), 'LO', 'Nodule marked')
    .text(tag(0x0070, 0x0082), 'DA', '20240602')
    .text(tag(0x0070, 0x0083), 'TM', '093000')
    .text(tag(0x2050, 0x0020), 'CS', 'IDENTITY')
    .sequence(
      tag(0x0008, 0x1115),
      [...series].map(([uid, list]) =>
        new DatasetBuilder(charset)
          .text(tag(0x0020, 0x000e), 'UI', uid)
          .sequence(tag(0x0008, 0x1140), list.map(refImage)),
      ),
    )
    .sequence(tag(0x0070, 0x0060), [
      new DatasetBuilder(charset).text(tag(0x0070, 0x0002), 'CS', 'LAYER1').integerString(tag(0x0070, 0x0062), 1),
    ]);
  const annotation = new DatasetBuilder(charset).text(tag(0x0070, 0x0002), 'CS', 'LAYER1').sequence(
    tag(0x0070, 0x0009),
    graphics.map((g) =>
      floats(
        new DatasetBuilder(charset)
          .text(tag(0x0070, 0x0005), 'CS', g.units ?? 'PIXEL')
          .uint16(tag(0x0070, 0x0020), 2)
          .uint16(tag(0x0070, 0x0021), g.points.length / 2)
          .text(tag(0x0070, 0x0023), 'CS', g.type)
          .text(tag(0x0070, 0x0024), 'CS', 'N'),
        tag(0x0070, 0x0022),
        g.points,
      ),
    ),
  );
  if (text) {
    annotation.sequence(tag(0x0070, 0x0008), [
      floats(
        new DatasetBuilder(charset)
          .text(tag(0x0070, 0x0006), 'ST', text.value)
          .text(tag(0x0070, 0x0004), 'CS', 'PIXEL')
          .text(tag(0x0070, 0x0015), 'CS', 'Y'),
        tag(0x0070, 0x0014),
        text.anchor,
      ),
    ]);
  }
  ds.sequence(tag(0x0070, 0x0001), [annotation]);
  return h.finish();
}

/** The study with an SR, a PDF and a KO naming its first image added (series 90, 91, 92). */
export function withObjects(study: GeneratedStudy, s: Omit<ObjectStudy, 'studyInstanceUid'> = {}): GeneratedStudy {
  const base = { ...s, studyInstanceUid: study.studyInstanceUid, patientId: s.patientId ?? study.patientId };
  const sr = generateSr({ ...base, seriesNumber: 90 });
  const pdf = generatePdf({ ...base, seriesNumber: 91 });
  const ko = generateKeyObject({ ...base, seriesNumber: 92 }, study.instances.slice(0, 1));
  return { ...study, instances: [...study.instances, sr, pdf, ko] };
}
