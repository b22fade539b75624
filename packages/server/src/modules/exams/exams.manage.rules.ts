import { PATIENT_CLASS_KEYS, patientClassKeys, type ExamUpdate } from '@yyp/contracts';

/**
 * The pure rules of editing and assigning an exam, kept apart from SQL so they are tested alone.
 */

/** Fields a caller sees only unmasked (contracts privateFieldsMasked), and so changes only then. */
export const PRIVATE_FIELDS = [
  'patientName',
  'patientId',
  'patientDob',
  'patientPhone',
  'accessionNumber',
  'inpatientId',
  'outpatientId',
  'physicalExamId',
] as const satisfies readonly (keyof ExamUpdate)[];

export function privateFieldsIn(update: ExamUpdate): string[] {
  return PRIVATE_FIELDS.filter((f) => update[f] !== undefined);
}

/**
 * The patient-class identifiers an exam keeps for its patient source (spec 000 §3): an inpatient
 * keeps inpatientId and bedNum, an outpatient or night-clinic patient outpatientId, a physical
 * exam physicalExamId; the others are cleared. An unknown source ('') keeps whatever is given.
 */
export function classKeyChanges(
  source: string,
  update: ExamUpdate,
): Partial<Record<(typeof PATIENT_CLASS_KEYS)[number], string>> {
  const keep = patientClassKeys[source as keyof typeof patientClassKeys] as readonly string[] | undefined;
  const out: Partial<Record<(typeof PATIENT_CLASS_KEYS)[number], string>> = {};
  for (const key of PATIENT_CLASS_KEYS) {
    if (keep && !keep.includes(key)) out[key] = '';
    else if (update[key] !== undefined) out[key] = update[key];
  }
  return out;
}

export interface ExtensionConfig {
  id: string;
  name: string;
  data: Record<string, unknown>;
}

/**
 * Checks per-exam extension values against the organization's extension configs: each key must
 * be a config's id; numbers for number configs, one of the options for select configs, a date
 * YYYY-MM-DD for date configs. Answers the problems by key (empty when all are valid).
 */
export function extensionProblems(
  configs: readonly ExtensionConfig[],
  values: Record<string, string | number>,
): Record<string, string> {
  const byId = new Map(configs.map((c) => [c.id, c]));
  const problems: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    const config = byId.get(key);
    if (!config) {
      problems[key] = 'not an extension of this organization';
      continue;
    }
    const type = config.data.type;
    if (value === '') continue;
    if (type === 'number' && (typeof value !== 'number' || !Number.isFinite(value))) {
      problems[key] = 'a number';
    } else if (type === 'select') {
      const options = Array.isArray(config.data.options) ? (config.data.options as unknown[]) : [];
      if (!options.includes(value)) problems[key] = `one of ${options.join(', ')}`;
    } else if (type === 'date' && !(typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value))) {
      problems[key] = 'a date YYYY-MM-DD';
    } else if (type === 'text' && typeof value !== 'string') {
      problems[key] = 'text';
    }
  }
  return problems;
}

/** Required extension configs left empty after the change. */
export function missingRequired(
  configs: readonly ExtensionConfig[],
  values: Record<string, string | number>,
): string[] {
  return configs
    .filter((c) => c.data.required === true && (values[c.id] === undefined || values[c.id] === ''))
    .map((c) => c.id);
}

export interface AssignRuleLike {
  bucketIds: string[];
  modality: string | null;
  doctorId: string | null;
  memberIds: string[];
}

/**
 * Automatic assignment of a new exam (spec 000 §3 assign rules: organizations, doctor, modality,
 * members, priority). Rules come ordered by priority (lower first); the first rule whose
 * organizations (none = all) and modality (none = any; one of ModalitiesInStudy) match decides:
 * its doctor if the doctor may report there, else the member with the fewest open exams among
 * its members who may (ties: the order listed). A matching rule with nobody eligible passes to
 * the next rule. Answers the account id, or null.
 */
export function pickAssignee(
  rules: readonly AssignRuleLike[],
  exam: { bucketId: string; modality: string },
  reporters: ReadonlySet<string>,
  workload: ReadonlyMap<string, number>,
): string | null {
  const modalities = exam.modality
    .split('\\')
    .map((m) => m.trim().toUpperCase())
    .filter(Boolean);
  for (const rule of rules) {
    if (rule.bucketIds.length > 0 && !rule.bucketIds.includes(exam.bucketId)) continue;
    const wanted = rule.modality?.trim().toUpperCase();
    if (wanted && !modalities.includes(wanted)) continue;
    if (rule.doctorId && reporters.has(rule.doctorId)) return rule.doctorId;
    let best: string | null = null;
    for (const m of rule.memberIds) {
      if (!reporters.has(m)) continue;
      if (best === null || (workload.get(m) ?? 0) < (workload.get(best) ?? 0)) best = m;
    }
    if (best) return best;
  }
  return null;
}
