import { describe, expect, it } from 'vitest';
import { negotiateContexts } from './dimse-negotiation.js';
import type { AssociateRq } from './ul.js';

const CT = '1.2.840.10008.5.1.4.1.1.2';
const MR = '1.2.840.10008.5.1.4.1.1.4';
const FIND = '1.2.840.10008.5.1.4.1.2.2.1';
const EXPLICIT = '1.2.840.10008.1.2.1';
const IMPLICIT = '1.2.840.10008.1.2';
const JPEG_LS = '1.2.840.10008.1.2.4.80';

const rq = (contexts: AssociateRq['contexts'], roles: AssociateRq['roles'] = []): AssociateRq => ({
  calledAe: 'YYP',
  callingAe: 'WS',
  applicationContext: '1.2.840.10008.3.1.1.1',
  contexts,
  maxPduLength: 16384,
  implementationClassUid: '1.2.3',
  implementationVersion: 'T',
  roles,
});

describe('presentation context negotiation', () => {
  it('accepts our preferred syntax among those offered; queries only uncompressed; unsupported classes refused', () => {
    const { answers, accepted } = negotiateContexts(
      rq([
        { id: 1, abstractSyntax: CT, transferSyntaxes: [JPEG_LS, IMPLICIT, EXPLICIT] },
        { id: 3, abstractSyntax: FIND, transferSyntaxes: [JPEG_LS, IMPLICIT] },
        { id: 5, abstractSyntax: FIND, transferSyntaxes: [JPEG_LS] },
        { id: 7, abstractSyntax: '1.2.3.4', transferSyntaxes: [EXPLICIT] },
      ]),
      (a) => a !== '1.2.3.4',
    );
    expect(answers.map((a) => [a.id, a.result, a.transferSyntax])).toEqual([
      [1, 0, EXPLICIT],
      [3, 0, IMPLICIT],
      [5, 4, JPEG_LS],
      [7, 3, EXPLICIT],
    ]);
    expect([...accepted.keys()]).toEqual([1, 3]);
    expect(accepted.get(1)!.requestorIsScp).toBe(false);
  });

  it('gives the requestor the SCP role it proposed for storage classes it was accepted for, and answers those roles', () => {
    const { accepted, roles } = negotiateContexts(
      rq(
        [
          { id: 1, abstractSyntax: CT, transferSyntaxes: [EXPLICIT] },
          { id: 3, abstractSyntax: MR, transferSyntaxes: ['9.9'] },
          { id: 5, abstractSyntax: FIND, transferSyntaxes: [EXPLICIT] },
        ],
        [
          { sopClass: CT, scu: false, scp: true },
          { sopClass: MR, scu: false, scp: true },
          { sopClass: FIND, scu: true, scp: true },
        ],
      ),
      () => true,
    );
    expect(accepted.get(1)!.requestorIsScp).toBe(true);
    expect(accepted.get(5)!.requestorIsScp).toBe(false);
    // MR's context was refused (no syntax of ours), so its role is not answered; nor is the query's.
    expect(roles).toEqual([{ sopClass: CT, scu: false, scp: true }]);
  });
});
