import {
  ENCAPSULATED_PDF_SOP_CLASS,
  GSPS_SOP_CLASS,
  KEY_OBJECT_SOP_CLASS,
  maskIdentifier,
  maskPatientName,
  SR_SOP_CLASS_PREFIX,
  VIEWER_DOCUMENT_LINK_SECONDS,
  viewerObjectKind,
  type ImageAnnotation,
  type KeyImageRef,
  type SrDocument,
  type ViewerDocumentLink,
  type ViewerObjects as ViewerObjectsAnswer,
} from '@yyp/contracts';
import { readGsps } from '../../dicom/gsps.js';
import { DicomError } from '../../dicom/parse.js';
import {
  encapsulatedDocument,
  instanceDataset,
  keyObjectImages,
  readableName,
  readSrDocument,
  type SrDocument as ParsedSr,
} from '../../dicom/sr.js';
import type { AuditContext } from '../../platform/audit.js';
import { maskedFilesRefused } from '../../platform/authz.js';
import type { BlobStore } from '../../platform/blobs.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import type { Signer } from '../../platform/signed.js';
import { auditExam } from '../exams/index.js';
import type { ViewerGrant, ViewingService } from './viewing.service.js';
import { examObject, examObjects, seriesOfInstances, type ExamObjectRow } from './viewing.store.js';

/** At most this many objects are listed per study. */
const MAX_OBJECTS = 500;
/** At most this many key object selections (presentation states) are read for a study. */
const MAX_KEY_OBJECTS = 20;
const MAX_STATES = 20;
/** An SR or key object larger than this is not read (real ones are kilobytes). */
const MAX_SR_BYTES = 16 * 1024 * 1024;
/** An encapsulated document larger than this is not served inline. */
const MAX_DOCUMENT_BYTES = 256 * 1024 * 1024;
const LINK_PURPOSE = 'viewer-document';

const unreadable = (err: unknown) =>
  new AppError(
    'NotAcceptable',
    `This object cannot be shown: ${err instanceof DicomError ? err.message : 'it could not be read'}`,
  );

/** Replaces the patient's name and identifier wherever a masked caller would read them. */
function masker(exam: { patientName: string; patientId: string }): (text: string) => string {
  const pairs: [string, string][] = [];
  const name = exam.patientName.trim();
  if (name) {
    const masked = maskPatientName(name);
    for (const form of new Set([name, readableName(name), name.replaceAll('^', '')])) {
      if (form.length >= 2) pairs.push([form, masked]);
    }
  }
  if (exam.patientId.trim().length >= 2) pairs.push([exam.patientId.trim(), maskIdentifier(exam.patientId)]);
  pairs.sort((a, b) => b[0].length - a[0].length);
  return (text) => pairs.reduce((out, [from, to]) => out.replaceAll(from, to), text);
}

/**
 * The viewer's objects other than images (issue 28 item 10): the list of a study's SR documents,
 * PDFs, key object selections and presentation states with the key images the selections name;
 * an SR document as readable text; an encapsulated document through a short-lived link. Each call
 * is authorized as the viewer's other reads are (ViewingService.open: the signed path, the
 * account's exam_get in the organization, the live exam); SR and document reads are audited as
 * PHI reads, and a masked caller reads the patient's fields masked (a PDF, which cannot be masked,
 * is refused to it, as stored files are).
 */
export class ViewerObjects {
  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
    private readonly signer: Signer,
    private readonly viewing: Pick<ViewingService, 'open' | 'openGrant'>,
  ) {}

  /** GET viewer/objects */
  async list(token: string | undefined): Promise<ViewerObjectsAnswer> {
    const { exam } = await this.viewing.open(token);
    const rows = await examObjects(
      this.db,
      exam,
      { srPrefix: SR_SOP_CLASS_PREFIX, exact: [ENCAPSULATED_PDF_SOP_CLASS, GSPS_SOP_CLASS] },
      MAX_OBJECTS,
    );
    const objects = rows.flatMap((r) => {
      const kind = viewerObjectKind(r.sopClassUid);
      return kind
        ? [
            {
              seriesUid: r.seriesUid,
              sopUid: r.sopUid,
              sopClassUid: r.sopClassUid,
              kind,
              instanceNumber: r.instanceNumber,
            },
          ]
        : [];
    });
    const selections = rows.filter((r) => r.sopClassUid === KEY_OBJECT_SOP_CLASS).slice(0, MAX_KEY_OBJECTS);
    return { objects, keyImages: await this.keyImages(exam, selections) };
  }

  /** The images the key object selections name, in the exam (an unreadable selection names none). */
  private async keyImages(exam: { id: string; bucketId: string }, selections: ExamObjectRow[]): Promise<KeyImageRef[]> {
    const named: { sopUid: string; frames: number[]; note: string }[] = [];
    for (const row of selections) {
      if (row.size > MAX_SR_BYTES) continue;
      let doc: ParsedSr;
      try {
        doc = readSrDocument(instanceDataset(await this.blobs.get(row.blobKey)));
      } catch (err) {
        if (err instanceof DicomError) continue;
        throw err;
      }
      const note = doc.items.find((i) => i.valueType === 'TEXT')?.value ?? '';
      for (const image of keyObjectImages(doc)) named.push({ ...image, note: note || doc.title });
    }
    const series = new Map(
      (await seriesOfInstances(this.db, exam, [...new Set(named.map((n) => n.sopUid))].slice(0, 5000))).map((r) => [
        r.sopUid,
        r.seriesUid,
      ]),
    );
    return named.flatMap((n) => {
      const seriesUid = series.get(n.sopUid);
      return seriesUid ? [{ seriesUid, sopUid: n.sopUid, frames: n.frames, note: n.note }] : [];
    });
  }

  /**
   * GET viewer/annotations: the graphic annotations and text of the study's presentation states,
   * by the image they apply to (an unreadable state shows none; masked callers read its text masked).
   */
  async annotations(token: string | undefined): Promise<{ annotations: ImageAnnotation[] }> {
    const { exam, masked } = await this.viewing.open(token);
    const rows = await examObjects(this.db, exam, { exact: [GSPS_SOP_CLASS] }, MAX_STATES);
    const mask = masked ? masker(exam) : (text: string) => text;
    const out: ImageAnnotation[] = [];
    for (const row of rows) {
      if (row.size > MAX_SR_BYTES) continue;
      let state: ReturnType<typeof readGsps>;
      try {
        state = readGsps(instanceDataset(await this.blobs.get(row.blobKey)));
      } catch (err) {
        if (err instanceof DicomError) continue;
        throw err;
      }
      for (const a of state.annotations) {
        const texts = a.texts.map((x) => ({ ...x, text: mask(x.text) }));
        for (const image of a.images.length ? a.images : state.images) {
          out.push({ stateUid: row.sopUid, label: state.label, ...image, graphics: a.graphics, texts });
        }
      }
    }
    return { annotations: out.slice(0, 10_000) };
  }

  /** The grant's instance (404 unless in its study and of one of `kinds`). */
  private async instance(grant: ViewerGrant, study: string, series: string, sop: string, kinds: string[]) {
    if (study !== grant.studyUid) throw errors.notFound('Study');
    const row = await examObject(this.db, { id: grant.examId, bucketId: grant.bucketId }, series, sop);
    const kind = row ? viewerObjectKind(row.sopClassUid) : null;
    if (!row || !kind || !kinds.includes(kind)) throw errors.notFound('Instance');
    return { row, kind };
  }

  /** GET viewer/…/instances/:instance/sr */
  async sr(
    token: string | undefined,
    study: string,
    series: string,
    sop: string,
    ctx: AuditContext,
  ): Promise<SrDocument> {
    const { grant, account, exam, masked } = await this.viewing.open(token);
    const { row, kind } = await this.instance(grant, study, series, sop, ['sr', 'ko']);
    if (row.size > MAX_SR_BYTES) throw new AppError('NotAcceptable', 'This report is too large to show');
    let doc: ParsedSr;
    try {
      doc = readSrDocument(instanceDataset(await this.blobs.get(row.blobKey)));
    } catch (err) {
      if (err instanceof DicomError) throw unreadable(err);
      throw err;
    }
    await auditExam(this.db, ctx, account, 'exam.view_object', exam, {
      patientId: exam.patientId,
      details: { share: grant.kind === 'share', masked, kind, sopInstanceUid: sop },
    });
    // The exam record's patient (corrected by the upload wizard) wins over the file's, as in the metadata.
    const mask = masked ? masker(exam) : (text: string) => text;
    return {
      ...doc,
      seriesUid: row.seriesUid,
      patientName: masked ? maskPatientName(exam.patientName) : exam.patientName || doc.patientName,
      patientId: masked ? maskIdentifier(exam.patientId) : exam.patientId || doc.patientId,
      observers: doc.observers.map((o) => ({ ...o, name: mask(o.name) })),
      items: doc.items.map((i) => ({ ...i, concept: mask(i.concept), value: mask(i.value) })),
    };
  }

  /** POST viewer/…/instances/:instance/document-link */
  async documentLink(
    token: string | undefined,
    study: string,
    series: string,
    sop: string,
  ): Promise<ViewerDocumentLink> {
    const { grant, masked } = await this.viewing.open(token);
    await this.instance(grant, study, series, sop, ['pdf']);
    if (masked) throw maskedFilesRefused();
    const expiresAt = new Date(
      Math.min(this.clock.now().getTime() + VIEWER_DOCUMENT_LINK_SECONDS * 1000, grant.expires * 1000),
    );
    const { token: link, expires } = this.signer.sign(LINK_PURPOSE, { g: { ...grant }, se: series, i: sop }, expiresAt);
    return { url: `viewer/document?link=${encodeURIComponent(link)}`, mimeType: 'application/pdf', expires };
  }

  /** GET viewer/document?link=…: the document's bytes, after the viewer path's checks again. */
  async document(link: string, ctx: AuditContext): Promise<{ bytes: Buffer; mimeType: string }> {
    const payload = this.signer.verify(LINK_PURPOSE, link, this.clock.now());
    const g = payload?.g as Partial<ViewerGrant> | undefined;
    if (!payload || !g || typeof payload.se !== 'string' || typeof payload.i !== 'string') {
      throw new AppError('LinkInvalid', 'The document link is invalid or has expired');
    }
    const grant = g as ViewerGrant;
    const { account, exam, masked } = await this.viewing.openGrant(grant);
    const { row, kind } = await this.instance(grant, grant.studyUid, payload.se, payload.i, ['pdf']);
    if (masked) throw maskedFilesRefused();
    if (row.size > MAX_DOCUMENT_BYTES) throw new AppError('NotAcceptable', 'This document is too large to show');
    let doc: ReturnType<typeof encapsulatedDocument>;
    try {
      doc = encapsulatedDocument(instanceDataset(await this.blobs.get(row.blobKey)));
    } catch (err) {
      if (err instanceof DicomError) throw unreadable(err);
      throw err;
    }
    if (!doc) throw errors.notFound('Encapsulated document');
    await auditExam(this.db, ctx, account, 'exam.view_object', exam, {
      patientId: exam.patientId,
      details: { share: grant.kind === 'share', masked, kind, sopInstanceUid: payload.i },
    });
    return { bytes: doc.bytes, mimeType: doc.mimeType || 'application/pdf' };
  }
}
