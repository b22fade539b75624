import {
  displayPersonName,
  hospitalDateTime,
  type Language,
  type LabelLayout,
  type OrderTemplate,
  type OrderTemplateInput,
  type Registration,
} from '@yyp/contracts';
import type { AccountRow } from '../../db/schema.js';
import { actorAudit, writeAudit, type AuditContext } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import { DESK_ACTIONS, DeskAccess, registrationsForPrint } from '../registry/index.js';
import { locateFonts, type PdfFonts } from '../report-print/index.js';
import { code128, type Barcode } from './barcode.js';
import { renderLabels, type LabelItem } from './label-pdf.js';
import { effectiveOrderTemplate, saveOrderTemplate } from './order-template.js';
import { renderReferralForms } from './referral-pdf.js';

export interface PrintCaller {
  account: AccountRow;
  ctx: AuditContext;
}
export interface PrintedPdf {
  pdf: Buffer;
  filename: string;
}

/**
 * The front desk's printing (issue 22): labels and referral forms of scheduled exams, as PDFs the
 * browser prints or saves, and the organization's referral form template. Printing shows patient
 * data, so the caller needs a desk action (registry_*) in the exams' organization and every print
 * is audited as PHI access.
 */
export class RegistryPrintService {
  private readonly access: DeskAccess;
  private fonts: Promise<PdfFonts> | null = null;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {
    this.access = new DeskAccess(db);
  }

  private loadFonts(): Promise<PdfFonts> {
    this.fonts ??= locateFonts().catch((err: unknown) => {
      this.fonts = null;
      throw err;
    });
    return this.fonts;
  }

  /**
   * The registrations of the asked scheduled exams, once the caller's desk actions in their
   * organization are checked: an organization the caller cannot see, or an id that is no scheduled
   * exam, is 404 alike; exams of two organizations or cancelled ones are refused (400).
   */
  private async load(
    caller: PrintCaller,
    scheduledIds: string[],
  ): Promise<{ bucketId: string; registrations: Registration[] }> {
    const wanted = [...new Set(scheduledIds)];
    const registrations = await registrationsForPrint(this.db, wanted);
    const bucketIds = [...new Set(registrations.map((r) => r.bucketId))];
    for (const bucketId of bucketIds) await this.access.require(caller, bucketId, DESK_ACTIONS);
    const found = new Set(registrations.flatMap((r) => r.exams.map((e) => e.id)));
    const missing = wanted.filter((id) => !found.has(id));
    if (missing.length > 0) throw new AppError('NotFound', 'Scheduled exam not found', { scheduledIds: missing });
    if (bucketIds.length > 1) {
      throw errors.validation('Labels and referral forms print exams of one organization at a time', {
        field: 'scheduledIds',
        problem: 'differentOrganizations',
      });
    }
    const cancelled = registrations.flatMap((r) => r.exams.filter((e) => e.status === 'Cancelled').map((e) => e.id));
    if (cancelled.length > 0) {
      throw errors.validation('A cancelled exam has no label or referral form', {
        field: 'scheduledIds',
        problem: 'cancelled',
        scheduledIds: cancelled,
      });
    }
    return { bucketId: bucketIds[0]!, registrations };
  }

  private async barcodes(registrations: Registration[]): Promise<Map<string, Barcode>> {
    const out = new Map<string, Barcode>();
    for (const e of registrations.flatMap((r) => r.exams)) {
      if (!out.has(e.accessionNumber)) out.set(e.accessionNumber, await code128(e.accessionNumber));
    }
    return out;
  }

  private async audit(
    caller: PrintCaller,
    action: string,
    bucketId: string,
    registrations: Registration[],
    details: Record<string, unknown>,
  ) {
    for (const r of registrations) {
      await writeAudit(
        this.db,
        caller.ctx,
        actorAudit(caller.account, {
          action,
          category: 'phi',
          targetType: 'registration',
          targetId: r.id,
          bucketId,
          patientId: r.patient.patientId,
          details: { ...details, exams: r.exams.map((e) => e.accessionNumber) },
        }),
      );
    }
  }

  /** POST orders/labels: 80 × 50 mm labels with the accession number's Code 128 barcode. */
  async labels(
    caller: PrintCaller,
    body: { scheduledIds: string[]; copies: number; layout: LabelLayout; lang: Language },
  ): Promise<PrintedPdf> {
    const { bucketId, registrations } = await this.load(caller, body.scheduledIds);
    const template = await effectiveOrderTemplate(this.db, bucketId);
    const orgName = template.headerLines.join(' ');
    const fonts = await this.loadFonts();
    const barcodes = await this.barcodes(registrations);
    const byId = new Map(registrations.flatMap((r) => r.exams.map((e) => [e.id, { r, e }] as const)));
    const items: LabelItem[] = [...new Set(body.scheduledIds)].flatMap((id) => {
      const { r, e } = byId.get(id)!;
      const item: LabelItem = {
        orgName,
        patientName: displayPersonName(r.patient.name, body.lang),
        gender: r.patient.gender,
        birthDate: r.patient.birthDate,
        patientId: r.patient.patientId,
        passCode: r.passCode,
        accessionNumber: e.accessionNumber,
        procedure: e.procedureName || e.studyDesc || e.modality,
        modality: e.modality,
        scheduledDate: e.scheduledDate,
        scheduledTime: e.scheduledTime,
        // no device chosen: the station its procedure names (AE title), as the desk's list shows
        deviceName: e.deviceName || e.stationAeTitle,
        urgent: r.urgent,
        barcode: barcodes.get(e.accessionNumber)!,
      };
      return Array.from({ length: body.copies }, () => item);
    });
    const pdf = await renderLabels(items, { layout: body.layout, lang: body.lang, createdAt: this.clock.now() }, fonts);
    await this.audit(caller, 'registry.print_labels', bucketId, registrations, {
      layout: body.layout,
      copies: body.copies,
    });
    const first = items[0]!.accessionNumber;
    return { pdf, filename: items.length === body.copies ? `label-${first}.pdf` : `labels-${first}.pdf` };
  }

  /**
   * POST orders/referral-forms: one form per registration on the organization's template. The
   * exams merged into one print are of one day (spec 000 §5 "printing sheets: selected checks must
   * be on the same day to be merged").
   */
  async referralForms(caller: PrintCaller, body: { scheduledIds: string[]; lang: Language }): Promise<PrintedPdf> {
    const { bucketId, registrations } = await this.load(caller, body.scheduledIds);
    const days = new Map(registrations.flatMap((r) => r.exams.map((e) => [e.id, e.scheduledDate] as const)));
    if (new Set(days.values()).size > 1) {
      throw errors.validation('Referral forms merge only exams scheduled on the same day', {
        field: 'scheduledIds',
        problem: 'notSameDay',
        days: Object.fromEntries(days),
      });
    }
    const template = await effectiveOrderTemplate(this.db, bucketId);
    const fonts = await this.loadFonts();
    const now = this.clock.now();
    const pdf = await renderReferralForms(
      {
        template,
        lang: body.lang,
        createdAt: now,
        printedAt: hospitalDateTime(now).slice(0, 16),
        registrations,
        barcodes: await this.barcodes(registrations),
      },
      fonts,
    );
    await this.audit(caller, 'registry.print_referral_forms', bucketId, registrations, {});
    const first = registrations[0]!.exams[0]!.accessionNumber;
    return { pdf, filename: `referral-${first}.pdf` };
  }

  /** GET buckets/{id}/order-template (the route checked bucket_read). */
  orderTemplate(bucketId: string): Promise<OrderTemplate> {
    return effectiveOrderTemplate(this.db, bucketId);
  }

  /** PUT buckets/{id}/order-template (the route checked bucket_manage). */
  saveOrderTemplate(
    caller: PrintCaller,
    bucketId: string,
    input: Required<OrderTemplateInput>,
  ): Promise<OrderTemplate> {
    return saveOrderTemplate(this.db, this.clock, caller, bucketId, input);
  }
}
