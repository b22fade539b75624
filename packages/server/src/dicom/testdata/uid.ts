/**
 * DICOM UIDs for generated test data (PS3.5 §9.1: digits and dots, at most 64 characters, no
 * component with a leading zero).
 */
import { randomBytes } from 'node:crypto';

/** A sub-root of the free 1.2.826.0.1.3680043.10 arc, used only for synthetic test objects. */
export const DEFAULT_UID_ROOT = '1.2.826.0.1.3680043.10.1187';

const UID_PATTERN = /^(0|[1-9][0-9]*)(\.(0|[1-9][0-9]*))*$/;

export function isValidUid(uid: string): boolean {
  return uid.length > 0 && uid.length <= 64 && UID_PATTERN.test(uid);
}

/**
 * One random component per process plus a counter keeps each UID cheap (thousands per
 * generated study) while staying unique across processes that share an archive. BigInt
 * formatting never yields a leading zero.
 */
const session = BigInt('0x' + randomBytes(7).toString('hex')).toString();
let counter = 0;

export function newUid(root: string = DEFAULT_UID_ROOT): string {
  counter += 1;
  const uid = `${root}.${session}.${counter}`;
  if (!isValidUid(uid)) {
    throw new Error(`cannot make a valid UID under root "${root}" (${uid.length} characters)`);
  }
  return uid;
}
