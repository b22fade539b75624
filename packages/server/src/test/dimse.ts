import { startDimse } from '../dicom/dimse.js';
import type { TestApp } from './harness.js';

/**
 * The DIMSE listener (C-ECHO, C-STORE, Modality Worklist, MPPS) of a test app on a free port, wired as main.ts wires it:
 * callers resolved and instances ingested by the app's archive, refused associations audited
 * (unless `auditRefusals` is false). Listens on every interface unless `host` is given.
 */
export function startTestDimse(
  t: TestApp,
  opts: { host?: string; auditRefusals?: boolean } = {},
): Promise<{ close(): void; port: number }> {
  return startDimse(
    0,
    {
      resolveCaller: (c, d, r) => t.services.archive.resolveCaller(c, d, r),
      store: async (bucketId, bytes) => {
        await t.services.archive.ingest(bucketId, bytes, 'dimse');
      },
      worklist: (caller, query) => t.services.registryDicom.worklist(caller, query),
      mpps: (caller, event) => t.services.registryDicom.mpps(caller, event),
      ...(opts.auditRefusals === false
        ? {}
        : {
            onRefused: (c: string, d: string, r: string, reason: string) =>
              void t.services.archive.auditRefusedAssociation(c, d, r, reason),
          }),
    },
    opts.host,
  );
}
