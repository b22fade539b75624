import { maskIdentifier, maskPatientName } from '@yyp/contracts';

type DicomJson = Record<string, { vr: string; Value?: unknown[]; [k: string]: unknown } | undefined>;

/** Private attributes the viewer masks for a caller without view_privacy (or on a share path). */
const IDENTIFIERS = ['00100020', '00101000', '00100021', '00080050', '00102154'] as const;
const DROPPED = ['00100030', '00100032', '00101040', '00101001', '00101002'] as const;
/** Every attribute maskMetadata masks or empties (a masked caller is refused their raw values). */
export const MASKED_TAGS: ReadonlySet<string> = new Set(['00100010', ...IDENTIFIERS, ...DROPPED]);

const text = (v: unknown): string =>
  typeof v === 'string' ? v : v && typeof v === 'object' && 'Alphabetic' in v ? String(v.Alphabetic) : '';

/**
 * The instance's DICOM JSON with the patient's name and identifiers masked as every other answer
 * masks them (contracts privacy.ts) and the birth date, address and other names left empty.
 * `patientName` is the exam's decoded name, so the masked name matches the list's.
 */
export function maskMetadata(json: DicomJson, patientName: string): DicomJson {
  const out: DicomJson = { ...json };
  if (out['00100010']) {
    const stored = out['00100010'].Value?.[0];
    const masked = maskPatientName(patientName || text(stored));
    out['00100010'] = { vr: 'PN', ...(masked ? { Value: [{ Alphabetic: masked }] } : {}) };
  }
  for (const tag of IDENTIFIERS) {
    const attr = out[tag];
    if (!attr) continue;
    const values = (attr.Value ?? []).map((v) => maskIdentifier(text(v)));
    out[tag] = { vr: attr.vr, ...(values.length ? { Value: values } : {}) };
  }
  for (const tag of DROPPED) {
    if (out[tag]) out[tag] = { vr: out[tag].vr };
  }
  return out;
}
