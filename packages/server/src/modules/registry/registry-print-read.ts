import type { Registration } from '@yyp/contracts';
import type { Db } from '../../platform/db.js';
import { present } from './registry.record.js';
import * as store from './registry.store.js';

/**
 * The scheduled exams a label or referral form prints (registry-print module), each registration
 * once with only the asked exams of it, in the order first asked. Ids not found are left out: the
 * caller compares and refuses. No access check here: the printing module checks the desk actions
 * in the organizations these name before it shows anything.
 */
export async function registrationsForPrint(db: Db, scheduledIds: string[]): Promise<Registration[]> {
  const rows = await store.findScheduledExams(db, [...new Set(scheduledIds)]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const order = scheduledIds.flatMap((id) => {
    const row = byId.get(id);
    return row ? [row] : [];
  });
  const registrationIds = [...new Set(order.map((r) => r.registrationId))];
  const out: Registration[] = [];
  for (const registrationId of registrationIds) {
    const registration = await store.findRegistration(db, registrationId);
    const patient = registration && (await store.findPatientById(db, registration.patientRef));
    if (!registration || !patient) continue;
    const exams = [...new Map(order.filter((r) => r.registrationId === registrationId).map((r) => [r.id, r])).values()];
    out.push(await present(db, registration, patient, exams));
  }
  return out;
}
