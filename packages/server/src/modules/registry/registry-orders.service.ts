import type { z } from 'zod';
import {
  hospitalDate,
  MAX_EXPORT_SCHEDULES,
  type scheduleExportSchema,
  type serviceOrderSchema,
  type ServiceOrderResult,
} from '@yyp/contracts';
import type { RegistrationRow } from '../../db/schema.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { checkPatient, deskFields, planExams, registerPatient } from './registration.js';
import { DESK_ACTIONS, DeskAccess, type DeskCaller } from './registry.access.js';
import { scheduleWorkbook } from './registry-export.js';
import { presentRegistryRow } from './registry.presenter.js';
import { deskAudit, present } from './registry.record.js';
import * as store from './registry.store.js';
import * as orders from './registry-orders.store.js';

type ExportInput = z.output<typeof scheduleExportSchema>;
type OrderInput = z.output<typeof serviceOrderSchema>;

/** A unique index said no: another request made the row first. */
const isUniqueViolation = (err: unknown): boolean => {
  const code =
    (err as { code?: unknown; cause?: { code?: unknown } }).code ?? (err as { cause?: { code?: unknown } }).cause?.code;
  return code === '23505';
};

/**
 * The desk's schedule export and the orders placed from outside (issue 22; spec 001 §7
 * "Registry": exports/schedules, service-order).
 */
export class RegistryOrdersService {
  private readonly access: DeskAccess;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {
    this.access = new DeskAccess(db);
  }

  /**
   * POST exports/schedules: the organization's scheduled exams as the registry query filters and
   * sorts them, as .xlsx. Any desk action opens it (who sees the list may take it away); counted
   * first, so an export over MAX_EXPORT_SCHEDULES builds nothing and is refused with the count.
   */
  async exportSchedules(
    caller: DeskCaller,
    input: ExportInput,
  ): Promise<{ body: Buffer; filename: string; count: number }> {
    const { bucketId, language: asked, ...filters } = input;
    await this.access.require(caller, bucketId, DESK_ACTIONS);
    const { count } = await store.queryRegistry(this.db, bucketId, { ...filters, skip: 0, limit: 1 });
    if (count > MAX_EXPORT_SCHEDULES) {
      throw new AppError(
        'ExportLimitExceeded',
        `At most ${MAX_EXPORT_SCHEDULES} scheduled exams can be exported; these filters match ${count}`,
        { count, limit: MAX_EXPORT_SCHEDULES },
      );
    }
    const rows =
      count === 0 ? [] : (await store.queryRegistry(this.db, bucketId, { ...filters, skip: 0, limit: count })).rows;
    const language = asked ?? caller.account.preferences.language ?? 'chs';
    const now = this.clock.now();
    const body = await scheduleWorkbook(rows.map(presentRegistryRow), language, now);
    await deskAudit(this.db, caller, 'registry.export', bucketId, undefined, {
      details: {
        count: rows.length,
        q: filters.q || null,
        statuses: filters.statuses,
        from: filters.from ?? null,
        to: filters.to ?? null,
      },
    });
    return { body, filename: `schedules-${hospitalDate(now).replace(/-/g, '')}.xlsx`, count: rows.length };
  }

  /**
   * POST service-order: an order from outside the desk becomes a registration (source external)
   * whose exams are Registered: no appointment until the desk schedules them (PUT registry).
   * Needs registry_create in the organization. The same orderId again answers the first
   * registration and changes nothing, also when two arrive at once (the unique index decides).
   */
  async serviceOrder(caller: DeskCaller, input: OrderInput): Promise<ServiceOrderResult> {
    const { bucket } = await this.access.require(caller, input.bucketId, ['registry_create']);
    const before = await orders.findRegistrationByOrderId(this.db, bucket.id, input.orderId);
    if (before) return this.answer(caller, before, false);
    await checkPatient(this.db, input.patient);
    const today = hospitalDate(this.clock.now());
    // The procedures and devices are checked and the identifiers made as for the desk; an order
    // has no appointment, so the date planExams requires is today's and is then taken away.
    const planned = await planExams(
      this.db,
      bucket.id,
      input.exams.map((e) => ({ ...e, scheduledDate: today, scheduledTime: '', deviceId: null, bodyPartCount: null })),
      today,
      new Map(),
    );
    const now = this.clock.now();
    try {
      const registration = await this.db.transaction(async (tx) => {
        const { patient, registration } = await registerPatient(
          tx,
          bucket,
          input.patient,
          {
            source: 'external',
            orderId: input.orderId,
            createdBy: caller.account.id,
            ...deskFields({ ...input, exams: [], arrive: false }),
          },
          now,
        );
        const exams = await store.insertScheduledExams(
          tx,
          planned.map((p) => ({
            ...p,
            scheduledDate: '',
            registrationId: registration.id,
            bucketId: bucket.id,
            status: 'Registered',
          })),
          now,
        );
        await deskAudit(this.db, caller, 'registry.service_order', bucket.id, patient, {
          db: tx,
          targetId: registration.id,
          details: { orderId: input.orderId, exams: exams.map((e) => e.accessionNumber) },
        });
        return registration;
      });
      return await this.answer(caller, registration, true);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const first = await orders.findRegistrationByOrderId(this.db, bucket.id, input.orderId);
      if (!first) throw err;
      return this.answer(caller, first, false);
    }
  }

  private async answer(
    caller: DeskCaller,
    registration: RegistrationRow,
    created: boolean,
  ): Promise<ServiceOrderResult> {
    const patient = await store.findPatientById(this.db, registration.patientRef);
    const exams = await store.scheduledExamsOf(this.db, [registration.id]);
    if (!created) {
      await deskAudit(this.db, caller, 'registry.service_order_repeated', registration.bucketId, patient, {
        targetId: registration.id,
        details: { orderId: registration.orderId },
      });
    }
    return {
      created,
      orderId: registration.orderId ?? '',
      registration: await present(this.db, registration, patient!, exams),
    };
  }
}
