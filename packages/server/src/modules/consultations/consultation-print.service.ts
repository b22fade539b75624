import {
  consultationPrintQuerySchema,
  displayPersonName,
  statusName,
  type ConsultationStatus,
  type Language,
} from '@yyp/contracts';
import type { z } from 'zod';
import { actorAudit, writeAudit } from '../../platform/audit.js';
import type { BlobStore } from '../../platform/blobs.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { errors } from '../../platform/errors.js';
import { locateFonts, printHeaderOf, type PdfFonts } from '../report-print/index.js';
import { ConsultationAccess, NO_CONTEXT, type ConsultationActor } from './consultation-access.js';
import { boundExams } from './consultation-exams.store.js';
import type { ConsultationPdfInput } from './consultation-print.pdf.js';
import * as store from './consultation-print.store.js';

/**
 * GET consultations/{id}/print?language (op print): the conclusion as a PDF in chs, en or tib, under
 * the print template header of the organization the caller prints from (the source's for the
 * requester, the target's for its experts and staff). A PHI disclosure: audited.
 */
export class ConsultationPrintService {
  private readonly access: ConsultationAccess;
  private fonts: Promise<PdfFonts> | null = null;

  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
  ) {
    this.access = new ConsultationAccess(db);
  }

  private loadFonts(): Promise<PdfFonts> {
    this.fonts ??= locateFonts().catch((err: unknown) => {
      this.fonts = null;
      throw err;
    });
    return this.fonts;
  }

  async pdf(
    actor: ConsultationActor,
    id: string,
    query: z.input<typeof consultationPrintQuerySchema>,
  ): Promise<{ pdf: Buffer; filename: string }> {
    const { language } = consultationPrintQuerySchema.parse(query);
    const { row, roles } = await this.access.require(actor, id, 'print');
    const printingBucket = roles.includes('requester') ? row.sourceBucketId : row.targetBucketId;
    const [header, buckets, names, members, cases, exams, fonts] = await Promise.all([
      printHeaderOf(this.db, this.blobs, printingBucket),
      store.bucketNamesOf(this.db, [row.sourceBucketId, row.targetBucketId]),
      store.accountNamesOf(this.db, [row.creatorId, row.resultBy, row.ratedBy]),
      store.membersWithNames(this.db, id),
      store.casesWithFileCounts(this.db, id),
      boundExams(this.db, id),
      this.loadFonts(),
    ]);
    if (!header) throw errors.notFound('Organization');
    const name = (accountId: string | null) => (accountId ? (names.get(accountId) ?? '') : '');
    const memberNames = (role: string) => members.filter((m) => m.role === role).map((m) => m.name || m.username);
    const input: ConsultationPdfInput = {
      lang: language,
      header,
      createdAt: this.clock.now(),
      title: row.title,
      status: statusName(row.status as ConsultationStatus),
      patient: {
        name: displayPersonName(row.patientName, language),
        gender: row.patientGender,
        age: row.patientAge,
        tel: row.patientTel,
        contactHospital: row.contactHospital,
      },
      sourceName: buckets.get(row.sourceBucketId) ?? '',
      targetName: buckets.get(row.targetBucketId) ?? '',
      scheduledAt: row.scheduledAt,
      created: row.created,
      creatorName: name(row.creatorId),
      reason: row.reason,
      note: row.note,
      clinicImpression: row.clinicImpression,
      cancelReason: row.cancelReason,
      suggestion: row.suggestion,
      treatmentPlan: row.treatmentPlan,
      result: row.result,
      resultByName: name(row.resultBy),
      resultAt: row.resultAt,
      rating:
        row.ratingScore !== null && row.ratedAt
          ? { score: row.ratingScore, comment: row.ratingComment, ratedAt: row.ratedAt, ratedByName: name(row.ratedBy) }
          : null,
      cases,
      exams: exams.map((e) => ({ name: e.name, modality: e.modality, bodyPart: e.bodyPart, studyDate: e.studyDate })),
      experts: memberNames('expert'),
      joiners: memberNames('joiner'),
    };
    // pdfkit is loaded on the first print, not at start (as report-print does).
    const { renderConsultationPdf } = await import('./consultation-print.pdf.js');
    const pdf = await renderConsultationPdf(input, fonts);
    await this.audit(actor, row.id, printingBucket, language, pdf.length);
    return { pdf, filename: `consultation-${row.id.slice(0, 8)}.pdf` };
  }

  private audit(actor: ConsultationActor, id: string, bucketId: string, language: Language, bytes: number) {
    return writeAudit(
      this.db,
      actor.ctx ?? NO_CONTEXT,
      actorAudit(actor.account, {
        action: 'consultation.print',
        category: 'phi',
        targetType: 'consultation',
        targetId: id,
        bucketId,
        details: { language, bytes },
      }),
    );
  }
}
