/**
 * Factories of the privacy tests (issue 21 step 5): who sees whom (contracts privateFieldsMasked,
 * the group flag enablePrivacy and the action view_privacy), built instead of the demo seed's
 * two groups.
 *
 *   const world = await makePrivacyWorld(t, ['doctor', 'registrar', 'teledoctor', 'expert']);
 *   await t.services.archive.ingest(world.tele.org.bucketId, privacyStudy('赵^磊', 'P-1').instances[0]!.bytes, 'web');
 *   await t.as(world.tok.teledoctor!).get(`exams/${examId}`); // masked
 *
 * A test of masking as a reporting doctor without view_privacy (what the seeded hospital with its
 * privacy turned on and view_privacy taken from 报告医生 gave) builds makeMaskingHospital.
 */
import { generateStudy, type GeneratedStudy, type StudyOptions } from '../dicom/testdata/generate.js';
import { makeStaffed, type StaffName, type StaffSpec, type Staffed } from './factories-archive.js';
import type { TestApp } from './harness.js';

/** The readers of the hospital (privacy off) and of the teleradiology group (privacy on). */
const HOSPITAL_READERS = ['doctor', 'registrar', 'tech', 'notetaker', 'groupadmin', 'senior'] as const;
const TELE_READERS = ['teledoctor', 'expert', 'teleadmin'] as const;
type HospitalReader = (typeof HOSPITAL_READERS)[number];
type TeleReader = (typeof TELE_READERS)[number];
export type PrivacyReader = HospitalReader | TeleReader;

/** The readers whose view of a patient the exam privacy tests compare. */
export const PRIVACY_READERS = [
  'doctor',
  'registrar',
  'tech',
  'notetaker',
  'teledoctor',
  'expert',
  'groupadmin',
] as const satisfies readonly PrivacyReader[];

export interface PrivacyWorld {
  /** A hospital's radiology in a group with privacy off (the demo's 仁和医院 放射科). */
  hospital: Staffed<HospitalReader>;
  /** A teleradiology centre in a group with privacy on (the demo's 远程诊断中心). */
  tele: Staffed<TeleReader>;
  /** Each reader's token by name. */
  tok: Partial<Record<PrivacyReader, string>>;
}

/**
 * Two groups, the hospital's with privacy off and the teleradiology group's with it on, each with
 * one organization and those of `readers` who work there: 报告医生 doctor and 审核医生 expert hold
 * view_privacy, 远程阅片医生 teledoctor and 登记员 registrar do not (DEMO_STAFF). `specs` change a
 * reader's role (e.g. an action added).
 */
export async function makePrivacyWorld(
  t: TestApp,
  readers: readonly PrivacyReader[],
  specs: Partial<Record<PrivacyReader, StaffSpec>> = {},
): Promise<PrivacyWorld> {
  const of = <K extends PrivacyReader>(names: readonly K[]) => readers.filter((r): r is K => names.includes(r as K));
  const hospital = await makeStaffed(t, of(HOSPITAL_READERS), { group: { enablePrivacy: false } }, specs);
  const tele = await makeStaffed(t, of(TELE_READERS), { group: { enablePrivacy: true } }, specs);
  const tok: PrivacyWorld['tok'] = {};
  for (const r of of(HOSPITAL_READERS)) tok[r] = hospital[r].token;
  for (const r of of(TELE_READERS)) tok[r] = tele[r].token;
  return { hospital, tele, tok };
}

/**
 * An organization in a group with privacy on whose reporting members (doctor, notetaker) hold
 * 报告医生's actions without view_privacy, so they see masks, while senior (审核医生) sees
 * everything (the masking the seeded hospital showed once its privacy was on).
 */
export function makeMaskingHospital<K extends StaffName>(t: TestApp, who: readonly K[]): Promise<Staffed<K>> {
  const masked: StaffSpec = { role: 'reporting', without: ['view_privacy'] };
  const specs: Partial<Record<StaffName, StaffSpec>> = {
    doctor: masked,
    notetaker: { ...masked, level: 'collaborator' },
  };
  return makeStaffed(t, who, { group: { enablePrivacy: true } }, specs);
}

/** A small CT (one 16×16 slice unless `options` say otherwise) of a patient named in GB18030. */
export function privacyStudy(
  patientName: string,
  patientId: string,
  options: Partial<StudyOptions> = {},
): GeneratedStudy {
  return generateStudy({
    modality: 'CT',
    instancesPerSeries: 1,
    rows: 16,
    columns: 16,
    patientName,
    charset: 'GB18030',
    patientId,
    ...options,
  });
}
