import { firstNamedGroup } from './person-name.js';

/**
 * Masking of private patient fields (spec 000 §6 view_privacy): the one rule that decides whether
 * a caller sees them (privateFieldsMasked) and the one implementation of the masks every answer
 * uses — the exam list, the viewer, the report editor and print, notifications and upload-code
 * pages — so a name never shows more to one screen than to another.
 */

/** What decides, for one caller and one organization, whether private fields show. */
export interface PrivacyContext {
  /** the organization's group has the privacy feature on (group flag enablePrivacy, spec 000 §6) */
  groupPrivacy: boolean;
  /** the caller holds view_privacy in the organization */
  viewPrivacy: boolean;
}

/**
 * Whether an exam's private fields (patient name, patient id, accession number, birth date, …)
 * are masked for a caller. Spec 000 §6: the group flag enablePrivacy gates the privacy feature and
 * view_privacy is an action. With the group's privacy off, everyone who may see the exam sees
 * them, except on a confidential exam (isPrivacy), which stays masked without view_privacy; with
 * it on, everyone without view_privacy sees masks. view_privacy always shows them. Paths without a
 * caller (share links, upload codes, anonymous pages) mask whatever this says.
 */
export function privateFieldsMasked(ctx: PrivacyContext, exam: { isPrivacy: boolean }): boolean {
  if (ctx.viewPrivacy) {
    return false;
  }
  return ctx.groupPrivacy || exam.isPrivacy;
}

/**
 * A patient name for a caller without view_privacy: first and last character around one star
 * (王小东 → 王*东, 王东 → 王*, Zhang^San → Z*n). DICOM component separators (^) and spaces do not
 * count, so a two-character name written 李^四 masks as 李* and never shows whole; of a name with
 * alphabetic and ideographic groups (Wang^Xiaodong=王^小东) only the first non-empty group is used.
 */
export function maskPatientName(name: string): string {
  const group = firstNamedGroup(name);
  const chars = Array.from(group.replace(/[\^\s]+/g, ''));
  if (chars.length === 0) {
    return '';
  }
  if (chars.length === 1) {
    return '*';
  }
  if (chars.length === 2) {
    return `${chars[0]}*`;
  }
  return `${chars[0]}*${chars[chars.length - 1]}`;
}

/**
 * An identifier (patient id, accession number, phone) for a caller without view_privacy: the
 * first two and last two characters of a long one, the last two of a short one, stars between
 * (YYP12345678 → YY*******78, 12345 → ***45); at most four characters ever show.
 */
export function maskIdentifier(value: string): string {
  const chars = Array.from(value.trim());
  if (chars.length === 0) {
    return '';
  }
  if (chars.length <= 2) {
    return '*'.repeat(chars.length);
  }
  if (chars.length < 8) {
    return `${'*'.repeat(chars.length - 2)}${chars.slice(-2).join('')}`;
  }
  return `${chars.slice(0, 2).join('')}${'*'.repeat(chars.length - 4)}${chars.slice(-2).join('')}`;
}
