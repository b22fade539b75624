/**
 * The acceptor's answer to an A-ASSOCIATE-RQ's presentation contexts and role selections
 * (PS3.8 9.3.3, PS3.7 D.3.3.4): which contexts are accepted in which transfer syntax, and the
 * storage SOP classes on which the requestor takes the SCP role (a C-GET's sub-operations).
 */
import { COMMITMENT_SOP_CLASS } from './commitment.js';
import { CONTEXT_RESULT, type AssociateRq, type ContextAnswer, type RoleSelection } from './ul.js';

/** Transfer syntaxes accepted as offered (stored as received, never transcoded), most preferred first. */
export const ACCEPTED_SYNTAXES = [
  '1.2.840.10008.1.2.1', // Explicit VR Little Endian
  '1.2.840.10008.1.2', // Implicit VR Little Endian
  '1.2.840.10008.1.2.4.70', // JPEG lossless SV1
  '1.2.840.10008.1.2.4.57', // JPEG lossless
  '1.2.840.10008.1.2.4.50', // JPEG baseline
  '1.2.840.10008.1.2.4.51', // JPEG extended
  '1.2.840.10008.1.2.4.80', // JPEG-LS lossless
  '1.2.840.10008.1.2.4.81', // JPEG-LS near-lossless
  '1.2.840.10008.1.2.4.90', // JPEG 2000 lossless
  '1.2.840.10008.1.2.4.91', // JPEG 2000
  '1.2.840.10008.1.2.5', // RLE lossless
  '1.2.840.10008.1.2.2', // Explicit VR Big Endian (retired, still sent by old modalities)
  '1.2.840.10008.1.2.1.99', // Deflated Explicit VR Little Endian (inflated on arrival, deflate.ts)
];

export const STORAGE_PREFIX = '1.2.840.10008.5.1.4.1.1.';
/** Queries, worklist identifiers and MPPS attribute lists are read in these only (never compressed). */
const UNCOMPRESSED_LE = ['1.2.840.10008.1.2.1', '1.2.840.10008.1.2'];

export interface AcceptedContext {
  abstractSyntax: string;
  transferSyntax: string;
  /** the requestor is the SCP of this storage class here: yyp may send C-STORE on it (C-GET) */
  requestorIsScp: boolean;
}

/**
 * Each proposed context answered: accepted with the first syntax of ours the requestor offers,
 * or refused (abstract syntax not supported, or none of its transfer syntaxes). A storage class
 * for which the requestor proposed the SCP role gets it (answered in `roles`).
 */
export function negotiateContexts(
  rq: AssociateRq,
  supports: (abstractSyntax: string) => boolean,
): { answers: ContextAnswer[]; accepted: Map<number, AcceptedContext>; roles: RoleSelection[] } {
  const accepted = new Map<number, AcceptedContext>();
  const proposedRoles = new Map(rq.roles.map((r) => [r.sopClass, r]));
  const roles = new Map<string, RoleSelection>();
  const answers = rq.contexts.map((c) => {
    const storage = c.abstractSyntax.startsWith(STORAGE_PREFIX);
    const chosen = (storage ? ACCEPTED_SYNTAXES : UNCOMPRESSED_LE).find((ts) => c.transferSyntaxes.includes(ts));
    const result = !supports(c.abstractSyntax)
      ? CONTEXT_RESULT.abstractSyntaxNotSupported
      : chosen
        ? CONTEXT_RESULT.acceptance
        : CONTEXT_RESULT.transferSyntaxesNotSupported;
    if (result === CONTEXT_RESULT.acceptance) {
      // The requestor may be SCP of a storage class (C-GET) or of storage commitment (its reports).
      const role =
        storage || c.abstractSyntax === COMMITMENT_SOP_CLASS ? proposedRoles.get(c.abstractSyntax) : undefined;
      if (role) roles.set(c.abstractSyntax, role);
      accepted.set(c.id, {
        abstractSyntax: c.abstractSyntax,
        transferSyntax: chosen!,
        requestorIsScp: role?.scp === true,
      });
    }
    return { id: c.id, result, transferSyntax: chosen ?? c.transferSyntaxes[0] ?? ACCEPTED_SYNTAXES[1]! };
  });
  return { answers, accepted, roles: [...roles.values()] };
}
