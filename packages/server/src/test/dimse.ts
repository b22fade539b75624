import { startDimse } from '../dicom/dimse.js';
import type { DimseTls } from '../dicom/dimse-tls.js';
import { dimseHandlers } from '../dimse-wiring.js';
import type { TestApp } from './harness.js';

/**
 * The DIMSE listener (C-ECHO, C-STORE, Modality Worklist, MPPS, Query/Retrieve) of a test app on
 * a free port, wired as main.ts wires it (dimse-wiring.ts): refused associations audited (unless
 * `auditRefusals` is false). Listens on every interface unless `host` is given.
 */
export function startTestDimse(
  t: TestApp,
  opts: { host?: string; auditRefusals?: boolean; tls?: DimseTls } = {},
): Promise<{ close(): void; port: number }> {
  return startDimse(
    0,
    dimseHandlers(t.services, {
      aeTitle: 'YYP',
      ...(opts.auditRefusals === false
        ? {}
        : {
            onRefused: (c: string, d: string, r: string, reason: string) =>
              void t.services.archive.auditRefusedAssociation(c, d, r, reason),
          }),
    }),
    opts.host,
    opts.tls,
  );
}
