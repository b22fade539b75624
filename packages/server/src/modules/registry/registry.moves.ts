import { hospitalDate, registryTarget, registryTransition, type ExamStatus, type RegistryAction } from '@yyp/contracts';
import type { ScheduledExamRow } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';
import { errors } from '../../platform/errors.js';
import { stripIdentity } from './registration.js';
import * as store from './registry.store.js';

/*
 * A person's move of a scheduled exam at the desk, as contracts/registry-rules.ts allows it: the
 * machine asked first (a status refusal is a 409 for everyone, a missing action a 403 naming it),
 * then the row written only if its status is still the one the machine was asked about.
 */

export function allow(
  exam: ScheduledExamRow,
  action: RegistryAction,
  actor: { kind: 'person'; actions: ReadonlySet<string> },
) {
  const outcome = registryTransition(exam.status as ExamStatus, action, actor, {
    imagingOptional: exam.imagingOptional,
  });
  if (outcome.ok) return outcome;
  if (outcome.refused === 'status') throw statusRefusal(exam, action);
  throw errors.forbidden((outcome.needs ?? []).join('|'));
}

/** The machine's word for a person: refused by status is a 409 for everyone; refused by permission names what is missing. */
export function allowOrDeny(exam: ScheduledExamRow, action: RegistryAction, actions: ReadonlySet<string>) {
  const outcome = registryTransition(
    exam.status as ExamStatus,
    action,
    { kind: 'person', actions },
    { imagingOptional: exam.imagingOptional },
  );
  if (!outcome.ok && outcome.refused === 'status') throw statusRefusal(exam, action);
  return outcome.ok ? outcome : { ok: false as const, needs: outcome.needs ?? [] };
}

/** Writes the machine's move of one scheduled exam (already allowed), guarded by its status. */
export async function applyTo(
  tx: Db,
  exam: ScheduledExamRow,
  action: RegistryAction,
  actorId: string,
  now: Date,
  reason = '',
): Promise<ScheduledExamRow> {
  const to = registryTarget(exam.status as ExamStatus, action, { imagingOptional: exam.imagingOptional });
  if (!to) throw statusRefusal(exam, action);
  const values: Partial<ScheduledExamRow> = { status: to };
  if (action === 'arrive') {
    Object.assign(values, { arrivedAt: now, arrivedBy: actorId }, to === 'Performed' ? { performedAt: now } : {});
    if (!exam.scheduledDate) values.scheduledDate = hospitalDate(now);
  } else if (action === 'cancelArrival') {
    Object.assign(values, {
      arrivedAt: null,
      arrivedBy: null,
      startedAt: null,
      performedAt: null,
      examId: null,
      discontinuedReason: '',
      mppsUid: null,
      mppsStatus: '',
    });
  } else if (action === 'confirm') {
    values.performedAt = now;
  } else if (action === 'revoke') {
    Object.assign(values, { cancelledAt: now, cancelReason: reason });
  }
  const row = await store.transitionScheduledExam(tx, exam.id, exam.status as ExamStatus, stripIdentity(values), now);
  if (!row) throw raced();
  return row;
}

export const statusRefusal = (exam: ScheduledExamRow, action: RegistryAction) =>
  errors.conflict(`A scheduled exam that is ${exam.status} cannot be given "${action}"`);
export const raced = () => errors.conflict('The scheduled exam was changed by someone else; reload it');
