import {
  displayPersonName,
  footerPlainText,
  GROUP_ATTRIBUTE_KEYS,
  maskIdentifier,
  maskPatientName,
  privateFieldsMasked,
  type PrintReport,
  type PrintSampleGraph,
  type PrintTime,
  type PrintView,
  type ReportStatus,
} from '@yyp/contracts';
import { findBucketsFacts, loadCallerAccess } from '../../platform/access.js';
import type { AuditContext } from '../../platform/audit.js';
import { effectiveActions, privacyOf } from '../../platform/authz.js';
import type { BlobStore } from '../../platform/blobs.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import { examAge } from '../exams/index.js';
import type { PoliciesService } from '../policies/index.js';
import { type Actor, APPROVED_STATUSES, reportOfExam, type ReportsService } from '../reports/index.js';
import { locateFonts, type PdfFonts } from './fonts.js';
import type { PdfLang } from './pdf-labels.js';
import type { PdfReport } from './pdf.js';
import { auditPrint, callerOf, type Caller } from './print-caller.js';
import { PrintTemplateService, URL_WINDOW_SECONDS } from './print-template.service.js';
import * as store from './report-print.store.js';

const IMAGE_URL_SECONDS = 3600;

/** A report as both a print page and the PDF need it: the contract's fields plus the blob keys behind its pictures. */
interface SourceReport extends Omit<PrintReport, 'images' | 'sampleGraphs' | 'writer' | 'approver'> {
  writer: { id: string; name: string; signatureKey: string | null } | null;
  approver: { id: string; name: string; signatureKey: string | null } | null;
  images: { id: string; key: string; contentType: string; desc: string; index: number }[];
  sampleGraphs: (Omit<PrintSampleGraph, 'url'> & { key: string; contentType: string })[];
}
interface Source {
  bucketId: string;
  template: {
    hospitalName: string;
    title: string;
    logoKey: string | null;
    stampKey: string | null;
    footerText: string;
    showSignatures: boolean;
  };
  imageColumns: number;
  masked: boolean;
  reports: SourceReport[];
}

const isApproved = (status: string) => APPROVED_STATUSES.includes(status as ReportStatus);
const studyDay = (e: { studyDate: string; created: Date }) =>
  /^\d{8}$/.test(e.studyDate) ? e.studyDate : e.created.toISOString().slice(0, 10).replaceAll('-', '');

/**
 * Printing (spec 000 §3 print templates, §5 printing sheets, §6 report_print; spec 001 §7
 * update-print-time, §8 "no print template configured"): the organization's template, the print
 * view a print page renders, the record of each print, and the report as a server-rendered PDF.
 */
export class ReportPrintService {
  private fonts: Promise<PdfFonts> | null = null;

  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
    private readonly policies: PoliciesService,
    private readonly reports: ReportsService,
  ) {
    this.templates = new PrintTemplateService(db, blobs, clock, policies);
  }

  /** GET and PUT buckets/{id}/print-template */
  readonly templates: PrintTemplateService;

  /* ---------- what prints ---------- */

  /**
   * The reports of one organization as they print, in the order asked, with the template in force:
   * the admin's, else the default every organization starts with (the print view, printing sheets
   * and the PDF all take it from here, so they print alike).
   */
  private async source(c: Caller, reportIds: string[]): Promise<Source> {
    const effective = await this.templates.effective(c.bucketId);
    if (!effective) throw errors.notFound('Report');
    const row = effective.row;
    const template: Source['template'] = {
      hospitalName: row.hospitalName,
      title: row.title,
      logoKey: row.logoKey,
      stampKey: row.stampKey,
      footerText: footerPlainText(row.footerHtml),
      showSignatures: row.showSignatures,
    };
    const [rows, coExams, images, graphs, attributes] = await Promise.all([
      store.reportsWithExams(this.db, c.bucketId, reportIds),
      store.coExamsOf(this.db, reportIds),
      store.printedImages(this.db, reportIds),
      store.printedSampleGraphs(this.db, c.bucketId, reportIds),
      store.groupAttributesOf(this.db, c.bucketId),
    ]);
    const byId = new Map(rows.map((r) => [r.report.id, r]));
    const found = reportIds.map((id) => byId.get(id));
    if (found.some((r) => !r || r.report.status === 'none' || r.report.status === 'locked')) {
      throw errors.notFound('Report');
    }
    const people = await store.people(
      this.db,
      rows.flatMap((r) => [r.report.creatorId, r.report.approverId]),
    );
    // Printed as the list shows it (contracts privateFieldsMasked), exam by exam.
    const maskedOf = (e: { isPrivacy: boolean }) => privateFieldsMasked(c.privacy, e);
    const masked = found.some((f) => maskedOf(f!.exam));
    const signer = (id: string | null) => {
      const p = id ? people.get(id) : undefined;
      return id && p ? { id, name: p.name, signatureKey: p.signature } : null;
    };
    const reports = found.map((f): SourceReport => {
      const { report: r, exam: e } = f!;
      const approved = isApproved(r.status);
      const masked = maskedOf(e);
      return {
        reportId: r.id,
        examIds: [r.id, ...(coExams.get(r.id) ?? [])],
        status: r.status as ReportStatus,
        approved,
        isPrinted: r.status === 'printed',
        version: r.version,
        exam: {
          // A hospital prints the ideographic group of a DICOM name (张^三 → 张三), else the first.
          patientName: masked ? maskPatientName(e.patientName) : displayPersonName(e.patientName, 'chs'),
          patientId: masked ? maskIdentifier(e.patientId) : e.patientId,
          patientGender: e.patientGender,
          age: examAge(e.patientDob, e.studyDate, e.created),
          accessionNumber: masked ? maskIdentifier(e.accessionNumber) : e.accessionNumber,
          modality: e.modality,
          bodyPart: e.bodyPart,
          studyDate: e.studyDate,
          studyTime: e.studyTime,
          studyDesc: e.studyDesc,
          patientSource: e.patientSource,
          inpatientId: masked ? maskIdentifier(e.inpatientId) : e.inpatientId,
          outpatientId: masked ? maskIdentifier(e.outpatientId) : e.outpatientId,
          bedNum: e.bedNum,
          applyDept: e.applyDept,
          clinicImpression: e.clinicImpression,
          urgent: e.urgentFlag,
        },
        findings: r.content.findings,
        conclusion: r.content.conclusion,
        positive: r.content.positive,
        writer: signer(r.creatorId),
        approver: approved ? signer(r.approverId) : null,
        submittedAt: r.submittedAt?.toISOString() ?? null,
        approvedAt: approved ? (r.approvedAt?.toISOString() ?? null) : null,
        printSubmittedAt: r.printSubmittedAt?.toISOString() ?? null,
        printApprovedAt: r.printApprovedAt?.toISOString() ?? null,
        images: images
          .filter((i) => i.reportId === r.id)
          .map((i, index) => ({ id: i.id, key: i.blobKey, contentType: i.contentType, desc: i.desc, index })),
        sampleGraphs: graphs
          .filter((g) => g.reportId === r.id)
          .map(({ reportId: _, blobKey, ...g }, index) => ({ ...g, key: blobKey, index })),
        attributes: GROUP_ATTRIBUTE_KEYS.flatMap((key) => {
          const attr = attributes[key];
          const value = r.content.extensions[key] ?? e.extensions[key];
          if (!attr?.enabled || value === undefined || String(value).trim() === '') return [];
          return [{ key, label: attr.label || key, value: String(value) }];
        }),
      };
    });
    return {
      bucketId: c.bucketId,
      template,
      imageColumns: c.account.preferences.imageColumn ?? row.imageColumns,
      masked,
      reports,
    };
  }

  /** The source with short-lived URLs for its pictures. */
  private async view(src: Source): Promise<PrintView> {
    const readUrl = (key: string | null) =>
      key ? this.policies.readUrl(key, { windowSeconds: URL_WINDOW_SECONDS }) : Promise.resolve(null);
    const imageUrl = async (i: { key: string; contentType: string }) =>
      this.blobs.presignGet
        ? this.blobs.presignGet(i.key, { expiresSeconds: IMAGE_URL_SECONDS, contentType: i.contentType })
        : '';
    const signer = async (s: SourceReport['writer']) =>
      s
        ? { id: s.id, name: s.name, signatureUrl: src.template.showSignatures ? await readUrl(s.signatureKey) : null }
        : null;
    return {
      bucketId: src.bucketId,
      template: {
        hospitalName: src.template.hospitalName,
        title: src.template.title,
        logoUrl: await readUrl(src.template.logoKey),
        stampUrl: await readUrl(src.template.stampKey),
        footerText: src.template.footerText,
        showSignatures: src.template.showSignatures,
      },
      imageColumns: src.imageColumns,
      masked: src.masked,
      reports: await Promise.all(
        src.reports.map(async (r) => ({
          ...r,
          writer: await signer(r.writer),
          approver: await signer(r.approver),
          images: await Promise.all(
            r.images.map(async (i) => ({ id: i.id, url: await imageUrl(i), desc: i.desc, index: i.index })),
          ),
          sampleGraphs: await Promise.all(
            r.sampleGraphs.map(async ({ key, contentType, ...g }) => ({
              ...g,
              url: await imageUrl({ key, contentType }),
            })),
          ),
        })),
      ),
    };
  }

  /** GET reports/{id}/print-view (the route checked report_print). */
  async printView(actor: Actor, examId: string): Promise<PrintView> {
    const c = callerOf(actor);
    const reportId = await reportOfExam(this.db, examId, c.bucketId);
    if (!reportId) throw errors.notFound('Report');
    const view = await this.view(await this.source(c, [reportId]));
    await auditPrint(this.db, c, 'report.print_view', reportId);
    return view;
  }

  /** POST reports/{id}/update-print-time (the route checked report_print). */
  async updatePrintTime(actor: Actor, examId: string): Promise<PrintTime> {
    const row = await this.reports.recordPrint(actor, examId);
    return {
      reportId: row.id,
      status: row.status as ReportStatus,
      isPrinted: row.status === 'printed',
      printSubmittedAt: row.printSubmittedAt?.toISOString() ?? null,
      printApprovedAt: row.printApprovedAt?.toISOString() ?? null,
    };
  }

  /**
   * POST reports/print-sheets: the chosen exams' reports merged into one print. They must be
   * exams of one organization, where the caller prints, and of the same study day (spec 000 §5).
   */
  async printSheets(account: Actor['account'], ctx: AuditContext, examIds: string[]): Promise<PrintView> {
    const access = await loadCallerAccess(this.db, account.id);
    const facts = await findBucketsFacts(this.db, [...access.memberships.keys()]);
    const printing = facts.filter((b) => effectiveActions(access, b).has('report_print'));
    const wanted = [...new Set(examIds)];
    const rows = await store.sheetExams(
      this.db,
      wanted,
      printing.map((b) => b.id),
    );
    if (rows.length !== wanted.length) {
      const seen = new Set(rows.map((r) => r.id));
      throw new AppError('NotFound', 'Exam not found', { examIds: wanted.filter((id) => !seen.has(id)) });
    }
    const bucketIds = [...new Set(rows.map((r) => r.bucketId))];
    if (bucketIds.length > 1) {
      throw errors.validation('Printing sheets merges exams of one organization only', {
        field: 'examIds',
        problem: 'differentOrganizations',
        organizations: Object.fromEntries(rows.map((r) => [r.id, r.bucketId])),
      });
    }
    const days = [...new Set(rows.map(studyDay))];
    if (days.length > 1) {
      throw errors.validation('Printing sheets merges only exams of the same day', {
        field: 'examIds',
        problem: 'notSameDay',
        days: Object.fromEntries(rows.map((r) => [r.id, studyDay(r)])),
      });
    }
    const bucket = printing.find((b) => b.id === bucketIds[0])!;
    const c: Caller = {
      account,
      ctx,
      bucketId: bucket.id,
      actions: effectiveActions(access, bucket),
      privacy: privacyOf(access, bucket),
    };
    const byExam = new Map(rows.map((r) => [r.id, r.reportId]));
    const reportIds = [...new Set(wanted.map((id) => byExam.get(id)!))];
    const view = await this.view(await this.source(c, reportIds));
    for (const id of reportIds) await auditPrint(this.db, c, 'report.print_view', id, { sheets: reportIds.length });
    return view;
  }

  /* ---------- the PDF ---------- */

  private async bytes(key: string | null): Promise<Buffer | null> {
    if (!key) return null;
    return this.blobs.get(key).catch(() => null);
  }

  private loadFonts(): Promise<PdfFonts> {
    this.fonts ??= locateFonts().catch((err: unknown) => {
      this.fonts = null;
      throw err;
    });
    return this.fonts;
  }

  /** GET reports/{id}/pdf: the approved report as a PDF (report_print or exam_get), on the template in force. */
  async pdf(actor: Actor, examId: string, lang: PdfLang = 'chs'): Promise<{ pdf: Buffer; filename: string }> {
    const c = callerOf(actor);
    if (!c.actions.has('report_print') && !c.actions.has('exam_get')) throw errors.forbidden('exam_get');
    const reportId = await reportOfExam(this.db, examId, c.bucketId);
    if (!reportId) throw errors.notFound('Report');
    const src = await this.source(c, [reportId]);
    const r = src.reports[0]!;
    if (!r.approved) {
      throw new AppError('ReportNotApproved', 'Only an approved report has a PDF', { status: r.status });
    }
    const [fonts, logo, stamp, pdfReport] = await Promise.all([
      this.loadFonts(),
      this.bytes(src.template.logoKey),
      this.bytes(src.template.stampKey),
      this.pdfReport(src, r),
    ]);
    // pdfkit (about 5 MB of heap) is loaded on the first print, not at start: every major
    // garbage collection marks what the heap holds, and ingest runs many.
    const { renderPrintPdf } = await import('./pdf.js');
    const pdf = await renderPrintPdf(
      {
        ...src.template,
        logo,
        stamp,
        imageColumns: src.imageColumns,
        reports: [pdfReport],
        createdAt: this.clock.now(),
      },
      fonts,
      lang,
    );
    await auditPrint(this.db, c, 'report.pdf', reportId, { lang, bytes: pdf.length });
    const name = (r.exam.accessionNumber || reportId).replace(/[^\w.-]+/g, '_').slice(0, 64);
    return { pdf, filename: `report-${name}.pdf` };
  }

  private async pdfReport(src: Source, r: SourceReport): Promise<PdfReport> {
    const signer = async (s: SourceReport['writer']) =>
      s ? { name: s.name, signature: src.template.showSignatures ? await this.bytes(s.signatureKey) : null } : null;
    return {
      ...r,
      writer: await signer(r.writer),
      approver: await signer(r.approver),
      images: await Promise.all(r.images.map(async (i) => ({ desc: i.desc, data: await this.bytes(i.key) }))),
      sampleGraphs: await Promise.all(
        r.sampleGraphs.map(async ({ key, contentType: _, ...g }) => ({ ...g, data: await this.bytes(key) })),
      ),
    };
  }
}
