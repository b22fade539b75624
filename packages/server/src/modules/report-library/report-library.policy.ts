import type { BucketAction } from '../../platform/authz.js';
import { errors, type AppError } from '../../platform/errors.js';

/**
 * Who may do what with report material (issue 21 step 3): templates, phrases (the knowledge base),
 * image description templates and sample graphs. An organization's material is read by whoever
 * works on its exams or reports and written with template_upsert (sample graphs:
 * manage_sample_graph); personal material is its owner's alone, and anyone else's id is 404.
 * report-library.access.ts looks the caller's actions up and audits each denial; the rules are here.
 */

/** Any one of these reads an organization's report material. */
export const REPORT_MATERIAL_READ_ACTIONS: readonly BucketAction[] = [
  'exam_get',
  'report_upsert',
  'report_approval',
  'report_advice',
  'template_upsert',
];
/** Write an organization's templates, phrases and image description templates. */
export const TEMPLATE_WRITE_ACTION = 'template_upsert' satisfies BucketAction;
/** Add and delete an organization's sample graphs. */
export const SAMPLE_GRAPH_WRITE_ACTION = 'manage_sample_graph' satisfies BucketAction;

/** What a caller may need in an organization: read its report material, or hold an action. */
export type LibraryNeed = 'read' | BucketAction;

export function mayReadReportMaterial(actions: ReadonlySet<string>): boolean {
  return REPORT_MATERIAL_READ_ACTIONS.some((a) => actions.has(a));
}

export function allows(actions: ReadonlySet<string>, need: LibraryNeed): boolean {
  return need === 'read' ? mayReadReportMaterial(actions) : actions.has(need);
}

/** The decision on a need in an organization: unseen is notFound, a missing action forbidden. */
export type Denial = 'notFound' | 'forbidden';

/** `actions` null: the caller cannot see the organization. */
export function organizationDenial(actions: ReadonlySet<string> | null, need: LibraryNeed): Denial | null {
  if (!actions) return 'notFound';
  return allows(actions, need) ? null : 'forbidden';
}

/** Personal material is for accounts that work in some organization. */
export function personalDenial(memberships: number): Denial | null {
  return memberships === 0 ? 'forbidden' : null;
}

/** The error of a denial of `need` (the action the audit row names: report_material_read for reading). */
export function denialError(decision: Denial, need: string): AppError {
  return decision === 'notFound' ? errors.notFound() : errors.forbidden(need === 'read' ? undefined : need);
}

/** The action an audited denial names. */
export function deniedAction(need: string): string {
  return need === 'read' ? 'report_material_read' : need;
}

/** A personal row (template, phrase) is its owner's alone: anyone else gets 404 naming `what`. */
export function personalRowRefusal(ownerId: string | null, callerId: string, what: string): AppError | null {
  return ownerId === callerId ? null : errors.notFound(what);
}

/** A template is shown editable: a personal one (its owner's), or the organization's with template_upsert. */
export function mayEditTemplate(scope: string, actions: ReadonlySet<string> | null): boolean {
  return scope === 'personal' || (actions?.has(TEMPLATE_WRITE_ACTION) ?? false);
}
