import {
  consultationExportSchema,
  displayPersonName,
  MAX_ORDERS_EXPORT,
  statusName,
  type ConsultationListItem,
  type ConsultationPage,
  type Language,
} from '@yyp/contracts';
import type { z } from 'zod';
import { actorAudit, writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { xlsxSheet, type XlsxColumn, type XlsxFile } from '../../platform/xlsx.js';
import { NO_CONTEXT, type ConsultationActor } from './consultation-access.js';
import { chinaTime, CONSULTATION_PRINT_LABELS } from './consultation-print.labels.js';

/** At most this many consultations in one export (as the other list exports: spec 000 §5). */
export const MAX_CONSULTATIONS_EXPORT = MAX_ORDERS_EXPORT;
/** The list's page size the export reads with (the list call's largest). */
const PAGE = 100;

/** The caller's list as the list call answers it (the module's list service). */
export interface ConsultationPager {
  page(actor: ConsultationActor, input: { skip: number; limit: number; filter: object }): Promise<ConsultationPage>;
}

type Labels = Record<Language, string>;
const label = (pick: (l: (typeof CONSULTATION_PRINT_LABELS)[Language]) => string): Labels => ({
  chs: pick(CONSULTATION_PRINT_LABELS.chs),
  en: pick(CONSULTATION_PRINT_LABELS.en),
  tib: pick(CONSULTATION_PRINT_LABELS.tib),
});
const at = (iso: string) => chinaTime(new Date(iso));

function columns(language: Language): XlsxColumn<ConsultationListItem>[] {
  const L = CONSULTATION_PRINT_LABELS[language];
  const sep = language === 'chs' ? '、' : ', ';
  return [
    { header: label((l) => l.title), width: 28, cell: (c) => c.title },
    { header: label((l) => l.name), width: 16, cell: (c) => displayPersonName(c.patientName, language) },
    { header: label((l) => l.status), width: 12, cell: (c) => L.statuses[statusName(c.status)] },
    { header: label((l) => l.sourceBucket), width: 24, cell: (c) => c.appliedBucketName },
    {
      header: label((l) => l.targetBucket),
      width: 24,
      cell: (c) => c.joinedBuckets.map((b) => b.bucketName).join(sep),
    },
    {
      header: label((l) => l.experts),
      width: 24,
      cell: (c) => c.joinedBuckets.flatMap((b) => b.experts).join(sep),
    },
    { header: label((l) => l.scheduledAt), width: 18, cell: (c) => at(c.scheduledAt) },
    { header: label((l) => l.reason), width: 36, cell: (c) => c.reason },
    { header: label((l) => l.creator), width: 14, cell: (c) => c.creatorName },
    { header: label((l) => l.created), width: 18, cell: (c) => at(c.created) },
    { header: label((l) => l.rating), width: 8, cell: (c) => c.rating ?? '' },
  ];
}

/**
 * POST consultations/export: the caller's consultation list with the list's filters as .xlsx (the
 * rows the list call answers, read through it page by page); more than MAX_CONSULTATIONS_EXPORT is
 * refused with ExportLimitExceeded and writes nothing. The sheet names patients: audited as PHI.
 */
export async function exportConsultations(
  db: Db,
  clock: Clock,
  lists: ConsultationPager,
  actor: ConsultationActor,
  input: z.input<typeof consultationExportSchema>,
): Promise<XlsxFile> {
  const body = consultationExportSchema.parse(input);
  const first = await lists.page(actor, { skip: 0, limit: PAGE, filter: body.filter });
  if (first.count > MAX_CONSULTATIONS_EXPORT) {
    throw new AppError('ExportLimitExceeded', `At most ${MAX_CONSULTATIONS_EXPORT} consultations can be exported`, {
      count: first.count,
      limit: MAX_CONSULTATIONS_EXPORT,
    });
  }
  const rows = [...first.data];
  while (rows.length < first.count) {
    const next = await lists.page(actor, { skip: rows.length, limit: PAGE, filter: body.filter });
    if (next.data.length === 0) break;
    rows.push(...next.data);
  }
  const exported = rows.slice(0, MAX_CONSULTATIONS_EXPORT);
  const now = clock.now();
  const file = await xlsxSheet('consultations', columns(body.language), exported, body.language, now);
  await writeAudit(
    db,
    actor.ctx ?? NO_CONTEXT,
    actorAudit(actor.account, {
      action: 'consultation.exported',
      category: 'phi',
      targetType: 'consultation',
      details: { count: exported.length, filter: body.filter, language: body.language },
    }),
  );
  const day = chinaTime(now).slice(0, 10).replace(/-/g, '');
  return { body: file, filename: `consultations-${day}.xlsx`, count: exported.length };
}
