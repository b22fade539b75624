import type { Action } from './permissions.js';

/**
 * The scheduled exam's status machine (spec 000 §4 "Exam status"; issue 22), one pure function
 * that the registry service, the DICOM worklist and MPPS, the store hook and the web's registry
 * screen all ask. A scheduled exam is one procedure of a registration at the front desk:
 *
 *   Registered ──schedule──► Scheduled ──arrive──► Arrived ──confirm / MPPS completed / images──► Performed
 *        │                      │                   │  ▲                                              │
 *        └───────revoke─────────┴──► Cancelled      │  └─ MPPS in progress (started)                 │
 *                                                   └──cancelArrival──► Scheduled ◄──cancelArrival───┘
 *                                                                         (deletes the exam and its report)
 *
 * - Registered: an order that has no appointment yet (an order placed from outside the desk).
 *   The desk's own registrations carry a scheduled date (required, spec 000 §5), so they start
 *   Scheduled.
 * - Performed cannot be reverted: no action takes it back to Arrived. Cancelling the arrival of a
 *   Performed exam is the one way back, and it deletes the exam and its report (recoverable for
 *   30 days like any deleted exam), so it needs exam_delete as well as registry_arrive.
 * - A procedure whose imaging is optional becomes Performed on arrival.
 * - Images stored with the scheduled accession number or Study Instance UID, or an MPPS
 *   "completed", make it Performed from Registered, Scheduled or Arrived (the modality did the work
 *   whether or not the desk recorded the arrival).
 */
export const EXAM_STATUSES = ['Registered', 'Scheduled', 'Arrived', 'Performed', 'Cancelled'] as const;
export type ExamStatus = (typeof EXAM_STATUSES)[number];

/** What people do at the desk and what the modalities report. */
export const REGISTRY_ACTIONS = [
  /** give or change the appointment (date, time, device) */
  'schedule',
  /** edit the registration's other fields (patient, source, applying doctor …) */
  'update',
  'arrive',
  'cancelArrival',
  /** confirm performed by hand (at most MAX_CONFIRMATIONS at once) */
  'confirm',
  /** cancel the appointment */
  'revoke',
  'delete',
  /** tie an unscheduled exam's images to this scheduled exam by hand (POST exams/{id}/schedules/{scheduledId}) */
  'match',
  /** MPPS N-CREATE "IN PROGRESS" */
  'start',
  /** MPPS N-SET "COMPLETED", or images stored with the scheduled keys */
  'perform',
  /** MPPS N-SET "DISCONTINUED": the reason is recorded, the exam stays to be performed */
  'discontinue',
] as const;
export type RegistryAction = (typeof REGISTRY_ACTIONS)[number];

/** Actions only a modality (DICOM) or the store path takes; people never ask for them. */
export const MODALITY_ACTIONS: ReadonlySet<RegistryAction> = new Set(['start', 'perform', 'discontinue']);

/**
 * The organization actions (spec 000 §6) a person needs for each desk action: all of one listed
 * set. cancelArrival of a Performed exam also needs exam_delete (see registryTransition).
 */
export const REGISTRY_ACTION_NEEDS: Record<Exclude<RegistryAction, 'start' | 'perform' | 'discontinue'>, Action> = {
  schedule: 'registry_update',
  update: 'registry_update',
  arrive: 'registry_arrive',
  cancelArrival: 'registry_arrive',
  confirm: 'registry_arrive',
  revoke: 'registry_update',
  delete: 'registry_delete',
  match: 'registry_arrive',
};

/** Who asks: a person holding organization actions, or a modality of the organization. */
export type RegistryActor = { kind: 'person'; actions: ReadonlySet<string> } | { kind: 'modality' };

export interface RegistryFacts {
  /** the procedure's imaging is optional: arrival completes it */
  imagingOptional?: boolean;
}

export type RegistryOutcome =
  | {
      ok: true;
      /** the status after the action; null when the scheduled exam is deleted */
      to: ExamStatus | null;
      /** cancelling the arrival of a Performed exam deletes its exam and report */
      deletesExam: boolean;
    }
  | { ok: false; refused: 'status' | 'permission'; needs?: readonly Action[] };

const FROM: Record<RegistryAction, readonly ExamStatus[]> = {
  schedule: ['Registered', 'Scheduled'],
  update: ['Registered', 'Scheduled', 'Arrived', 'Performed'],
  arrive: ['Registered', 'Scheduled'],
  cancelArrival: ['Arrived', 'Performed'],
  confirm: ['Arrived'],
  revoke: ['Registered', 'Scheduled'],
  delete: ['Registered', 'Scheduled', 'Cancelled'],
  // Performed: a step done before its images came (confirmed by hand, or COMPLETED by the
  // modality's MPPS) takes them and stays Performed; images that came first are followed by the
  // MPPS completion. Whether a scheduled exam already holds an exam (then images are bound, not
  // matched) is the caller's check.
  match: ['Registered', 'Scheduled', 'Arrived', 'Performed'],
  start: ['Registered', 'Scheduled', 'Arrived'],
  perform: ['Registered', 'Scheduled', 'Arrived', 'Performed'],
  discontinue: ['Arrived'],
};

function target(status: ExamStatus, action: RegistryAction, facts: RegistryFacts): ExamStatus | null {
  switch (action) {
    case 'schedule':
      return 'Scheduled';
    case 'update':
      return status;
    case 'arrive':
      return facts.imagingOptional ? 'Performed' : 'Arrived';
    case 'cancelArrival':
      return 'Scheduled';
    case 'revoke':
      return 'Cancelled';
    case 'delete':
      return null;
    case 'start':
    case 'discontinue':
      return 'Arrived';
    case 'confirm':
    case 'match':
    case 'perform':
      return 'Performed';
  }
}

/**
 * Where `action` leads from `status` (null: the scheduled exam is deleted), or undefined when the
 * status does not allow it; who may ask is registryTransition's question.
 */
export function registryTarget(
  status: ExamStatus,
  action: RegistryAction,
  facts: RegistryFacts = {},
): ExamStatus | null | undefined {
  return FROM[action].includes(status) ? target(status, action, facts) : undefined;
}

/** The organization actions a person needs to take `action` on an exam in `status`. */
export function registryActionNeeds(status: ExamStatus, action: RegistryAction): readonly Action[] {
  if (MODALITY_ACTIONS.has(action)) return [];
  const need = REGISTRY_ACTION_NEEDS[action as keyof typeof REGISTRY_ACTION_NEEDS];
  return action === 'cancelArrival' && status === 'Performed' ? [need, 'exam_delete'] : [need];
}

/**
 * Whether `actor` may take `action` on a scheduled exam in `status`, and where it leads. The
 * status is checked before the permission, so a refused action says why the same way for everyone
 * who could otherwise take it.
 */
export function registryTransition(
  status: ExamStatus,
  action: RegistryAction,
  actor: RegistryActor,
  facts: RegistryFacts = {},
): RegistryOutcome {
  const isModalityAction = MODALITY_ACTIONS.has(action);
  if ((actor.kind === 'modality') !== isModalityAction) return { ok: false, refused: 'permission' };
  if (!FROM[action].includes(status)) return { ok: false, refused: 'status' };
  if (actor.kind === 'person') {
    const needs = registryActionNeeds(status, action);
    if (!needs.every((a) => actor.actions.has(a))) return { ok: false, refused: 'permission', needs };
  }
  return {
    ok: true,
    to: target(status, action, facts),
    deletesExam: action === 'cancelArrival' && status === 'Performed',
  };
}

/** The desk actions a person holding `actions` may take on an exam in `status`, in REGISTRY_ACTIONS order. */
export function deskActions(
  status: ExamStatus,
  actions: ReadonlySet<string>,
  facts: RegistryFacts = {},
): RegistryAction[] {
  return REGISTRY_ACTIONS.filter((a) => registryTransition(status, a, { kind: 'person', actions }, facts).ok);
}

/** Statuses the modality worklist offers: appointed and still to be performed. */
export const WORKLIST_STATUSES: readonly ExamStatus[] = ['Scheduled', 'Arrived'];
